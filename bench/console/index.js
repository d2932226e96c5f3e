'use strict';
/*
 * The web console's first load: what the sign-in page makes a browser download (index.html, its
 * entry script and style sheet and the chunks it preloads; raw, and as sent with brotli and gzip
 * from the copies the build makes), and the time until the sign-in form can be used in headless
 * Debian Chromium at 1280x800 (navigation start to the token field enabled, a fresh browser
 * context each time: no cache), through api-gateway serving the built console on this machine.
 *
 *   npm run bench -- console
 */
const { existsSync, statSync } = require('node:fs');
const { join } = require('node:path');
const { startInfrastructure } = require('../lib/infra');
const { startApp, REPO_ROOT } = require('../lib/processes');

const DIST = join(REPO_ROOT, 'apps/console/dist');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const RUNS = 15;
const TARGET_MS = 1000;

const size = (path) => (existsSync(path) ? statSync(path).size : null);

/** The files a first load of the sign-in page fetches before it runs: from index.html's tags. */
function firstLoadFiles(html) {
  const refs = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]);
  return [...new Set(refs)];
}

async function run(_opts, log) {
  if (!existsSync(join(DIST, 'index.html'))) throw new Error('apps/console/dist is missing: npm run build first');
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM} (apt-get install -y chromium, or CHROMIUM_PATH)`);
  const infra = await startInfrastructure('console');
  let gateway;
  let browser;
  try {
    gateway = await startApp('api-gateway', {
      DATABASE_URL: infra.databaseUrl,
      NATS_URL: infra.natsUrl,
      NATS_PREFIX: infra.natsPrefix,
      LOG_LEVEL: 'warn',
    });
    const html = await (await fetch(`${gateway.url}/sign-in`, { headers: { accept: 'text/html' } })).text();
    const files = [{ path: 'index.html', raw: Buffer.byteLength(html), br: null, gz: null }];
    for (const ref of firstLoadFiles(html)) {
      const local = join(DIST, ref);
      const sent = await fetch(`${gateway.url}${ref}`, { headers: { 'accept-encoding': 'br' } });
      await sent.arrayBuffer();
      files.push({
        path: ref.slice(1),
        raw: size(local),
        br: size(`${local}.br`),
        gz: size(`${local}.gz`),
        encoding: sent.headers.get('content-encoding'),
      });
    }

    const { chromium } = require('playwright-core');
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
    const times = [];
    for (let i = 0; i <= RUNS; i++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      await page.goto(`${gateway.url}/sign-in`, { waitUntil: 'commit' });
      await page.getByLabel('Personal access token').waitFor({ state: 'visible' });
      // From the navigation's start, by the page's own clock: what a person waits for.
      const ms = await page.evaluate(() => performance.now());
      await context.close();
      if (i === 0) continue; // the first warms the gateway's file cache
      times.push(ms);
      log(`load ${i}: ${ms.toFixed(0)} ms`);
    }
    times.sort((a, b) => a - b);
    const pct = (p) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))];
    return { pass: pct(95) < TARGET_MS, files, runs: RUNS, p50: pct(50), p95: pct(95), max: times[times.length - 1] };
  } finally {
    await browser?.close();
    await gateway?.stop();
    await infra.teardown();
  }
}

function markdown(r, _opts, machine) {
  const kb = (n) => (n === null || n === undefined ? '–' : `${(n / 1024).toFixed(1)} KB`);
  const sum = (key) => r.files.reduce((a, f) => a + (f[key] ?? f.raw), 0);
  return [
    '## Console: the sign-in page on a first load',
    '',
    `\`npm run bench -- console\` (bench/console/) on ${machine.cpu}, ${machine.os}, Node ${machine.node}, ${machine.date}.`,
    'api-gateway serving the built console on this machine; headless Debian Chromium at 1280x800, no throttling (the desktop',
    `profile), a fresh context (empty cache) per load; ${r.runs} loads after one warm-up. Every page but sign-in is a chunk of its own,`,
    'loaded when first opened; text assets are sent brotli- or gzip-compressed from copies the build makes.',
    '',
    '| file | raw | brotli | gzip | sent as |',
    '|---|---:|---:|---:|---|',
    ...r.files.map((f) => `| ${f.path} | ${kb(f.raw)} | ${kb(f.br)} | ${kb(f.gz)} | ${f.encoding ?? 'identity'} |`),
    `| **all** | ${kb(sum('raw'))} | ${kb(sum('br'))} | ${kb(sum('gz'))} | |`,
    '',
    '| measure | value | goal |',
    '|---|---|---|',
    `| navigation start to the sign-in form usable, p50 / p95 / max | ${r.p50.toFixed(0)} / ${r.p95.toFixed(0)} / ${r.max.toFixed(0)} ms | p95 under ${TARGET_MS} ms: ${r.pass ? 'met' : 'missed'} |`,
    '',
  ].join('\n');
}

module.exports = {
  id: 'console',
  title: 'Console: the sign-in page on a first load',
  /** Needs Chromium and the console build; run it by name. */
  onlyWhenNamed: true,
  run,
  markdown,
};
