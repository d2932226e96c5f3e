'use strict';
/*
 * The hardening run (`npm run bench -- hardening`): the whole stack, supervised as `npm start`
 * runs it, on a private database, NATS prefix, storage root and loopback ports, attacked by
 * three scenarios — fuzzing every operation of the OpenAPI document, one tenant going after
 * another's data, and faults (cut uploads, abandoned downloads, kill -9 mid-indexing,
 * catastrophic regular expressions). Every request has a 15 s deadline and each scenario a time
 * budget. The results table goes to docs/hardening.md.
 */
const { join } = require('node:path');
const { throwIfInterrupted } = require('../lib/interrupt');
const { REPO_ROOT } = require('../lib/processes');
const { faults } = require('./faults');
const { fuzzCases } = require('./fuzz');
const { jobs } = require('./jobs');
const { markdown } = require('./report');
const { must, runCases, upload } = require('./runner');
const { startHardeningStack } = require('./stack');
const { Tally } = require('./tally');
const { tenancy } = require('./tenancy');

const SCENARIOS = {
  fuzz: 'Fuzzing every operation of /api/docs-json',
  tenancy: 'Tenancy: globex after acme\u2019s data',
  faults: 'Faults: cut uploads, abandoned downloads, kill -9, ReDoS',
  jobs: 'Jobs: hostile schemas and text, a flooding tenant, a big batch, kill -9 in a busy queue',
};
/** Peak resident memory any service may reach during the run. */
const RSS_LIMIT_MIB = 1024;
const budgetMs = () => Number(process.env.HARDENING_FUZZ_BUDGET_S || 150) * 1000;
const REQUEST_TIMEOUT_MS = Number(process.env.HARDENING_REQUEST_TIMEOUT_MS || 15_000);
/** HARDENING_SCENARIOS=jobs,faults: run only these (with --no-write, so the doc keeps a whole run). */
const ONLY = process.env.HARDENING_SCENARIOS?.split(',').map((s) => s.trim());

async function fuzzScenario(stack, tally, { log, secrets }) {
  const url = stack.url;
  const token = await stack.token('fuzzer', 'fuzz@fuzzer.test');
  const providers = (await must(200, url, 'GET', '/api/core/providers', { token })).data;
  const providerId = providers.find((p) => p.name === 'Only fuzzer').id.id;
  for (const key of ['fuzz/sample.txt', 'fuzz/delete-me.txt', 'fuzz/rename-me.txt']) {
    const res = await upload(url, token, providerId, key, `fuzz fixture ${key}\n`);
    if (res.status !== 201) throw new Error(`set-up upload of ${key}: ${res.status} ${res.text}`);
  }
  const fileId = (await must(201, url, 'POST', '/api/core/files', { token, body: { providerId, key: 'fuzz/sample.txt' } })).id.id;
  const collectionId = (await must(201, url, 'POST', '/api/core/collections', { token, body: { name: 'fuzz fixtures' } })).id.id;
  await must(201, url, 'POST', `/api/core/collections/${collectionId}/files`, { token, body: { fileId } });
  const docRes = await fetch(`${url}/api/docs-json`, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  const doc = await docRes.json();
  const { groups, operations } = fuzzCases(doc, { token, providerId, fileId, collectionId, fileKey: 'fuzz/sample.txt' });
  const total = groups.reduce((n, g) => n + g.cases.length, 0);
  log(`fuzz: ${operations} operations in the OpenAPI document, ${total} cases in ${groups.length} groups, budget ${budgetMs() / 1000} s`);
  const deadline = Date.now() + budgetMs();
  for (const group of groups) {
    throwIfInterrupted();
    const skipped = await runCases(tally, 'fuzz', group.cases, {
      port: stack.gatewayPort,
      concurrency: 6,
      deadline,
      timeoutMs: REQUEST_TIMEOUT_MS,
      secrets,
    });
    if (skipped) log(`fuzz: budget spent; ${skipped} cases of ${group.name} not run`);
  }
  return { operations, groups: groups.length, total };
}

async function run(_opts, log) {
  const tally = new Tally();
  for (const [id, title] of Object.entries(SCENARIOS)) if (!ONLY || ONLY.includes(id)) tally.row(id, title);
  const started = Date.now();
  log('starting the stack (supervised, private database and NATS prefix)');
  const stack = await startHardeningStack({ namespaces: ['acme', 'globex', 'fuzzer'], log });
  const secrets = [stack.env.STORAGE_SIGNING_SECRET, stack.env.DATABASE_URL, stack.dir];
  const info = {};
  try {
    log(`stack up at ${stack.url} in ${Math.round((Date.now() - started) / 1000)} s`);
    for (const [id, fn] of [
      ['fuzz', () => fuzzScenario(stack, tally, { log, secrets })],
      ['tenancy', () => tenancy(stack, tally, { log, secrets, deadline: Date.now() + 120_000 })],
      ['faults', () => faults(stack, tally, { log, secrets })],
      ['jobs', () => jobs(stack, tally, { log, secrets })],
    ].filter(([id]) => !ONLY || ONLY.includes(id))) {
      throwIfInterrupted();
      const t0 = Date.now();
      stack.markScenario(id);
      log(`${SCENARIOS[id]}`);
      info[id] = { ...(await fn()), seconds: Math.round((Date.now() - t0) / 1000) };
      const row = tally.row(id);
      log(
        `${id}: ${row.cases} cases, ${row.s5xx} 5xx, ${row.leaks} leaks, ${row.hangs} hangs, ${row.failedChecks} failed checks (${info[id].seconds} s)`,
      );
    }
    stack.markScenario('end');
    info.peakRssMib = stack.peakRssMib();
    for (const [name, mib] of Object.entries(info.peakRssMib)) {
      tally.check('jobs', `${name} peak RSS under ${RSS_LIMIT_MIB} MiB through the run`, mib < RSS_LIMIT_MIB, `${mib} MiB`);
    }
    // A crash restarted by the supervisor is still a crash.
    for (const c of stack.crashes) tally.crashes(c.scenario in SCENARIOS ? c.scenario : 'faults', 1);
  } finally {
    await stack.stop();
  }
  const crashes = stack.crashes.map(({ tail, ...c }) => ({ ...c, tail: tail.split('\n').slice(-8).join('\n') }));
  const total = tally.totals();
  return {
    rows: [...tally.rows.values()],
    total,
    notable: tally.notable,
    crashes,
    info,
    seconds: Math.round((Date.now() - started) / 1000),
    pass: tally.pass(),
  };
}

module.exports = {
  id: 'hardening',
  title: 'Hardening: hostile input, tenancy and faults',
  /** Not part of a plain `npm run bench`: run it by name. */
  onlyWhenNamed: true,
  doc: join(REPO_ROOT, 'docs/hardening.md'),
  preamble: require('./report').PREAMBLE,
  run,
  markdown,
};
