import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { unwrap, waitForJob } from '@docintel/api-client';
import { REPO_ROOT, TestStack } from '@docintel/testing';
import { documentLink } from '../apps/console/src/router/document-links';
import { sentenceStarts } from '../apps/console/src/features/document/quote';
import {
  canvasInk,
  DESKTOP,
  documentPathPattern,
  followInApp,
  launchChromium,
  openPage,
  PHONE,
  screenshot,
  waitUntil,
  closesConsoleSpec,
} from './support/console';
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
 * citations are) opening the view at a node, on its page, highlighted and focused. A QA job's
 * citation marks the sentence it quotes (a CSV's, the cell); on a phone, a box's label stays off
 * its box and a CSV's cells keep their words whole, the table scrolling sideways.
 */
describe('the console document view', () => {
  let stack: TestStack;
  let alice: Indexer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];
  const files: Record<'pdf' | 'html' | 'text' | 'contract' | 'csv', { id: string; nodes: Node[] }> = {} as never;
  const CONTRACT_TERMS =
    'This agreement starts on 1 May 2026. Either party may end it with a notice period of 90 days. Payments are due monthly.';
  /** Cells of single long words: a phone cannot show them side by side without scrolling. */
  const PARTS = [
    'part,specification,price',
    'Widget,Thermoregulation_coefficient_nominal_value,4.75',
    'Gadget,Electromagnetic_interference_shielding_grade,12.50',
    '',
  ].join('\n');

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
      contract: await alice.index('docs/contract.txt', { bytes: `Service agreement\n\n${CONTRACT_TERMS}\n` }),
      csv: await alice.index('docs/parts.csv', { bytes: PARTS }),
    };
    for (const [name, f] of Object.entries(created) as Array<[keyof typeof files, { id: { id: string } }]>) {
      const settled = await alice.stepsSettled(f.id.id, ['formula_augmentation', 'passage_indexing']);
      expect([name, settled.lastIndexationInfos.status]).toEqual([name, 'SUCCESS']);
      const res = await alice.call('GET', `/api/core/files/${f.id.id}/document`);
      files[name] = { id: f.id.id, nodes: flatten((await res.json()) as Node) };
    }
    const token = await stack.token('default', 'reader@example.com');
    ({ context, page, errors } = await openPage(browser, DESKTOP, token));
  });
  closesConsoleSpec(() => ({ context, browser, stack, errors }));

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

  /** Asks one question of one file as a QA job, opens the job's page and follows the answer's first citation. */
  const followCitation = async (file: keyof typeof files, question: string, dataType: 'STRING' | 'FLOAT') => {
    const job = await unwrap(
      alice.api.POST('/api/core/qa/jobs', {
        body: { files: { fileIds: [files[file].id] }, questions: [{ id: 'q1', question, answerType: { dataType, multiValued: false } }] },
      }),
    );
    const done = await waitForJob(alice.api, 'qa', job.jobId, {
      initialDelayMs: 300,
      factor: 1.5,
      maxDelayMs: 2000,
      signal: AbortSignal.timeout(90_000),
    });
    expect(done.status).toBe('SUCCESS');
    await page.goto(url(`/jobs/qa?job=${job.jobId}`));
    const link = page.locator('[data-question="q1"] [data-citation]').first().getByRole('link');
    await link.click();
    await page.waitForURL(documentPathPattern(files[file].id));
    await page.locator('[data-document-tree] [data-highlighted="true"]').waitFor();
  };

  it("marks the sentence a QA answer's citation quotes, not its whole paragraph; a CSV citation marks the cell", async () => {
    await followCitation('contract', 'What is the notice period?', 'STRING');
    const cited = page.locator('[data-document-tree] [data-highlighted="true"]');
    await expect(cited.getAttribute('data-node-id')).resolves.toBe(node('contract', 'paragraph', CONTRACT_TERMS).id);
    const marks = page.locator('[data-document-tree] mark');
    await expect(marks.count()).resolves.toBe(1);
    await expect(marks.textContent()).resolves.toBe('Either party may end it with a notice period of 90 days.');
    // Only the sentence is coloured: the paragraph keeps its outline, not its fill.
    const fill = (selector: string) =>
      page.evaluate<string, string>((sel) => getComputedStyle(document.querySelector(sel) as Element).backgroundColor, selector);
    expect(await fill('[data-document-tree] [data-highlighted="true"]')).toBe('rgba(0, 0, 0, 0)');
    expect(await fill('[data-document-tree] mark')).not.toBe('rgba(0, 0, 0, 0)');
    const sentenceShot = await screenshot(page, 'document-cited-sentence');
    if (process.env.CONSOLE_README_SCREENSHOT === '1')
      copyFileSync(sentenceShot, join(REPO_ROOT, 'docs', 'images', 'console-cited-sentence.png'));

    // A quote the node does not hold: the whole paragraph stays the highlight.
    const terms = node('contract', 'paragraph', CONTRACT_TERMS);
    await followInApp(page, documentLink(files.contract.id, { nodeId: terms.id, quote: 'a notice period of 120 days' }));
    await waitUntil(page, `document.querySelectorAll('[data-document-tree] mark').length === 0`);
    await expect(cited.getAttribute('data-node-id')).resolves.toBe(terms.id);
    expect(await fill('[data-document-tree] [data-highlighted="true"]')).not.toBe('rgba(0, 0, 0, 0)');

    // A CSV: the cited cell, not its row.
    await followCitation('csv', 'What is the price of the Gadget?', 'FLOAT');
    await expect(cited.evaluate((el) => [el.tagName, el.textContent])).resolves.toEqual(['TD', '12.50']);
    await expect(page.locator('[data-document-tree] tr[data-highlighted="true"]').count()).resolves.toBe(0);
    await expect(marks.count()).resolves.toBe(0);
  });

  it("marks a PDF paragraph's quoted sentence under the page and in the text view", async () => {
    // A paragraph of page 1 of several sentences, and a few words of its second.
    const paragraph = files.pdf.nodes.find(
      (n) => n.type === 'paragraph' && n.positions.some((p) => p.page_number === 1) && sentenceStarts(n.text).length >= 3,
    ) as Node;
    expect(paragraph).toBeDefined();
    const [, second, third] = sentenceStarts(paragraph.text);
    const sentence = paragraph.text.slice(second, third).trim();
    // Three words first found in that sentence: the quote an answer would carry.
    const split = sentence.split(/\s+/);
    const words = split
      .map((_, i) => split.slice(i, i + 3).join(' '))
      .find((w) => {
        const at = paragraph.text.replace(/\s+/g, ' ').indexOf(w);
        return at >= paragraph.text.slice(0, second).replace(/\s+/g, ' ').length;
      }) as string;
    expect(words).toBeDefined();
    await page.goto(url(documentLink(files.pdf.id, { nodeId: paragraph.id, page: 1, quote: words })));
    await page.locator(`[data-box][data-node-id="${paragraph.id}"][data-highlighted="true"]`).waitFor({ timeout: 30_000 });
    await expect(page.locator('[data-cited-quote] mark').textContent()).resolves.toBe(sentence);

    await page.locator('label', { hasText: /^Text$/ }).click();
    await expect(page.locator('[data-document-tree] mark').textContent()).resolves.toBe(sentence);
    await expect(page.locator('[data-document-tree] [data-highlighted="true"]').getAttribute('data-node-id')).resolves.toBe(paragraph.id);
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

      // A box's label goes above or below the box by the height it measures, never over it: a long
      // paragraph's label wraps to more lines on a phone than the estimate it is first placed with.
      await phone.page.getByRole('button', { name: 'Page 1', exact: true }).click();
      await expect(phone.page.locator('[data-page-status]').textContent()).resolves.toBe('Page 1 of 3');
      const boxes = phone.page.locator('[data-box][data-type="paragraph"]');
      await boxes.first().waitFor();
      const pageTop = (await phone.page.locator('[data-page="1"]').boundingBox())?.y ?? 0;
      let checked = 0;
      for (let i = 0; i < (await boxes.count()) && checked < 3; i++) {
        const box = boxes.nth(i);
        const id = (await box.getAttribute('data-node-id')) as string;
        const text = files.pdf.nodes.find((n) => n.id === id)?.text ?? '';
        const rect = await box.boundingBox();
        // Long text, and room above the box for the first estimate: where an unmeasured label would cover it.
        if (!rect || text.length < 160 || rect.y - pageTop < 120) continue;
        await box.focus();
        const shown = phone.page.locator('[data-box-label]');
        await shown.waitFor();
        await phone.page.waitForTimeout(50);
        const tag = (await shown.boundingBox()) as { x: number; y: number; width: number; height: number };
        const now = (await box.boundingBox()) as { x: number; y: number; width: number; height: number };
        expect(tag.height).toBeGreaterThan(52);
        const apart = tag.y + tag.height <= now.y + 0.5 || tag.y >= now.y + now.height - 0.5;
        expect([id, apart]).toEqual([id, true]);
        checked++;
      }
      expect(checked).toBeGreaterThan(0);
      await screenshot(phone.page, 'document-phone-label');

      // A CSV's cells keep their words whole, each on one line: the table scrolls sideways instead.
      await phone.page.goto(url(documentLink(files.csv.id)));
      const cell = phone.page.locator('[data-document-tree] td', { hasText: 'Electromagnetic_interference_shielding_grade' });
      await cell.waitFor();
      const layout = await cell.evaluate((td) => {
        const range = document.createRange();
        range.selectNodeContents(td.querySelector('span') as Node);
        const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        const wrap = td.closest('[role="region"]') as HTMLElement;
        wrap.scrollLeft = 80;
        return { lines: lines.size, wide: wrap.scrollWidth - wrap.clientWidth, scrolled: wrap.scrollLeft };
      });
      expect(layout.lines).toBe(1);
      expect(layout.wide).toBeGreaterThan(0);
      expect(layout.scrolled).toBeGreaterThan(0);
      expect(await phone.page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);
      await screenshot(phone.page, 'document-phone-csv');
      expect(phone.errors).toEqual([]);
    } finally {
      await phone.context.close();
    }
  });
});
