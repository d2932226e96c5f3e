import { createDocintelClient, unwrap, uploadMultipart, waitForIndexedFile, type DocintelClient } from '@docintel/api-client';
import { TestStack } from '@docintel/testing';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DESKTOP, documentPathPattern, launchChromium, openPage, PHONE, pickOption, screenshot, tabTo } from './support/console';

/**
 * Collections and the "Ask and extract" area of the web console in a real browser against the
 * started services (built-in engines, no language model): a collection filled and emptied, a
 * question answered typed and cited (the citation opens the document view of the file), an
 * extraction over a collection, a find-similar search and an agent conversation of two turns.
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
  let collectionId: string;

  const INVOICE = 'INVOICE 2026-031\nThe invoice total is 1,250 EUR, due on 12 March 2026.\nPayment by bank transfer to Initech.\n';
  const NOTE = 'DELIVERY NOTE\nThe delivery of 40 office chairs reached Initech on 2 February 2026.\nThe invoice follows in March.\n';
  const PRICES = 'product,price\r\nWidget,4.75\r\nGadget,12.50\r\n';
  const url = (path: string) => `${stack.baseUrl}${path}`;
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
    ]) {
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

    await pickOption(page, 'Indexed files to add', 'invoice.txt');
    await page.getByRole('button', { name: 'Add to collection' }).click();
    const row = page.locator('tr[data-file="invoice.txt"]');
    await row.waitFor();
    await expect(page.getByText('1 file ·').count()).resolves.toBe(1);
    await screenshot(page, 'collection');

    await row.getByRole('button', { name: 'Remove invoice.txt from the collection' }).click();
    await page.getByText('This collection has no file yet.').waitFor();
    // Back in, for the jobs below.
    await pickOption(page, 'Indexed files to add', 'invoice.txt');
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
    await pickOption(page, 'Files', 'invoice.txt');
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
    // A reload of the job's URL shows its answers again.
    await page.goto(jobUrl);
    await page.locator('[data-question="q1"] [data-answer="1,250"]').waitFor();
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
    await table.getByRole('button', { name: /Citations of invoice total/ }).click();
    await page.locator('[data-citation="invoice.txt"]').first().waitFor();
    await screenshot(page, 'jobs-extraction');
    await page.keyboard.press('Escape');
  });

  it("extracts a table's rows from a CSV file, each cell citing its line", async () => {
    await page.getByRole('tab', { name: 'Table extraction', exact: true }).click();
    await page.waitForURL(/\/jobs\/table$/);
    await pickOption(page, 'Files', 'prices.csv');
    await page.getByLabel('What one row is').fill('Product');
    await page.getByLabel('Column 1', { exact: true }).fill('product');
    await page.getByLabel('Column 2', { exact: true }).fill('price');
    await page.getByLabel('Type of column 2').selectOption('ENTITY_COLUMN_TYPE_FLOAT');
    await page.getByRole('button', { name: 'Add a column' }).click();
    await page.getByRole('button', { name: 'Remove column 3' }).click();
    await page.getByRole('button', { name: 'Extract rows' }).click();
    await page.waitForURL(/\/jobs\/table\?job=[0-9a-f-]{36}$/);
    await terminal('SUCCESS');
    const table = page.locator('table[data-rows="2"]');
    await table.waitFor();
    const rows = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')));
    expect(rows.map(([product, price]) => [product.startsWith('Widget'), price.startsWith('4.75')])[0]).toEqual([true, true]);
    expect(rows[1][0]).toMatch(/^Gadget/);
    await table.getByRole('button', { name: 'Citations of row 1, price' }).click();
    const link = page.locator('[data-citation="prices.csv"]').first().getByRole('link');
    // The CRLF file's second line holds Widget's price.
    expect(await link.getAttribute('href')).toMatch(/[?&]line=2(&|$)/);
    await screenshot(page, 'jobs-table');
    await page.keyboard.press('Escape');
  });

  it('finds the files similar to one, with scores', async () => {
    await page.getByRole('tab', { name: 'Find similar', exact: true }).click();
    await page.waitForURL(/\/jobs\/similar$/);
    await pickOption(page, 'Source file', 'invoice.txt');
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
    await pickOption(page, 'Files', 'invoice.txt');
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
