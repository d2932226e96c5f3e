import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createDocintelClient, unwrap, uploadMultipart } from '@docintel/api-client';
import { REPO_ROOT, TestStack } from '@docintel/testing';
import { DESKTOP, launchChromium, openPage, PHONE, screenshot, waitUntil, closesConsoleSpec } from './support/console';

/**
 * The web console in a real browser (Chromium, headless) against the started services, the
 * gateway serving the built console at /: sign in, browse and change a provider's items, upload
 * with progress, index a file and follow it to SUCCESS, on a desktop and a phone, and by keyboard.
 */
describe('the web console', () => {
  let stack: TestStack;
  let token: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];
  let fileUrl: string;

  const url = (path: string) => `${stack.baseUrl}${path}`;
  const row = (key: string) => page.locator(`tr[data-key="${key}"]`);
  const itemAction = async (name: string, action: string) => {
    await page.getByRole('button', { name: `Actions for ${name}` }).click();
    await page.getByRole('menuitem', { name: action }).click();
  };

  beforeAll(async () => {
    browser = await launchChromium();
    stack = await TestStack.start({ label: 'console' });
    token = await stack.token('default', 'console@example.com');
    ({ context, page, errors } = await openPage(browser, DESKTOP));
  });
  closesConsoleSpec(() => ({ context, browser, stack, errors }));

  it('serves the console at / beside an unchanged API', async () => {
    const index = await fetch(url('/'));
    expect(index.status).toBe(200);
    expect(index.headers.get('cache-control')).toBe('no-cache');
    // No framing by other sites and no script but the console's own; the browser tests below run under it.
    expect(index.headers.get('x-frame-options')).toBe('DENY');
    expect(index.headers.get('content-security-policy')).toMatch(/(^|; )script-src 'self' 'unsafe-eval'(;|$)/);
    expect(index.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const html = await index.text();
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(asset).toBeDefined();
    const js = await fetch(url(asset as string));
    expect(js.status).toBe(200);
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    // The build's brotli copy, for a client that accepts it (fetch does, and decodes it).
    const compressed = await fetch(url(asset as string), { headers: { 'accept-encoding': 'br' } });
    expect(compressed.headers.get('content-encoding')).toBe('br');
    expect(await compressed.text()).toBe(await js.text());
    // A deep link opens the console; an API path asked for as HTML keeps its JSON 404.
    const deep = await fetch(url('/files/3f1c5a52-2f7c-4b5e-8d4e-1a2b3c4d5e6f'), { headers: { accept: 'text/html' } });
    expect([deep.status, await deep.text()]).toEqual([200, html]);
    const api = await fetch(url('/api/core/nothing'), { headers: { accept: 'text/html', authorization: `Bearer ${token}` } });
    expect(api.status).toBe(404);
    expect(await api.json()).toMatchObject({ code: 'NOT_FOUND', message: 'No route for GET /api/core/nothing' });
  });

  it('signs in with a token, says why a bad one or a foreign namespace is refused, and signs out', async () => {
    await page.goto(url('/'));
    await page.waitForURL(/\/sign-in$/);
    await page.getByLabel('Personal access token').fill('dit_not_a_real_token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/not accepted \(401 Unauthorized\)/);
    await screenshot(page, 'sign-in-401');

    await page.getByLabel('Personal access token').fill(token);
    await page.getByLabel('Namespace (optional)').fill('someone-else');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/may not use namespace "someone-else" \(403 Forbidden\)/);

    await page.getByLabel('Namespace (optional)').fill('');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/providers$/);
    await page.getByRole('heading', { name: 'Local storage' }).waitFor();
    expect(await page.evaluate("localStorage.getItem('docintel.token')")).toBe(token);
    await screenshot(page, 'providers');

    // A second tab (a bookmark, a Ctrl+click) opens signed in; signing out there signs out here too.
    const other = await context.newPage();
    await other.goto(url('/collections'));
    await other.getByRole('heading', { name: 'Collections' }).waitFor();
    expect(other.url()).toBe(url('/collections'));
    await other.getByRole('button', { name: 'Sign out' }).click();
    await other.waitForURL(/\/sign-in/);
    await page.waitForURL(/\/sign-in/);
    await page.getByText('You signed out in another tab.').waitFor();
    await other.close();
    await page.getByLabel('Personal access token').fill(token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/providers$/);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/sign-in/);
    expect(await page.evaluate("localStorage.getItem('docintel.token')")).toBeNull();
    await page.getByLabel('Personal access token').fill(token);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/providers$/);
  });

  it('browses a provider: creates a folder, uploads with progress, drops a file, renames, downloads and deletes', async () => {
    await page.getByRole('link', { name: 'Browse Local storage' }).click();
    await page.waitForURL(/\/providers\/[^/]+\/items$/);
    await page.getByText('This folder is empty').waitFor();

    await page.getByRole('button', { name: 'New folder' }).click();
    await page.getByLabel('Folder name').fill('reports');
    await page.getByRole('button', { name: 'Create' }).click();
    await row('reports/').waitFor();
    await page
      .getByRole('link', { name: /reports/ })
      .first()
      .click();
    await page.waitForURL(/key=reports%2F$/);
    const crumbs = page.getByRole('navigation', { name: 'Folder path' });
    await expect(crumbs.textContent()).resolves.toMatch(/Local storage.*reports/);

    // The file picker, with a progress bar that ends full.
    const text = 'docintel console upload test.\nThe quarterly report was signed on 14 March 2023 by Alice Martin.\n'.repeat(200);
    await page.locator('input[type=file]').setInputFiles({ name: 'hello.txt', mimeType: 'text/plain', buffer: Buffer.from(text) });
    const upload = page.locator('[data-upload="hello.txt"]');
    await upload.and(page.locator('[data-state="done"]')).waitFor();
    await expect(upload.getByRole('progressbar').getAttribute('aria-valuenow')).resolves.toBe('100');
    await expect(upload.textContent()).resolves.toContain('Uploaded');
    await row('reports/hello.txt').waitFor();
    const itemsShot = await screenshot(page, 'items-uploaded');
    if (process.env.CONSOLE_README_SCREENSHOT === '1') copyFileSync(itemsShot, join(REPO_ROOT, 'docs', 'images', 'console.png'));

    // Drag and drop onto the listing.
    const dropped = await page.evaluateHandle(`(() => {
      const dt = new DataTransfer();
      dt.items.add(new File(['dropped bytes'], 'dropped.txt', { type: 'text/plain' }));
      return dt;
    })()`);
    await page.dispatchEvent('[data-dropzone]', 'dragenter', { dataTransfer: dropped });
    await page.getByText('Drop to upload to reports/').waitFor();
    await page.dispatchEvent('[data-dropzone]', 'drop', { dataTransfer: dropped });
    await row('reports/dropped.txt').waitFor();

    await itemAction('dropped.txt', 'Rename');
    await page.getByLabel('New name').fill('renamed.txt');
    await page.getByRole('button', { name: 'Rename' }).click();
    await row('reports/renamed.txt').waitFor();
    expect(await row('reports/dropped.txt').count()).toBe(0);

    const [download] = await Promise.all([page.waitForEvent('download'), itemAction('hello.txt', 'Download')]);
    expect(download.suggestedFilename()).toBe('hello.txt');
    const stream = await download.createReadStream();
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe(text);

    await itemAction('renamed.txt', 'Delete');
    const dialog = page.getByRole('dialog', { name: 'Delete renamed.txt?' });
    await expect(dialog.textContent()).resolves.toContain('cannot be undone');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await row('reports/renamed.txt').waitFor({ state: 'detached' });
    await row('reports/hello.txt').waitFor();
  });

  it('indexes a file, follows it to SUCCESS and shows its metadata and ontologies', async () => {
    await itemAction('hello.txt', 'Index');
    // The folder stays on screen: its Status column follows the file, and the name opens its page.
    await page.getByText('Indexing hello.txt started').waitFor();
    await row('reports/hello.txt').locator('[data-status="SUCCESS"]').waitFor({ timeout: 90_000 });
    await row('reports/hello.txt').getByRole('link', { name: 'hello.txt' }).click();
    await page.waitForURL(/\/files\/[0-9a-f-]{36}$/);
    fileUrl = page.url();
    await page.locator('[data-status="SUCCESS"]').first().waitFor({ timeout: 90_000 });
    const metadata = page.getByRole('region', { name: 'Metadata' });
    await expect(metadata.textContent()).resolves.toMatch(/reports\/hello\.txt/);
    const ontologies = page.getByRole('region', { name: 'Ontologies' });
    await ontologies
      .getByRole('progressbar')
      .waitFor({ state: 'detached' })
      .catch(() => undefined);
    await waitUntil(page, `!document.querySelector('[aria-label="Loading ontologies"]')`);
    await expect(ontologies.textContent()).resolves.not.toMatch(/Computed once/);
    await screenshot(page, 'file');

    // The files list of the provider shows it with its status; its name opens the file page again.
    await page.getByRole('link', { name: 'All indexed files' }).click();
    await page.waitForURL(/\/providers\/[^/]+\/files$/);
    const file = page.locator('tr[data-file="hello.txt"]');
    await file.locator('[data-status="SUCCESS"]').waitFor();
    await screenshot(page, 'files');
    await file.getByRole('link', { name: 'hello.txt' }).click();
    await page.waitForURL(fileUrl);

    // A reload of the deep link opens the same page (the gateway answers it with the console).
    await page.reload();
    await page.locator('[data-status="SUCCESS"]').first().waitFor();
  });

  it('is usable on a phone: the navigation opens from the burger', async () => {
    const phone = await openPage(browser, PHONE, token);
    try {
      await phone.page.goto(url('/providers'));
      const navbar = phone.page.locator('#console-navbar');
      const onScreen = async () => {
        const box = await navbar.boundingBox();
        return !!box && box.x + box.width > 1 && box.x < PHONE.width;
      };
      await phone.page.getByRole('heading', { name: 'Storage providers' }).waitFor();
      expect(await onScreen()).toBe(false);
      await screenshot(phone.page, 'phone-providers');

      await phone.page.getByRole('button', { name: 'Open navigation' }).click();
      await waitUntil(phone.page, `document.getElementById('console-navbar').getBoundingClientRect().x >= 0`);
      await screenshot(phone.page, 'phone-navigation');
      await navbar.getByText('Local storage', { exact: true }).click();
      await navbar.getByRole('link', { name: 'Indexed files', exact: true }).click();
      await phone.page.waitForURL(/\/files$/);
      await phone.page.locator('tr[data-file="hello.txt"] [data-status="SUCCESS"]').waitFor();
      await waitUntil(phone.page, `document.getElementById('console-navbar').getBoundingClientRect().right <= 0`);
      // Tapping the section already shown closes the navigation too.
      await phone.page.getByRole('button', { name: 'Open navigation' }).click();
      await waitUntil(phone.page, `document.getElementById('console-navbar').getBoundingClientRect().x >= 0`);
      await navbar.getByRole('link', { name: 'Indexed files', exact: true }).click();
      await waitUntil(phone.page, `document.getElementById('console-navbar').getBoundingClientRect().right <= 0`);
      // Nothing wider than the screen.
      expect(await phone.page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);
      await screenshot(phone.page, 'phone-files');

      // A name with no place to break makes the items table wider than the phone: the table scrolls
      // sideways and its ⋯ column stays in view (and can be tapped) wherever it is scrolled to.
      const api = createDocintelClient({ baseUrl: stack.baseUrl, token });
      const providerId = (await unwrap(api.GET('/api/core/providers', { params: { query: { page: 0, pageSize: 20 } } }))).data[0].id.id;
      const long = 'Quarterly_financial_statement_of_the_northern_region_2026.txt';
      await uploadMultipart(api, { providerId, key: `wide/${long}`, body: 'Figures.\n', mediaType: 'text/plain' });
      await phone.page.goto(url(`/providers/${providerId}/items?key=wide%2F`));
      const actions = phone.page.getByRole('button', { name: `Actions for ${long}` });
      await actions.waitFor();
      const viewport = phone.page.locator('[data-scrollarea-viewport]', { has: phone.page.getByRole('table', { name: 'Items' }) });
      const scroll = (left: number) =>
        viewport.evaluate((el, x) => {
          el.scrollLeft = x;
          return { left: el.scrollLeft, wide: el.scrollWidth - el.clientWidth };
        }, left);
      const inView = async () => {
        const button = (await actions.boundingBox()) as { x: number; y: number; width: number; height: number };
        const area = (await viewport.boundingBox()) as { x: number; width: number };
        const hit = await actions.evaluate(
          (el, [x, y]) => el.contains(document.elementFromPoint(x, y)),
          [button.x + button.width / 2, button.y + button.height / 2],
        );
        return button.x >= area.x && button.x + button.width <= Math.min(area.x + area.width, PHONE.width) && hit;
      };
      const start = await scroll(0);
      expect(start.wide).toBeGreaterThan(40);
      expect(await inView()).toBe(true);
      expect((await scroll(Math.round(start.wide / 2))).left).toBeGreaterThan(0);
      expect(await inView()).toBe(true);
      expect(await phone.page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);
      await screenshot(phone.page, 'phone-items-actions');
      await actions.click();
      await phone.page.getByRole('menuitem', { name: 'Rename' }).waitFor();
      expect(phone.errors).toEqual([]);
    } finally {
      await phone.context.close();
    }
  });

  it('can be used with the keyboard alone: sign in, then reach a provider with Tab and Enter', async () => {
    const kb = await openPage(browser, DESKTOP);
    try {
      const p = kb.page;
      await p.goto(url('/sign-in'));
      // What has the focus: its accessible label (or text), and whether a focus ring shows.
      const focused = () =>
        p.evaluate<{ label: string; visible: boolean }>(`(() => {
          const el = document.activeElement;
          return { label: el?.getAttribute('aria-label') ?? el?.textContent?.trim() ?? '', visible: !!el?.matches(':focus-visible') };
        })()`);
      // The token field has the focus from the start.
      await waitUntil(p, `document.activeElement?.getAttribute('type') === 'password'`);
      await p.keyboard.type(token);
      await p.keyboard.press('Enter');
      await p.waitForURL(/\/providers$/);
      await p.getByRole('heading', { name: 'Local storage' }).waitFor();

      let reached = false;
      let group = false;
      for (let i = 0; i < 30 && !reached; i++) {
        await p.keyboard.press('Tab');
        const f = await focused();
        // The provider's group itself is a stop of its own (it opens and closes with Enter).
        if (f.label.startsWith('Local storage')) group = true;
        if (f.label === 'Indexed files of Local storage') {
          expect(f.visible).toBe(true);
          reached = true;
        }
      }
      expect(reached).toBe(true);
      expect(group).toBe(true);
      await screenshot(p, 'keyboard-focus');
      await p.keyboard.press('Enter');
      await p.waitForURL(/\/providers\/[^/]+\/files$/);
      await p.locator('tr[data-file="hello.txt"]').waitFor();
      expect(kb.errors).toEqual([]);
    } finally {
      await kb.context.close();
    }
  });
});
