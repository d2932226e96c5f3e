import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { REPO_ROOT, type TestStack } from '@docintel/testing';

/** Debian's Chromium; no browser is ever downloaded. CHROMIUM_PATH points elsewhere. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SCREENSHOTS = join(REPO_ROOT, 'data', 'screenshots', 'console');
export const CONSOLE_INDEX = join(REPO_ROOT, 'apps', 'console', 'dist', 'index.html');

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 375, height: 667 };

/**
 * Headless Chromium for the console tests. A missing browser or a missing console build is a
 * failure that says what to do, never a skipped suite.
 */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium was not found at ${CHROMIUM}: the console tests drive a real browser. ` +
        'Install it (apt-get install -y chromium; .ci/run does this) or set CHROMIUM_PATH.',
    );
  }
  if (!existsSync(CONSOLE_INDEX)) {
    throw new Error(`The web console is not built (${CONSOLE_INDEX} is missing): run npm run build first.`);
  }
  mkdirSync(SCREENSHOTS, { recursive: true });
  // --no-sandbox: CI runs as root in a container, where Chromium's sandbox cannot start.
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
}

/**
 * A page that fails the test on any uncaught error in the console, and on anything the console's
 * Content-Security-Policy blocked (Chromium reports each refusal as a console error).
 */
export async function openPage(
  browser: Browser,
  viewport: { width: number; height: number },
  token?: string,
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport, acceptDownloads: true });
  if (token) {
    // Already signed in: the console keeps its token in localStorage. Set once per tab (not on every
    // navigation), so that a sign-out the test makes holds.
    await context.addInitScript(
      `if (!sessionStorage.getItem('docintel.test-signed-in')) { sessionStorage.setItem('docintel.test-signed-in', '1'); localStorage.setItem('docintel.token', ${JSON.stringify(token)}); }`,
    );
  }
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('console', (msg) => {
    if (msg.type() === 'error' && /Content Security Policy/i.test(msg.text())) errors.push(msg.text());
  });
  return { context, page, errors };
}

/**
 * Waits until `expression` (JavaScript, evaluated in the page) is truthy. page.waitForFunction
 * runs its predicate through eval(), which the console's Content-Security-Policy refuses;
 * page.evaluate goes through the DevTools protocol, which the policy does not govern.
 */
export async function waitUntil(page: Page, expression: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await page.evaluate(expression))) {
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms in vain for: ${expression}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function screenshot(page: Page, name: string): Promise<string> {
  const path = join(SCREENSHOTS, `${name}.png`);
  // Let transitions (navbar, progress bars, collapses) settle: the picture shows the state reached.
  await page.waitForTimeout(400);
  await page.screenshot({ path });
  return path;
}

/** What has the keyboard focus: its accessible label (aria-label, its <label>, or its text) and whether a focus ring shows. */
export async function focusedElement(page: Page): Promise<{ label: string; tag: string; visible: boolean }> {
  return page.evaluate<{ label: string; tag: string; visible: boolean }>(`(() => {
    const el = document.activeElement;
    const label = el?.getAttribute('aria-label') ?? (el && 'labels' in el && el.labels && el.labels[0] ? el.labels[0].textContent : null) ?? el?.textContent ?? '';
    return { label: label.trim(), tag: el ? el.tagName.toLowerCase() : '', visible: !!el?.matches(':focus-visible') };
  })()`);
}

/** Presses Tab until the focused element's label matches (at most `max` times); the focus, or null when never reached. */
export async function tabTo(
  page: Page,
  label: string | RegExp,
  max = 40,
): Promise<{ label: string; tag: string; visible: boolean } | null> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const focused = await focusedElement(page);
    if (typeof label === 'string' ? focused.label === label : label.test(focused.label)) return focused;
  }
  return null;
}

/**
 * Picks `option` in a Mantine Select or MultiSelect found by its label: opens its list, clicks the
 * option (waiting for it to be loaded), and closes the list again.
 */
export async function pickOption(page: Page, label: string, option: string): Promise<void> {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
  await page.keyboard.press('Escape');
}

/** The document view's path of a file, as citations link to it (`/files/<id>/document?…`). */
export const documentPathPattern = (fileId: string): RegExp => new RegExp(`/files/${fileId}/document(\\?|$)`);

/** How many pixels of a canvas are not blank (neither transparent nor white): > 0 once something was drawn. */
export async function canvasInk(page: Page, selector: string): Promise<number> {
  return page.evaluate<number, string>((sel) => {
    const canvas = document.querySelector(sel) as HTMLCanvasElement | null;
    const ctx = canvas?.getContext('2d');
    if (!canvas || !ctx || canvas.width === 0) return 0;
    const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
    let ink = 0;
    for (let i = 0; i < data.length; i += 4) if (data[i + 3] > 0 && (data[i] < 240 || data[i + 1] < 240 || data[i + 2] < 240)) ink++;
    return ink;
  }, selector);
}

/** Follows a console link in place, as a click on a Link does (history.pushState, no reload). */
export async function followInApp(page: Page, href: string): Promise<void> {
  await page.evaluate<void, string>((to) => {
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, href);
}

/** What a console spec holds open while its tests run (read when the hooks run: beforeAll sets it). */
export interface ConsoleSpecState {
  context?: BrowserContext;
  browser?: Browser;
  stack?: TestStack;
  errors: string[];
}

/**
 * The hooks every console spec shares: after each test the page logged no errors, and after all
 * the page's context, the browser and the stack are closed (whatever beforeAll got to start).
 */
export function closesConsoleSpec(state: () => ConsoleSpecState): void {
  afterAll(async () => {
    const { context, browser, stack } = state();
    await context?.close();
    await browser?.close();
    await stack?.stop();
  });
  afterEach(() => {
    expect(state().errors).toEqual([]);
  });
}
