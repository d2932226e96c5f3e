import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createDocintelClient, unwrap, uploadMultipart, waitForIndexedFile, type DocintelClient } from '@docintel/api-client';
import { REPO_ROOT, TestStack } from '@docintel/testing';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import {
  DESKTOP,
  documentPathPattern,
  launchChromium,
  openPage,
  PHONE,
  pickOption,
  screenshot,
  tabTo,
  waitUntil,
  closesConsoleSpec,
} from './support/console';

/**
 * Collections and the "Ask and extract" area of the web console in a real browser against the
 * started services (built-in engines, no language model): a collection filled and emptied, a
 * question answered typed and cited (the citation opens the document view of the file), an
 * extraction over a collection, a find-similar search and an agent conversation of two turns; how
 * sure each answer is (a low-confidence answer from an HTML page, one not found with its reason) and
 * a Word document's citation opened at its paragraph.
 */
describe('the web console: collections and jobs', () => {
  let stack: TestStack;
  let token: string;
  let api: DocintelClient;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];
  let invoiceId: string;
  let docxId: string;
  let collectionId: string;

  const INVOICE = 'INVOICE 2026-031\nThe invoice total is 1,250 EUR, due on 12 March 2026.\nPayment by bank transfer to Initech.\n';
  /** Minutes that name a founder but not the club's full name: a weak answer to a question that does. */
  const MINUTES = 'Minutes of the annual meeting. The rowing club was founded by Mary Jones after the war.\n';
  const NOTE = 'DELIVERY NOTE\nThe delivery of 40 office chairs reached Initech on 2 February 2026.\nThe invoice follows in March.\n';
  const PRICES = 'product,price\r\nWidget,4.75\r\nGadget,12.50\r\n';
  const corpus = (path: string) => new Uint8Array(readFileSync(join(REPO_ROOT, '..', 'shared', 'corpus', path)));
  const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
  const url = (path: string) => `${stack.baseUrl}${path}`;
  /** Clicks a download button and reads what the browser saved. */
  const downloaded = async (button: Locator): Promise<{ name: string; text: string }> => {
    const [file] = await Promise.all([page.waitForEvent('download'), button.click()]);
    return { name: file.suggestedFilename(), text: readFileSync((await file.path()) as string, 'utf8') };
  };
  const terminal = (status: string) => page.locator(`[data-job-status="${status}"]`).first().waitFor({ timeout: 90_000 });

  beforeAll(async () => {
    browser = await launchChromium();
    stack = await TestStack.start({ label: 'consolejobs' });
    token = await stack.token('default', 'jobs@example.com');
    api = createDocintelClient({ baseUrl: stack.baseUrl, token });
    const providers = await unwrap(api.GET('/api/core/providers', { params: { query: { page: 0, pageSize: 20 } } }));
    const providerId = providers.data[0].id.id;
    const ids: string[] = [];
    for (const [key, text, mediaType] of [
      ['billing/invoice.txt', INVOICE, 'text/plain'],
      ['billing/delivery.txt', NOTE, 'text/plain'],
      ['billing/prices.csv', PRICES, 'text/csv'],
      ['reading/duck.docx', corpus('docx/docling_word_sample.docx'), DOCX_TYPE],
      ['reading/duck.html', corpus('html/docling_wiki_duck.html'), 'text/html'],
      ['club/minutes.txt', MINUTES, 'text/plain'],
    ] as const) {
      await uploadMultipart(api, { providerId, key, body: text, mediaType });
      const created = await unwrap(api.POST('/api/core/files', { body: { providerId, key } }));
      const file = await waitForIndexedFile(api, created.id.id, {
        initialDelayMs: 500,
        factor: 1.5,
        maxDelayMs: 3000,
        signal: AbortSignal.timeout(90_000),
      });
      expect(file.lastIndexationInfos).toMatchObject({ status: 'SUCCESS' });
      ids.push(file.id.id);
    }
    invoiceId = ids[0];
    docxId = ids[3];
    ({ context, page, errors } = await openPage(browser, DESKTOP, token));
  });
  closesConsoleSpec(() => ({ context, browser, stack, errors }));

  it('creates a collection, adds an indexed file, lists it, removes it; renames and deletes collections', async () => {
    await page.goto(url('/providers'));
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Collections' }).click();
    await page.waitForURL(/\/collections$/);
    await page.getByText('No collection yet.').waitFor();

    await page.getByRole('button', { name: 'New collection' }).click();
    await page.getByLabel('Collection name').fill('Invoices');
    await page.getByLabel('Description').fill('Bills of 2026');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/\/collections\/[0-9a-f-]{36}$/);
    collectionId = new URL(page.url()).pathname.split('/')[2];
    await page.getByRole('heading', { name: 'Invoices' }).waitFor();
    await page.getByText('This collection has no file yet.').waitFor();

    await pickOption(page, 'Indexed files to add', 'billing/invoice.txt');
    await page.getByRole('button', { name: 'Add to collection' }).click();
    const row = page.locator('tr[data-file="invoice.txt"]');
    await row.waitFor();
    await expect(page.getByText('1 file ·').count()).resolves.toBe(1);
    await screenshot(page, 'collection');

    await row.getByRole('button', { name: 'Remove invoice.txt from the collection' }).click();
    await page.getByText('This collection has no file yet.').waitFor();
    // Back in, for the jobs below.
    await pickOption(page, 'Indexed files to add', 'billing/invoice.txt');
    await page.getByRole('button', { name: 'Add to collection' }).click();
    await row.waitFor();

    await page.getByRole('link', { name: 'All collections' }).click();
    await page.waitForURL(/\/collections$/);
    await page.locator('tr[data-collection="Invoices"] [data-files-count="1"]').waitFor();
    await page.getByRole('button', { name: 'Rename Invoices' }).click();
    await page.getByLabel('Collection name').fill('Invoices 2026');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('tr[data-collection="Invoices 2026"]').waitFor();

    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'New collection' }).click();
    const create = page.getByRole('dialog', { name: 'New collection' });
    await create.getByLabel('Collection name').fill('Scratch');
    await create.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: 'Scratch' }).waitFor();
    await page.getByRole('link', { name: 'All collections' }).click();
    await page.getByRole('button', { name: 'Delete Scratch' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Scratch?' });
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.locator('tr[data-collection="Scratch"]').waitFor({ state: 'detached' });
    await screenshot(page, 'collections');
  });

  it('asks typed questions of a file and shows the typed answers with citations that open the document view', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Ask and extract' }).click();
    await page.waitForURL(/\/jobs\/qa$/);
    await pickOption(page, 'Files', 'billing/invoice.txt');
    await page.getByLabel('Question 1', { exact: true }).fill('What is the invoice total?');
    await page.getByLabel('Answer type of question 1').selectOption('FLOAT');
    await page.getByRole('button', { name: 'Add a question' }).click();
    await page.getByLabel('Question 2', { exact: true }).fill('When is the invoice due?');
    await page.getByLabel('Answer type of question 2').selectOption('DATE');
    await page.getByRole('button', { name: 'Ask', exact: true }).click();
    await page.waitForURL(/\/jobs\/qa\?job=[0-9a-f-]{36}$/);
    await terminal('SUCCESS');

    const total = page.locator('[data-question="q1"]');
    await total.locator('[data-answer="1,250"]').waitFor();
    await expect(total.locator('[data-answer-kind]').textContent()).resolves.toBe('Number');
    // A sure answer says so, and which engine gave it.
    await expect(total.getAttribute('data-confidence-band')).resolves.toBe('high');
    await expect(total.locator('[data-confidence-band]').textContent()).resolves.toMatch(/^High confidence · \d+%$/);
    await expect(total.locator('[data-engine]').textContent()).resolves.toBe('Answered by the built-in engine (builtin)');
    await page.locator('[data-question="q2"] [data-answer="2026-03-12"]').waitFor();
    const citation = total.locator('[data-citation="invoice.txt"]').first();
    await expect(citation.textContent()).resolves.toContain('1,250');
    await screenshot(page, 'jobs-qa');

    const link = citation.getByRole('link');
    expect(await link.getAttribute('href')).toMatch(documentPathPattern(invoiceId));
    expect(await link.getAttribute('href')).toMatch(/[?&]line=2(&|$)/);
    const jobUrl = page.url();
    await link.click();
    await page.waitForURL(documentPathPattern(invoiceId));
    // The document marks the sentence the answer was read from, not the whole paragraph.
    await expect(page.locator('[data-document-tree] mark').textContent()).resolves.toBe(
      'The invoice total is 1,250 EUR, due on 12 March 2026.',
    );
    // A reload of the job's URL shows its answers again.
    await page.goto(jobUrl);
    await page.locator('[data-question="q1"] [data-answer="1,250"]').waitFor();
  });

  it('shows how sure each answer is in words, says when none was found and why, and names the engine', async () => {
    await page.goto(url('/jobs/qa'));
    await pickOption(page, 'Files', 'club/minutes.txt');
    // The minutes name who founded "the rowing club" but neither Riverside nor Exeter: the built-in
    // engine answers, but not surely.
    await page.getByLabel('Question 1', { exact: true }).fill('Who founded the Riverside Rowing Club in Exeter?');
    await page.getByRole('button', { name: 'Add a question' }).click();
    await page.getByLabel('Question 2', { exact: true }).fill('Who signed the contract?');
    await page.getByRole('button', { name: 'Ask', exact: true }).click();
    await page.waitForURL(/\/jobs\/qa\?job=[0-9a-f-]{36}$/);
    await terminal('SUCCESS');
    const jobId = new URL(page.url()).searchParams.get('job') as string;
    const { results } = await unwrap(api.GET('/api/core/qa/jobs/{jobId}/results', { params: { path: { jobId } } }));
    const [weakResult, missingResult] = results;
    expect(weakResult).toMatchObject({ questionId: 'q1', found: true, rawValue: 'Mary Jones', engine: 'builtin' });
    expect(weakResult.confidence).toBeLessThan(0.5);
    expect(missingResult).toMatchObject({ questionId: 'q2', found: false, engine: 'builtin' });

    const weak = page.locator('[data-question="q1"]');
    await weak.locator('[data-answer]').first().waitFor();
    await expect(weak.getAttribute('data-confidence-band')).resolves.toBe('low');
    const badge = weak.locator('[data-confidence-band="low"]');
    await expect(badge.textContent()).resolves.toBe(`Low confidence · ${Math.round(weakResult.confidence * 100)}%`);
    // Said in words to a screen reader too, not by its colour alone.
    await expect(badge.getAttribute('aria-label')).resolves.toMatch(/^Low confidence \(\d+%\)\. The answer may well be wrong/);
    // A text file's citation names its line.
    expect(await weak.locator('[data-citation="minutes.txt"]').first().getByRole('link').getAttribute('href')).toMatch(/[?&]line=\d+/);

    const missing = page.locator('[data-question="q2"]');
    await missing.locator('[data-not-found]').waitFor();
    await expect(missing.getAttribute('data-confidence-band')).resolves.toBe('none');
    await expect(missing.locator('[data-not-found]').textContent()).resolves.toMatch(/^Not found/);
    await expect(missing.locator('[data-not-found-reason]').textContent()).resolves.toBe(missingResult.explanation);
    await expect(missing.locator('[data-answer]').count()).resolves.toBe(0);

    for (const card of [weak, missing]) {
      await expect(card.locator('[data-engine]').textContent()).resolves.toBe('Answered by the built-in engine (builtin)');
    }
    await screenshot(page, 'jobs-qa-confidence');
    if (process.env.CONSOLE_README_SCREENSHOT === '1') {
      // The two answer cards, as docs/console.md shows them.
      await page.setViewportSize({ width: 1280, height: 1400 });
      await weak.scrollIntoViewIfNeeded();
      const [top, bottom] = (await Promise.all([weak, missing].map((c) => c.boundingBox()))) as Array<{
        x: number;
        y: number;
        width: number;
        height: number;
      }>;
      await page.screenshot({
        path: join(REPO_ROOT, 'docs', 'images', 'console-answers.png'),
        clip: { x: top.x - 8, y: top.y - 8, width: top.width + 16, height: bottom.y + bottom.height - top.y + 16 },
      });
      await page.setViewportSize(DESKTOP);
    }
  });

  it('opens a Word document citation at its paragraph, highlighted and focused, with or without its node id', async () => {
    await page.goto(url('/jobs/qa'));
    await pickOption(page, 'Files', 'reading/duck.docx');
    await page.getByLabel('Question 1', { exact: true }).fill('How many calories per portion do berries have?');
    await page.getByLabel('Answer type of question 1').selectOption('INT');
    await page.getByRole('button', { name: 'Ask', exact: true }).click();
    await page.waitForURL(/\/jobs\/qa\?job=[0-9a-f-]{36}$/);
    await terminal('SUCCESS');
    const card = page.locator('[data-question="q1"]');
    await card.locator('[data-answer="150"]').waitFor();
    const citation = card.locator('[data-citation="duck.docx"]').first();
    // The table cell's paragraph, counted from 1 for people.
    await expect(citation.getByRole('link').textContent()).resolves.toMatch(/^duck\.docx, paragraph \d+$/);
    const href = (await citation.getByRole('link').getAttribute('href')) as string;
    expect(href).toMatch(documentPathPattern(docxId));
    expect(href).toMatch(/[?&]paragraph=\d+/);
    const nodeId = new URL(href, stack.baseUrl).searchParams.get('node') as string;
    expect(nodeId).toBeTruthy();

    const opened = async () => {
      const cited = page.locator(`[data-node-id="${nodeId}"]`);
      await cited.and(page.locator('[data-highlighted="true"]')).waitFor();
      await expect(cited.getAttribute('aria-current')).resolves.toBe('location');
      await expect(cited.textContent()).resolves.toContain('150');
      await waitUntil(page, `document.activeElement?.getAttribute('data-node-id') === ${JSON.stringify(nodeId)}`);
    };
    await citation.getByRole('link').click();
    await page.waitForURL(documentPathPattern(docxId));
    await opened();
    await screenshot(page, 'document-docx-citation');

    // Without its node id (a citation from before a reindex): found by its PARAGRAPH position.
    const positionsOnly = new URL(href, stack.baseUrl);
    positionsOnly.searchParams.delete('node');
    await page.goto(positionsOnly.toString());
    await opened();
    // The tests below start from the jobs area.
    await page.goto(url('/jobs/qa'));
  });

  it('extracts metadata fields from a collection as a table per file', async () => {
    await page.getByRole('tab', { name: 'Extraction', exact: true }).click();
    await page.waitForURL(/\/jobs\/extraction$/);
    await page.getByText('A collection', { exact: true }).click();
    await page.getByLabel('Collection', { exact: true }).selectOption(collectionId);
    await page.getByLabel('Field 1', { exact: true }).fill('invoice total');
    await page.getByLabel('Type of field 1').selectOption('FLOAT');
    await page.getByLabel('Description of field 1').fill('What is the invoice total?');
    await page.getByRole('button', { name: 'Extract', exact: true }).click();
    await page.waitForURL(/\/jobs\/extraction\?job=/);
    await terminal('SUCCESS');
    const table = page.locator('[data-file-results="invoice.txt"] tr[data-meta="invoice total"]');
    await table.locator('[data-answer="1,250"]').waitFor();
    // The values as a spreadsheet: one row per file and field, the number unformatted.
    const saved = await downloaded(page.getByRole('button', { name: 'Download CSV' }));
    expect(saved.name).toMatch(/\.csv$/);
    expect(saved.text.split('\r\n')[0]).toBe('file,field,value,found,confidence,explanation');
    expect(saved.text).toMatch(/\r\ninvoice\.txt,invoice total,1250,true,(0\.\d+|1),"Read from invoice\.txt/);
    await table.getByRole('button', { name: /Citations of invoice total/ }).click();
    await page.locator('[data-citation="invoice.txt"]').first().waitFor();
    await screenshot(page, 'jobs-extraction');
    await page.keyboard.press('Escape');

    // A reload keeps what was asked in the form: the field, its type and its description.
    await page.reload();
    const field = page.getByLabel('Field 1', { exact: true });
    for (let i = 0; i < 50 && (await field.inputValue()) !== 'invoice total'; i++) await page.waitForTimeout(100);
    expect(await field.inputValue()).toBe('invoice total');
    expect(await page.getByLabel('Type of field 1').inputValue()).toBe('FLOAT');
    expect(await page.getByLabel('Description of field 1').inputValue()).toBe('What is the invoice total?');
  });

  it("extracts a table's rows from a CSV file, each cell citing its line", async () => {
    await page.getByRole('tab', { name: 'Table extraction', exact: true }).click();
    await page.waitForURL(/\/jobs\/table$/);
    await pickOption(page, 'Files', 'billing/prices.csv');
    await page.getByLabel('What one row is').fill('Product');
    await page.getByLabel('Description of the table').fill('The price list');
    await page.getByLabel('Column 1', { exact: true }).fill('product');
    await page.getByLabel('Column 2', { exact: true }).fill('price');
    await page.getByLabel('Type of column 2').selectOption('ENTITY_COLUMN_TYPE_FLOAT');
    await page.getByLabel('Description of column 2').fill('Unit price in EUR');
    await page.getByRole('button', { name: 'Add a column' }).click();
    await page.getByRole('button', { name: 'Remove column 3' }).click();
    await page.getByRole('button', { name: 'Extract rows' }).click();
    await page.waitForURL(/\/jobs\/table\?job=[0-9a-f-]{36}$/);
    await terminal('SUCCESS');
    const table = page.locator('table[data-rows="2"]');
    await table.waitFor();
    const rows = await table
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')));
    expect(rows.map(([product, price]) => [product.startsWith('Widget'), price.startsWith('4.75')])[0]).toEqual([true, true]);
    expect(rows[1][0]).toMatch(/^Gadget/);
    // The rows as a spreadsheet, under the column labels.
    const saved = await downloaded(page.getByRole('button', { name: 'Download CSV' }));
    expect(saved.text).toBe('product,price\r\nWidget,4.75\r\nGadget,12.5\r\n');
    await table.getByRole('button', { name: 'Citations of row 1, price' }).click();
    const link = page.locator('[data-citation="prices.csv"]').first().getByRole('link');
    // The CRLF file's second line holds Widget's price.
    expect(await link.getAttribute('href')).toMatch(/[?&]line=2(&|$)/);
    await screenshot(page, 'jobs-table');
    await page.keyboard.press('Escape');

    // A reload keeps what was asked in the form: the file, what a row is, the table's description and its columns.
    const jobId = new URL(page.url()).searchParams.get('job') as string;
    await page.reload();
    const form = page.getByRole('form', { name: 'New table extraction' });
    const column = page.getByLabel('Column 1', { exact: true });
    for (let i = 0; i < 50 && (await column.inputValue()) !== 'product'; i++) await page.waitForTimeout(100);
    expect(await column.inputValue()).toBe('product');
    expect(await page.getByLabel('What one row is').inputValue()).toBe('Product');
    expect(await page.getByLabel('Description of the table').inputValue()).toBe('The price list');
    expect(await page.getByLabel('Column 2', { exact: true }).inputValue()).toBe('price');
    expect(await page.getByLabel('Type of column 2').inputValue()).toBe('ENTITY_COLUMN_TYPE_FLOAT');
    expect(await page.getByLabel('Description of column 2').inputValue()).toBe('Unit price in EUR');
    expect(await page.getByLabel('Column 1 identifies the row').isChecked()).toBe(true);
    expect(await page.getByLabel('Column 2 identifies the row').isChecked()).toBe(false);
    await expect(page.getByLabel('Column 3', { exact: true }).count()).resolves.toBe(0);
    await form.getByText('billing/prices.csv').waitFor();
    // Sent again unchanged, it is the same job: the same schema over the same file.
    await page.getByRole('button', { name: 'Extract rows' }).click();
    await page.waitForURL((u) => u.searchParams.has('job') && u.searchParams.get('job') !== jobId);
    const again = new URL(page.url()).searchParams.get('job') as string;
    const [before, after] = await Promise.all(
      [jobId, again].map((id) =>
        unwrap(api.GET('/api/core/multi-dim-extraction/jobs/{jobId}/inputs', { params: { path: { jobId: id } } })),
      ),
    );
    expect(after).toEqual(before);
    expect(after.schema).toMatchObject({ name: 'Product', description: 'The price list' });
    await terminal('SUCCESS');
  });

  it('finds the files similar to one, with scores', async () => {
    await page.getByRole('tab', { name: 'Find similar', exact: true }).click();
    await page.waitForURL(/\/jobs\/similar$/);
    await pickOption(page, 'Source file', 'billing/invoice.txt');
    await page.getByRole('button', { name: 'Find similar files' }).click();
    await terminal('COMPLETED');
    const source = page.locator('tr[data-similar-file="invoice.txt"]');
    await source.waitFor();
    await expect(source.locator('[data-score]').textContent()).resolves.toBe('100%');
    await screenshot(page, 'jobs-similar');
  });

  it('holds an agent conversation: an answer with its citations and trace, a follow-up turn, both shown after a reload', async () => {
    await page.getByRole('tab', { name: 'Agent', exact: true }).click();
    await page.waitForURL(/\/jobs\/agent$/);
    await pickOption(page, 'Files', 'billing/invoice.txt');
    await page.getByRole('textbox', { name: 'Message', exact: true }).fill('What is the invoice total?');
    await page.getByRole('button', { name: 'Send' }).click();
    const first = page.locator('[data-turn]').first();
    const answer = first.locator('[data-agent-answer]');
    await answer.waitFor({ timeout: 90_000 });
    await expect(answer.getAttribute('data-agent-answer')).resolves.toMatch(/1,250/);
    await first.locator('[data-citation="invoice.txt"]').first().waitFor();
    await first.getByRole('button', { name: /How it was answered/ }).click();
    await first.locator('[data-step="search_passages"]').first().waitFor();

    await page.getByRole('textbox', { name: 'Follow-up message', exact: true }).fill('When is it due?');
    await page.getByRole('button', { name: 'Send' }).click();
    const second = page.locator('[data-turn]').nth(1);
    await second.locator('[data-agent-answer]').waitFor({ timeout: 90_000 });
    await expect(second.locator('[data-agent-answer]').getAttribute('data-agent-answer')).resolves.toMatch(/March 2026|2026-03-12/);
    await screenshot(page, 'jobs-agent');

    // A reload shows the whole conversation, oldest turn first, ready for another follow-up.
    await page.reload();
    await page.locator('[data-turn]').nth(1).locator('[data-agent-answer]').waitFor({ timeout: 30_000 });
    await expect(page.locator('[data-turn]').count()).resolves.toBe(2);
    await expect(page.locator('[data-turn]').first().textContent()).resolves.toContain('What is the invoice total?');
    await page.getByRole('textbox', { name: 'Follow-up message', exact: true }).waitFor();
  });

  it('is usable with the keyboard and on a phone', async () => {
    // The tabs: arrows move between kinds.
    await page.goto(url('/jobs/qa'));
    await page.getByRole('tab', { name: 'Questions' }).waitFor();
    const focused = await tabTo(page, 'Questions');
    expect(focused?.visible).toBe(true);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/jobs\/extraction$/);

    const phone = await openPage(browser, PHONE, token);
    try {
      await phone.page.goto(url('/jobs/qa'));
      await phone.page.getByRole('heading', { name: 'Ask and extract' }).waitFor();
      await phone.page.getByLabel('Question 1', { exact: true }).waitFor();
      expect(await phone.page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);
      await screenshot(phone.page, 'phone-jobs');
      await phone.page.goto(url(`/collections/${collectionId}`));
      await phone.page.locator('tr[data-file="invoice.txt"]').waitFor();
      expect(await phone.page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);
      await screenshot(phone.page, 'phone-collection');
      expect(phone.errors).toEqual([]);
    } finally {
      await phone.context.close();
    }
  });
});
