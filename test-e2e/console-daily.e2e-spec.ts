import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { createDocintelClient, unwrap, uploadMultipart, waitForIndexedFile, waitForJob, type DocintelClient } from '@docintel/api-client';
import { REPO_ROOT, TestStack } from '@docintel/testing';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DESKTOP, launchChromium, openPage, screenshot, waitUntil, closesConsoleSpec } from './support/console';

/** A step's screenshot, copied over the one docs/console.md shows when CONSOLE_README_SCREENSHOT=1. */
async function readmeScreenshot(page: Page, name: string, image: string): Promise<void> {
  const shot = await screenshot(page, name);
  if (process.env.CONSOLE_README_SCREENSHOT === '1') copyFileSync(shot, join(REPO_ROOT, 'docs', 'images', image));
}

/**
 * The console's job card through a busy server, in a real browser against the started services:
 * while job-orchestrator is down the gateway answers job reads with 5xx, and the card says the
 * server is busy and keeps following instead of giving up; once it is back the card shows the job
 * and its answers. A job that was aborted offers "Run again", which creates the same job anew. Past
 * jobs are listed under the form and reopen with their questions in the form, after a reload too.
 */
describe('the web console: a busy server, running a job again, past jobs', () => {
  let stack: TestStack;
  let api: DocintelClient;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];
  let fileId: string;

  const INVOICE = 'INVOICE 2026-044\nThe invoice total is 980 EUR, due on 3 April 2026.\nPayment by bank transfer to Initech.\n';
  const url = (path: string) => `${stack.baseUrl}${path}`;
  const question = { id: 'q1', question: 'What is the invoice total?', answerType: { dataType: 'FLOAT' as const, multiValued: false } };

  beforeAll(async () => {
    browser = await launchChromium();
    stack = await TestStack.start({ label: 'consolebusy' });
    const token = await stack.token('default', 'busy@example.com');
    api = createDocintelClient({ baseUrl: stack.baseUrl, token });
    const providers = await unwrap(api.GET('/api/core/providers', { params: { query: { page: 0, pageSize: 20 } } }));
    const providerId = providers.data[0].id.id;
    await uploadMultipart(api, { providerId, key: 'busy/invoice.txt', body: INVOICE, mediaType: 'text/plain' });
    const created = await unwrap(api.POST('/api/core/files', { body: { providerId, key: 'busy/invoice.txt' } }));
    const file = await waitForIndexedFile(api, created.id.id, {
      initialDelayMs: 300,
      factor: 1.5,
      maxDelayMs: 2000,
      signal: AbortSignal.timeout(90_000),
    });
    expect(file.lastIndexationInfos.status).toBe('SUCCESS');
    fileId = file.id.id;
    ({ context, page, errors } = await openPage(browser, DESKTOP, token));
  });
  closesConsoleSpec(() => ({ context, browser, stack, errors }));

  it('keeps following a job while the job service is down, says the server is busy, and shows the answer once it is back', async () => {
    const job = await unwrap(api.POST('/api/core/qa/jobs', { body: { files: { fileIds: [fileId] }, questions: [question] } }));
    await waitForJob(api, 'qa', job.jobId, { initialDelayMs: 300, factor: 1.5, maxDelayMs: 2000, signal: AbortSignal.timeout(90_000) });

    await stack.stopApp('job-orchestrator', 'SIGKILL');
    const down = await stack.request(`/api/core/qa/jobs/${job.jobId}`, { token: await stack.token('default', 'busy@example.com') });
    expect(down.status).toBeGreaterThanOrEqual(500);

    await page.goto(url(`/jobs/qa?job=${job.jobId}`));
    const busy = page.locator('[data-server-busy]');
    await busy.waitFor({ timeout: 30_000 });
    expect(await busy.textContent()).toMatch(/The server is busy \(.*\[5\d\d\]\)\. Still following this job/);
    expect(await page.getByText('Could not follow this job').count()).toBe(0);
    await readmeScreenshot(page, 'job-server-busy', 'console-job-busy.png');

    await stack.startApp('job-orchestrator');
    await page.locator('[data-job-status="SUCCESS"]').waitFor({ timeout: 60_000 });
    await page.getByRole('region', { name: 'Answer to What is the invoice total?' }).locator('[data-answer="980"]').waitFor();
    expect(await busy.count()).toBe(0);
    // Time queued and time running, apart.
    expect(await page.locator('[data-job-times]').textContent()).toMatch(/^queued \d.* · ran \d/);
  });

  it('offers "Run again" on an aborted job and runs the same questions as a new job', async () => {
    const questions = Array.from({ length: 40 }, (_, i) => ({
      ...question,
      id: `q${i + 1}`,
      question: `What is the invoice total? (${i + 1})`,
    }));
    const job = await unwrap(api.POST('/api/core/qa/jobs', { body: { name: 'to run again', files: { fileIds: [fileId] }, questions } }));
    const cancelled = await unwrap(api.POST('/api/core/qa/jobs/{jobId}/cancel', { params: { path: { jobId: job.jobId } } }));
    expect(cancelled.status).toBe('ABORTED');

    await page.goto(url(`/jobs/qa?job=${job.jobId}`));
    await page.locator('[data-job-status="ABORTED"]').waitFor();
    await page.getByRole('button', { name: 'Run again' }).click();
    await page.waitForURL((u) => u.searchParams.has('job') && u.searchParams.get('job') !== job.jobId);
    const again = new URL(page.url()).searchParams.get('job') as string;
    await page.locator('[data-job-status="SUCCESS"]').waitFor({ timeout: 90_000 });

    const inputs = await unwrap(api.GET('/api/core/qa/jobs/{jobId}/inputs', { params: { path: { jobId: again } } }));
    expect(inputs.questions.map((q) => q.question)).toEqual(questions.map((q) => q.question));
    expect(inputs.files).toMatchObject({ fileIds: [fileId] });
    const rerun = await unwrap(api.GET('/api/core/qa/jobs/{jobId}', { params: { path: { jobId: again } } }));
    expect(rerun.name).toBe('to run again');
  });

  it('lists past jobs under the form after a reload, and reopens one with its questions back in the form', async () => {
    await page.goto(url('/jobs/qa'));
    const history = page.getByRole('region', { name: 'Past jobs' });
    await history.locator('[data-history-job]').first().waitFor();
    // Newest first: the job Run again created, the aborted one, then the first test's job.
    expect(await history.locator('[data-history-job]').count()).toBe(3);
    expect(await history.getByRole('link', { name: 'to run again' }).count()).toBe(2);
    expect(await history.locator('[data-listed-status="ABORTED"]').count()).toBe(1);
    await history.scrollIntoViewIfNeeded();
    await readmeScreenshot(page, 'job-history', 'console-job-history.png');

    await history.getByRole('link', { name: 'to run again' }).first().click();
    await page.waitForURL(/\/jobs\/qa\?job=/);
    const jobId = new URL(page.url()).searchParams.get('job') as string;
    expect(await history.locator(`[data-history-job="${jobId}"]`).getAttribute('aria-current')).toBe('page');
    await page.locator('[data-job-status="SUCCESS"]').waitFor();
    await page.getByRole('region', { name: 'Answer to What is the invoice total? (1)' }).waitFor();

    // A reload (or Back from a citation) keeps what was asked in the form, ready to change and ask again.
    await page.reload();
    await page.getByLabel('Question 40', { exact: true }).waitFor();
    expect(await page.getByLabel('Question 1', { exact: true }).inputValue()).toBe('What is the invoice total? (1)');
    expect(await page.getByLabel('Question 40', { exact: true }).inputValue()).toBe('What is the invoice total? (40)');
    expect(await page.getByLabel('Answer type of question 1', { exact: true }).inputValue()).toBe('FLOAT');
  });

  it('asks across everything: one box searches every indexed file of the namespace, shows the files read, and answers with a citation', async () => {
    // Another namespace holds a different invoice total: it must never be read or shown here.
    const rivalToken = await stack.token('rival', 'eve@rival.test');
    const rival = createDocintelClient({ baseUrl: stack.baseUrl, token: rivalToken });
    const rivalProvider = (await unwrap(rival.GET('/api/core/providers', { params: { query: { page: 0, pageSize: 20 } } }))).data[0].id.id;
    await uploadMultipart(rival, {
      providerId: rivalProvider,
      key: 'rival/invoice-total.txt',
      body: 'RIVAL INVOICE\nThe invoice total is 555 EUR.\n',
      mediaType: 'text/plain',
    });
    const theirs = await unwrap(rival.POST('/api/core/files', { body: { providerId: rivalProvider, key: 'rival/invoice-total.txt' } }));
    await waitForIndexedFile(rival, theirs.id.id, {
      initialDelayMs: 300,
      factor: 1.5,
      maxDelayMs: 2000,
      signal: AbortSignal.timeout(90_000),
    });

    await page.goto(url('/providers'));
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Ask everything' }).click();
    await page.getByLabel('Question or keywords').fill('What is the invoice total?');
    await page.getByRole('button', { name: 'Ask', exact: true }).click();

    const read = page.getByRole('region', { name: 'Files read' });
    await read.locator(`[data-read-file="${fileId}"]`).waitFor();
    expect(await read.locator('[data-read-file]').count()).toBe(1);
    expect(await read.textContent()).toContain('invoice.txt');
    expect(await page.content()).not.toContain('555');

    await page.locator('[data-job-status="SUCCESS"]').waitFor({ timeout: 90_000 });
    const answer = page.getByRole('region', { name: 'Answer to What is the invoice total?' });
    expect(await answer.locator('[data-answer]').first().getAttribute('data-answer')).toMatch(/980/);
    expect(await answer.getByRole('link').count()).toBeGreaterThan(0);
    expect(page.url()).toMatch(/\/ask\?q=What\+is\+the\+invoice\+total%3F&job=/);
    await readmeScreenshot(page, 'ask-everything', 'console-ask-everything.png');

    // Reload: the same answer, no second job.
    const before = (await unwrap(api.GET('/api/core/qa/jobs', { params: { query: { page: 0, pageSize: 50 } } }))).totalElements;
    await page.reload();
    await page.locator('[data-job-status="SUCCESS"]').waitFor();
    expect((await unwrap(api.GET('/api/core/qa/jobs', { params: { query: { page: 0, pageSize: 50 } } }))).totalElements).toBe(before);

    // A question nothing answers: the nearest passages are still read, and the answer is "Not found", not a guess.
    await page.getByLabel('Question or keywords').fill('Who painted the zeppelin hangar?');
    await page.getByRole('button', { name: 'Ask', exact: true }).click();
    await page.waitForURL(/job=/);
    await page.locator('[data-job-status="SUCCESS"]').waitFor({ timeout: 90_000 });
    const none = page.getByRole('region', { name: 'Answer to Who painted the zeppelin hangar?' });
    await none.getByText('Not found').waitFor();
  });

  it('indexes in bulk from a folder (selected files, then the whole folder) with a status column, and filters the indexed files by name', async () => {
    const providerId = (await unwrap(api.GET('/api/core/providers', { params: { query: { page: 0, pageSize: 20 } } }))).data[0].id.id;
    for (const n of [1, 2, 3]) {
      await uploadMultipart(api, { providerId, key: `bulk/note-${n}.txt`, body: `Bulk note number ${n}.\n`, mediaType: 'text/plain' });
    }
    await page.goto(url(`/providers/${providerId}/items?key=bulk%2F`));
    const row = (name: string) => page.locator(`tr[data-key="bulk/${name}"]`);
    await row('note-3.txt').waitFor();
    for (const n of [1, 2, 3])
      expect(await row(`note-${n}.txt`).locator('[data-index-status]').getAttribute('data-index-status')).toBe('NOT_INDEXED');

    await page.getByRole('checkbox', { name: 'Select note-1.txt' }).check();
    await page.getByRole('checkbox', { name: 'Select note-2.txt' }).check();
    await page.getByRole('button', { name: 'Index selected (2)' }).click();
    await page.getByText('Indexing 2 files started').waitFor();
    await row('note-1.txt').locator('[data-status="SUCCESS"]').waitFor({ timeout: 90_000 });
    await row('note-2.txt').locator('[data-status="SUCCESS"]').waitFor({ timeout: 90_000 });
    expect(await row('note-3.txt').locator('[data-index-status]').getAttribute('data-index-status')).toBe('NOT_INDEXED');
    expect(page.url()).toContain('/items');

    await page.getByRole('button', { name: 'Index this folder (3 files)' }).click();
    await row('note-3.txt').locator('[data-status="SUCCESS"]').waitFor({ timeout: 90_000 });
    await readmeScreenshot(page, 'items-bulk-index', 'console-items-bulk.png');

    // The indexed files of the provider, narrowed by a part of the name.
    await page.goto(url(`/providers/${providerId}/files`));
    await page.getByLabel('Filter by name').fill('NOTE-2');
    await page.locator('tr[data-file="note-2.txt"]').waitFor();
    await waitUntil(page, `document.querySelectorAll('tr[data-file]').length === 1`);
    await page.getByLabel('Filter by name').fill('no such name');
    await page.getByText('No indexed file of this provider has "no such name" in its name.').waitFor();
  });
});
