import type { Browser, BrowserContext, Page } from 'playwright-core';
import { TestStack } from '@docintel/testing';
import { documentLink } from '../apps/console/src/features/document/links';
import { canvasInk, DESKTOP, followInApp, launchChromium, openPage, PHONE, screenshot, waitUntil } from './support/console';
import { Indexer } from './support/indexing';

interface Node {
  id: string;
  type: string;
  text: string;
  positions: Array<Record<string, unknown>>;
  children: Node[];
}

const flatten = (n: Node): Node[] => [n, ...n.children.flatMap(flatten)];

/**
 * The document view in a real browser against the started services: a born-digital PDF (three
 * pages, a table on the third) rendered by pdf.js with its node boxes, an HTML page with a table
 * and a text file with a formula as readable documents, and links built by documentLink (as job
 * citations are) opening the view at a node, on its page, highlighted and focused.
 */
describe('the console document view', () => {
  let stack: TestStack;
  let alice: Indexer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];
  const files: Record<'pdf' | 'html' | 'text', { id: string; nodes: Node[] }> = {} as never;

  const url = (path: string) => `${stack.baseUrl}${path}`;
  const node = (file: keyof typeof files, type: string, text: string): Node => {
    const found = files[file].nodes.find((n) => n.type === type && n.text === text);
    if (!found) throw new Error(`no ${type} "${text}" in the ${file} tree`);
    return found;
  };
  const focusedNodeId = () => page.evaluate<string | null>('document.activeElement?.getAttribute("data-node-id") ?? null');

  beforeAll(async () => {
    browser = await launchChromium();
    stack = await TestStack.start({ label: 'console-document' });
    alice = await Indexer.forNamespace(stack, 'default', 'reader@example.com');
    const text = [
      'Field notes',
      '',
      'The energy of a body at rest is $E = mc^2$ in the simplest case.',
      '',
      'Second paragraph, on its own line.',
      '',
    ].join('\n');
    const created = {
      pdf: await alice.index('docs/multicolumn.pdf', { corpus: 'pdf/pypdf-samples_multicolumn.pdf' }),
      html: await alice.index('docs/example.html', { corpus: 'html/docling_example_03.html' }),
      text: await alice.index('docs/notes.txt', { bytes: text }),
    };
    for (const [name, f] of Object.entries(created) as Array<[keyof typeof files, { id: { id: string } }]>) {
      const settled = await alice.stepsSettled(f.id.id, ['formula_augmentation']);
      expect([name, settled.lastIndexationInfos.status]).toEqual([name, 'SUCCESS']);
      const res = await alice.call('GET', `/api/core/files/${f.id.id}/document`);
      files[name] = { id: f.id.id, nodes: flatten((await res.json()) as Node) };
    }
    const token = await stack.token('default', 'reader@example.com');
    ({ context, page, errors } = await openPage(browser, DESKTOP, token));
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await stack?.stop();
  });
  afterEach(() => {
    expect(errors).toEqual([]);
  });

  it('opens a PDF from its file page: page 1 rendered by pdf.js, with its node boxes', async () => {
    await page.goto(url(`/files/${files.pdf.id}`));
    await page.getByRole('link', { name: 'Read the document' }).click();
    await page.waitForURL(new RegExp(`/files/${files.pdf.id}/document$`));
    await page.locator('canvas[data-rendered="true"]').waitFor({ timeout: 30_000 });
    expect(await canvasInk(page, 'canvas[data-rendered="true"]')).toBeGreaterThan(1000);
    await expect(page.locator('[data-page-status]').textContent()).resolves.toBe('Page 1 of 3');
    expect(await page.locator('[data-box]').count()).toBeGreaterThan(0);
    await expect(page.getByRole('img', { name: 'Page 1 of 3' }).isVisible()).resolves.toBe(true);

    // Hovering a box tells its type and text.
    const first = page.locator('[data-box]').first();
    await first.hover();
    await expect(page.locator('[data-box-label]').textContent()).resolves.toMatch(/page 1/);
    await screenshot(page, 'document-pdf');
  });

  it('switches pages, shows the table of page 3 as an HTML table, and moves between boxes with the keyboard', async () => {
    await page.getByRole('button', { name: 'Page 3', exact: true }).click();
    await page.locator('canvas[data-rendered="true"]').waitFor();
    await expect(page.locator('[data-page-status]').textContent()).resolves.toBe('Page 3 of 3');
    expect(await canvasInk(page, 'canvas[data-rendered="true"]')).toBeGreaterThan(1000);
    const table = page.getByRole('region', { name: 'Table 1 of page 3' }).locator('table');
    await table.waitFor();
    const header = await table.locator('tr').first().locator('th').allTextContents();
    expect(header.slice(0, 2)).toEqual(['Country', 'Population (millions)']);
    const austria = await table.locator('tr').nth(1).locator('td').allTextContents();
    expect(austria).toEqual(['Austria', '8.9', '83,879', 'Vienna', 'German']);
    expect(await page.locator('[data-box][data-type="cell"]').count()).toBeGreaterThan(20);

    // Tab into the boxes, then the arrow keys follow the reading order.
    await page.locator('[data-box]').first().focus();
    const from = await focusedNodeId();
    await page.keyboard.press('ArrowDown');
    const to = await focusedNodeId();
    expect(to).not.toBeNull();
    expect(to).not.toBe(from);
    await expect(page.locator('[data-box-label]').isVisible()).resolves.toBe(true);
  });

  it('opens a citation link built by documentLink at its node: back on page 1, it switches to page 3 and highlights the cell', async () => {
    await page.getByRole('button', { name: 'Page 1', exact: true }).click();
    await expect(page.locator('[data-page-status]').textContent()).resolves.toBe('Page 1 of 3');

    const vienna = node('pdf', 'cell', 'Vienna');
    // As a job's annotation carries it: the node and its positions.
    const link = documentLink(files.pdf.id, { data: { nodeId: vienna.id, positions: vienna.positions } });
    expect(link).toMatch(new RegExp(`^/files/${files.pdf.id}/document\\?node=${vienna.id}&page=3&box=`));
    await followInApp(page, link);
    const box = page.locator(`[data-box][data-node-id="${vienna.id}"]`);
    await box.and(page.locator('[data-highlighted="true"]')).waitFor();
    await expect(page.locator('[data-page-status]').textContent()).resolves.toBe('Page 3 of 3');
    await waitUntil(page, `document.activeElement?.getAttribute('data-node-id') === ${JSON.stringify(vienna.id)}`);
    await expect(box.getAttribute('aria-label')).resolves.toBe('Table cell: Vienna');
    expect(await box.isVisible()).toBe(true);
    // The same cell is highlighted in the HTML table below the page.
    await expect(page.locator(`td[data-node-id="${vienna.id}"]`).getAttribute('data-highlighted')).resolves.toBe('true');
    await expect(page.locator('[data-target-label]').textContent()).resolves.toMatch(/Table cell: Vienna \(page 3\)/);
    await screenshot(page, 'document-pdf-citation');

    // A citation with positions only (no node id) finds the node by its box; a reload keeps the place.
    const austria = node('pdf', 'cell', 'Austria');
    await page.goto(url(documentLink(files.pdf.id, { positions: austria.positions })));
    await page.locator(`[data-box][data-node-id="${austria.id}"][data-highlighted="true"]`).waitFor({ timeout: 30_000 });
    await expect(page.locator('[data-page-status]').textContent()).resolves.toBe('Page 3 of 3');
  });

  it('shows an HTML document as headings, lists and a table, and opens a link at one of its cells', async () => {
    await page.goto(url(documentLink(files.html.id)));
    const doc = page.locator('[data-document-tree]');
    await doc.waitFor();
    await page.getByRole('heading', { name: 'Example Document' }).waitFor();
    expect(await doc.locator('ul li').count()).toBeGreaterThan(2);
    expect(await doc.locator('ol li').count()).toBeGreaterThan(2);
    const table = doc.locator('table');
    await expect(table.locator('th').allTextContents()).resolves.toEqual(['Header 1', 'Header 2', 'Header 3']);
    await expect(table.locator('tr').nth(2).locator('td').allTextContents()).resolves.toEqual([
      'Row 2, Col 1',
      'Row 2, Col 2',
      'Row 2, Col 3',
    ]);
    await screenshot(page, 'document-html');

    const cell = node('html', 'cell', 'Row 3, Col 2');
    await followInApp(page, documentLink(files.html.id, { nodeId: cell.id }));
    await page.locator(`td[data-node-id="${cell.id}"][data-highlighted="true"]`).waitFor();
    await waitUntil(page, `document.activeElement?.getAttribute('data-node-id') === ${JSON.stringify(cell.id)}`);
  });

  it('shows a text file with line numbers and its formula rendered by KaTeX, and opens a line link', async () => {
    await page.goto(url(documentLink(files.text.id)));
    const doc = page.locator('[data-document-tree]');
    await doc.waitFor();
    await doc.locator('[data-katex] .katex').first().waitFor();
    // The MathML KaTeX writes beside its HTML keeps the (normalised) LaTeX.
    await expect(doc.locator('[data-katex] annotation').first().textContent()).resolves.toMatch(/^E\s*=\s*mc\^\{?2\}?$/);
    await expect(doc.getByLabel('Line 5').textContent()).resolves.toBe('5');

    const second = node('text', 'paragraph', 'Second paragraph, on its own line.');
    await followInApp(
      page,
      documentLink(files.text.id, { positions: [{ type: 'LINE', line_number: 5, column_index_start: 7, column_index_stop: 16 }] }),
    );
    await page.locator(`[data-node-id="${second.id}"][data-highlighted="true"]`).waitFor();
    await screenshot(page, 'document-text');
  });

  it('is readable on a phone: the page fits the screen and a citation link still lands on its cell', async () => {
    const token = await stack.token('default', 'reader@example.com');
    const phone = await openPage(browser, PHONE, token);
    try {
      const vienna = node('pdf', 'cell', 'Vienna');
      await phone.page.goto(url(documentLink(files.pdf.id, { nodeId: vienna.id })));
      await phone.page.locator('canvas[data-rendered="true"]').waitFor({ timeout: 30_000 });
      await phone.page.locator(`[data-box][data-node-id="${vienna.id}"][data-highlighted="true"]`).waitFor();
      expect(await phone.page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);
      const canvasBox = await phone.page.locator('canvas').boundingBox();
      expect(canvasBox && canvasBox.width).toBeLessThanOrEqual(PHONE.width);
      await screenshot(phone.page, 'document-phone');
      expect(phone.errors).toEqual([]);
    } finally {
      await phone.context.close();
    }
  });
});
