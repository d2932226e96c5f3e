import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { REPO_ROOT } from '@docintel/testing';

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

/** A page that fails the test on any uncaught error in the console. */
export async function openPage(
  browser: Browser,
  viewport: { width: number; height: number },
  token?: string,
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport, acceptDownloads: true });
  if (token) {
    // Already signed in: the console keeps its token in sessionStorage.
    await context.addInitScript(`sessionStorage.setItem('docintel.token', ${JSON.stringify(token)})`);
  }
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  return { context, page, errors };
}

export async function screenshot(page: Page, name: string): Promise<string> {
  const path = join(SCREENSHOTS, `${name}.png`);
  // Let transitions (navbar, progress bars, collapses) settle: the picture shows the state reached.
  await page.waitForTimeout(400);
  await page.screenshot({ path });
  return path;
}
