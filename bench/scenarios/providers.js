'use strict';
/*
 * GET /api/core/providers/{id} through the whole path (api-gateway -> NATS -> storage-service ->
 * Postgres), compared with a bare Fastify + pg handler doing the same row read on the same
 * machine, against a private database and NATS prefix. The breakdown times each hop alone
 * under the same load and accounts CPU time per process, to show where a request's cost goes.
 *
 * Then a list: GET /api/core/files (a page of 20 IndexedFiles of the provider) through api-gateway
 * -> NATS -> indexing-service (provider check cached for 1 s) -> Postgres, beside a bare Fastify + pg
 * handler running the same page query (with its window count). indexing-service and rules-engine
 * start only after the provider rows are measured, so those rows see the same processes as before.
 *
 * Then deep paging: a second namespace gets --files IndexedFile rows (100,000 by default) of the
 * same provider, inserted directly in SQL (copies of a real indexed file under new names; seeding
 * is not the product's path, the list is), with no ANALYZE afterwards, and page DEEP_PAGE is read
 * through the gateway and from the bare server: one request at a time for p50/p95/p99, then under
 * the same load as the rows above for throughput.
 */
const { mkdtempSync, mkdirSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { isDeepStrictEqual } = require('node:util');
const { Client } = require('pg');
const { startCpuAccounting } = require('../lib/cpu');
const { startInfrastructure } = require('../lib/infra');
const { throwIfInterrupted } = require('../lib/interrupt');
const { measure } = require('../lib/load');
const { measureNats } = require('../lib/nats-load');
const { createToken, startApp, startProcess, REPO_ROOT } = require('../lib/processes');

const TARGETS = {
  minThroughputRatio: 0.4,
  maxGatewayP99Ms: 25,
  minListThroughputRatio: 0.4,
  maxDeepPageP95Ms: 50,
  minDeepThroughputRatio: 0.4,
};
/** IndexedFiles seeded for the list; the measured page is the first LIST_PAGE_SIZE of them by name. */
const LIST_FILES = 30;
const LIST_PAGE_SIZE = 20;
const SETTLE_TIMEOUT_MS = 5 * 60_000;
/** The page read in the deep-paging namespace (0-based: 19 is the 20th page). */
const DEEP_PAGE = 19;
const DEEP_REQUESTS = 400;
const DEEP_WARMUP_REQUESTS = 40;
const DEEP_NAMESPACE = 'bench-deep';
const PROFILE_DIR = join(REPO_ROOT, 'bench/results/profiles');
const TITLE = 'Providers: GET /api/core/providers/{id} and GET /api/core/files';

async function getJson(url, headers) {
  const res = await fetch(url, { headers });
  if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}: ${await res.text()}`);
  return res.json();
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Uploads `count` small text files into bench/ of the provider and creates an IndexedFile of each. */
async function seedFiles(baseUrl, auth, providerId, count) {
  for (let i = 0; i < count; i++) {
    throwIfInterrupted();
    const name = `list-${String(i).padStart(2, '0')}.txt`;
    const text = `Benchmark file ${i}.\n\nA short plain-text document, one of ${count} that the files list of the providers benchmark pages through.\n`;
    const form = new FormData();
    form.append('file', new Blob([text], { type: 'text/plain' }), name);
    const up = await fetch(`${baseUrl}/api/core/providers/${providerId}/items?key=bench/`, { method: 'POST', headers: auth, body: form });
    if (up.status !== 201) throw new Error(`upload ${name} answered ${up.status}: ${await up.text()}`);
    const created = await fetch(`${baseUrl}/api/core/files`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ providerId, key: `bench/${name}` }),
    });
    if (created.status !== 201) throw new Error(`POST /api/core/files for ${name} answered ${created.status}: ${await created.text()}`);
  }
}

const UNSETTLED = new Set(['PENDING', 'RUNNING']);
/** The file is SUCCESS and none of the steps recorded in its additionalInfos is still pending or running. */
const settled = (f) =>
  f.lastIndexationInfos.status === 'SUCCESS' &&
  Object.values(f.additionalInfos ?? {}).every((step) => !step || typeof step !== 'object' || !UNSETTLED.has(step.status));

/**
 * Waits until every seeded file is indexed with its asynchronous steps over, the listing has not
 * changed for two seconds and indexing-service is idle, so that the measurement has the machine
 * to itself. Throws when a file fails or nothing settles in time.
 */
async function waitUntilIndexed(baseUrl, auth, providerId, count, indexingPid, profiling) {
  const url = `${baseUrl}/api/core/files?providerId=${providerId}&page=0&pageSize=100`;
  const deadline = Date.now() + SETTLE_TIMEOUT_MS;
  let previous = null;
  let stableSince = 0;
  for (;;) {
    throwIfInterrupted();
    const files = (await getJson(url, auth)).data;
    const failed = files.filter((f) => ['FAILED', 'ABORTED'].includes(f.lastIndexationInfos.status));
    if (failed.length) {
      throw new Error(`indexing failed: ${failed.map((f) => `${f.name}: ${f.lastIndexationInfos.errorMessage}`).join('; ')}`);
    }
    const body = JSON.stringify(files);
    const done = files.length === count && files.every(settled);
    if (!done || body !== previous) stableSince = Date.now();
    previous = body;
    if (done && Date.now() - stableSince >= 2000) {
      // indexing-service's own CPU over one second: below 3% of a core counts as idle.
      const accounting = startCpuAccounting({ indexing: indexingPid });
      await sleep(1000);
      const used = accounting.stop();
      // A profiled process never looks idle (the profiler samples it): then a settled listing is enough.
      if (!used || used.groups.indexing < 30 || profiling) return files;
    }
    if (Date.now() > deadline) {
      const summary = files.map((f) => `${f.name} ${f.lastIndexationInfos.status} ${JSON.stringify(f.additionalInfos)}`).join('\n  ');
      throw new Error(`the seeded files did not settle within ${SETTLE_TIMEOUT_MS / 1000} s (${files.length} of ${count}):\n  ${summary}`);
    }
    await sleep(500);
  }
}

/** The namespace id the gateway gave the seeded files (the bare list server takes it as configuration). */
async function namespaceOfFiles(databaseUrl, providerId) {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query('SELECT DISTINCT namespace_id FROM indexing.files WHERE provider_id = $1', [providerId]);
    if (rows.length !== 1) throw new Error(`expected the seeded files in one namespace, found ${rows.length}`);
    return rows[0].namespace_id;
  } finally {
    await client.end();
  }
}

/**
 * Copies the template file `count` times into the namespace, under new ids, keys and names,
 * in one INSERT (every other column, its pipeline record included, as the template has it).
 */
async function seedDeepNamespace(databaseUrl, templateId, namespaceId, count) {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query(
      `SELECT column_name FROM information_schema.columns WHERE table_schema = 'indexing' AND table_name = 'files' ORDER BY ordinal_position`,
    );
    const replaced = {
      id: 'gen_random_uuid()',
      namespace_id: '$2::uuid',
      namespace_name: '$3::text',
      key: `'deep/' || lpad(i::text, 6, '0') || '.txt'`,
      name: `'deep-' || lpad(i::text, 6, '0') || '.txt'`,
      policy_id: 'gen_random_uuid()',
      created_time: 't.created_time + i',
    };
    const columns = rows.map((r) => r.column_name);
    const values = columns.map((c) => replaced[c] ?? `t.${c}`);
    await client.query(
      `INSERT INTO indexing.files (${columns.join(', ')})
       SELECT ${values.join(', ')} FROM indexing.files t, generate_series(1, $4::int) AS i WHERE t.id = $1`,
      [templateId, namespaceId, DEEP_NAMESPACE, count],
    );
  } finally {
    await client.end();
  }
}

/**
 * EXPLAIN ANALYZE of what page DEEP_PAGE costs in Postgres: the query inside provider_files_page
 * (under the function's own settings, since EXPLAIN does not look inside a function), the counter
 * read, and for comparison the count(*) that a window count or a separate count would run.
 */
async function explainDeepPage(databaseUrl, namespaceId, providerId, pageSize) {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  const explain = async (sql, params) =>
    (await client.query(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${sql}`, params)).rows.map((r) => r['QUERY PLAN']).join('\n');
  try {
    await client.query('BEGIN');
    await client.query('SET LOCAL search_path = indexing');
    await client.query('SET LOCAL enable_sort = off; SET LOCAL enable_bitmapscan = off; SET LOCAL enable_seqscan = off');
    const page = await explain(
      'SELECT * FROM files WHERE namespace_id = $1 AND provider_id = $2 ORDER BY lower(name), id OFFSET $3 LIMIT $4',
      [namespaceId, providerId, DEEP_PAGE * pageSize, pageSize],
    );
    await client.query('ROLLBACK');
    const total = await explain('SELECT n FROM indexing.provider_file_counts WHERE namespace_id = $1 AND provider_id = $2', [
      namespaceId,
      providerId,
    ]);
    const count = await explain('SELECT count(*) FROM indexing.files WHERE namespace_id = $1 AND provider_id = $2', [
      namespaceId,
      providerId,
    ]);
    const ms = (plan) => Number(/Execution Time: ([\d.]+) ms/.exec(plan)?.[1]);
    return { page, total, count, pageMs: ms(page), totalMs: ms(total), countMs: ms(count) };
  } finally {
    await client.end();
  }
}

async function namespaceIdOf(databaseUrl, name) {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query('SELECT id FROM identity.namespaces WHERE name = $1', [name]);
    if (rows.length !== 1) throw new Error(`namespace ${name} not found`);
    return rows[0].id;
  } finally {
    await client.end();
  }
}

/** Latency of one request at a time (ms): p50, p95 and p99 over `count` requests after `warmup` unmeasured ones. */
async function sequentialLatency(url, headers, count, warmup) {
  const times = [];
  for (let i = 0; i < warmup + count; i++) {
    throwIfInterrupted();
    const started = process.hrtime.bigint();
    const res = await fetch(url, { headers });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}`);
    if (i >= warmup) times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  times.sort((a, b) => a - b);
  const at = (q) => times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)];
  return { requests: count, p50: at(0.5), p95: at(0.95), p99: at(0.99), max: times[times.length - 1] };
}

async function run(opts, log) {
  const deepFiles = opts.deepFiles ?? 100_000;
  const infra = await startInfrastructure('providers');
  const workDir = mkdtempSync(join(tmpdir(), 'docintel-bench-'));
  const storageRoot = join(workDir, 'storage');
  const indexTempDir = join(workDir, 'index-tmp');
  mkdirSync(storageRoot);
  mkdirSync(indexTempDir);
  const started = [];
  const nodeArgs = (name) => {
    if (!opts.profile) return [];
    mkdirSync(PROFILE_DIR, { recursive: true });
    return ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`, `--cpu-prof-name=${name}-${Date.now()}.cpuprofile`];
  };
  const env = {
    DATABASE_URL: infra.databaseUrl,
    NATS_URL: infra.natsUrl,
    NATS_PREFIX: infra.natsPrefix,
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL || 'info',
    STORAGE_ROOT: storageRoot,
  };
  const load = { connections: opts.connections, durationS: opts.durationS, warmupS: opts.warmupS };
  const shared = { postgres: 'postgres', 'nats-server': 'nats-server' };
  const say = (what) => log(`${what}: ${opts.warmupS} s warm-up + ${opts.durationS} s at ${opts.connections} connections`);
  const rows = {};
  let deepNamespaceId;
  let deepSeedS = 0;
  let deepPlan;
  let deepPath;
  let deepExpected;
  let listChanged = false;
  let listBodyBytes = 0;
  try {
    log(`database ${infra.database}, NATS prefix ${infra.natsPrefix}`);
    const storage = await startApp('storage-service', env, { nodeArgs: nodeArgs('storage-service') });
    started.push(storage);
    // Uploads (for the list's files) go from the gateway, and file bytes to indexing, over storage's HTTP port.
    const withStorage = { ...env, STORAGE_SERVICE_URL: storage.url, INDEX_TEMP_DIR: indexTempDir };
    const gateway = await startApp('api-gateway', withStorage, { nodeArgs: nodeArgs('api-gateway') });
    started.push(gateway);
    const token = await createToken(env, 'bench', 'bench@example.com');
    const auth = { authorization: `Bearer ${token}` };
    const page = await getJson(`${gateway.url}/api/core/providers`, auth);
    const providerId = page.data[0].id.id;
    const path = `/api/core/providers/${providerId}`;
    const expected = await getJson(`${gateway.url}${path}`, auth);
    const cpu = { 'api-gateway': gateway.pid, 'storage-service': storage.pid, ...shared };

    say('gateway');
    rows.gateway = await measure({ url: `${gateway.url}${path}`, headers: auth, cpu, ...load });
    if (opts.breakdown) {
      const nats = { natsUrl: infra.natsUrl, concurrency: opts.connections, durationS: opts.durationS, warmupS: opts.warmupS, cpu };
      say('storage-service over NATS');
      rows.storageHop = await measureNats({
        ...nats,
        subject: `${infra.natsPrefix}.storage.providers.get`,
        payload: { providerId },
        headers: { 'x-namespace-name': 'bench', 'x-request-id': 'bench' },
      });
      say('NATS round trip (ping)');
      rows.natsHop = await measureNats({ ...nats, subject: `${infra.natsPrefix}.storage.health.ping`, payload: {} });
      say('gateway HTTP stack (/health/live)');
      rows.httpHop = await measure({ url: `${gateway.url}/health/live`, cpu, ...load });
    }

    // The list: indexing-service (with rules-engine, which its pipeline asks) joins, files are seeded and indexed.
    const rules = await startApp('rules-engine', withStorage, { nodeArgs: nodeArgs('rules-engine') });
    started.push(rules);
    const indexing = await startApp('indexing-service', withStorage, { nodeArgs: nodeArgs('indexing-service'), timeoutMs: 120_000 });
    started.push(indexing);
    log(`seeding ${LIST_FILES} text files and waiting until they are indexed`);
    const seedStarted = Date.now();
    await seedFiles(gateway.url, auth, providerId, LIST_FILES);
    await waitUntilIndexed(gateway.url, auth, providerId, LIST_FILES, indexing.pid, opts.profile);
    log(`indexed and idle after ${((Date.now() - seedStarted) / 1000).toFixed(1)} s`);
    const listPath = `/api/core/files?providerId=${providerId}&page=0&pageSize=${LIST_PAGE_SIZE}`;
    const expectedList = await getJson(`${gateway.url}${listPath}`, auth);
    if (expectedList.data.length !== LIST_PAGE_SIZE || expectedList.totalElements !== LIST_FILES) {
      throw new Error(
        `the list page has ${expectedList.data.length} of ${expectedList.totalElements} files, expected ${LIST_PAGE_SIZE} of ${LIST_FILES}`,
      );
    }
    listBodyBytes = Buffer.byteLength(JSON.stringify(expectedList));
    const namespaceId = await namespaceOfFiles(infra.databaseUrl, providerId);
    say('list through the gateway');
    rows.listGateway = await measure({
      url: `${gateway.url}${listPath}`,
      headers: auth,
      cpu: { ...cpu, 'indexing-service': indexing.pid },
      ...load,
    });
    // A listing that changed under the measurement means indexing was still at work during it.
    const listAfter = await getJson(`${gateway.url}${listPath}`, auth);
    listChanged = !isDeepStrictEqual(listAfter, expectedList);
    if (listChanged) log('warning: the files list changed during its measurement');

    // Deep paging, in a namespace of its own so that the rows above keep their 30 files.
    const deepAuth = { authorization: `Bearer ${await createToken(env, DEEP_NAMESPACE, 'bench@example.com')}` };
    deepNamespaceId = await namespaceIdOf(infra.databaseUrl, DEEP_NAMESPACE);
    log(`seeding ${deepFiles} IndexedFile rows in SQL in namespace ${DEEP_NAMESPACE}`);
    const deepSeedStarted = Date.now();
    await seedDeepNamespace(infra.databaseUrl, expectedList.data[0].id.id, deepNamespaceId, deepFiles);
    deepSeedS = (Date.now() - deepSeedStarted) / 1000;
    deepPlan = await explainDeepPage(infra.databaseUrl, deepNamespaceId, providerId, LIST_PAGE_SIZE);
    log(`page ${DEEP_PAGE + 1} in Postgres: ${deepPlan.pageMs} ms, its total ${deepPlan.totalMs} ms (count(*) would take ${deepPlan.countMs} ms)`);
    log(`plan of the page:\n${deepPlan.page}`);
    deepPath = `/api/core/files?providerId=${providerId}&page=${DEEP_PAGE}&pageSize=${LIST_PAGE_SIZE}`;
    deepExpected = await getJson(`${gateway.url}${deepPath}`, deepAuth);
    const firstDeep = `deep-${String(DEEP_PAGE * LIST_PAGE_SIZE + 1).padStart(6, '0')}.txt`;
    if (
      deepExpected.totalElements !== deepFiles ||
      deepExpected.data.length !== LIST_PAGE_SIZE ||
      deepExpected.data[0].name !== firstDeep
    ) {
      throw new Error(
        `the deep page has ${deepExpected.data.length} of ${deepExpected.totalElements} files, from ${deepExpected.data[0]?.name}`,
      );
    }
    log(`page ${DEEP_PAGE + 1} of ${deepFiles} files through the gateway: ${DEEP_REQUESTS} requests one at a time`);
    rows.deepGateway = await sequentialLatency(`${gateway.url}${deepPath}`, deepAuth, DEEP_REQUESTS, DEEP_WARMUP_REQUESTS);
    say(`page ${DEEP_PAGE + 1} of ${deepFiles} files through the gateway`);
    rows.deepGatewayLoad = await measure({
      url: `${gateway.url}${deepPath}`,
      headers: deepAuth,
      cpu: { ...cpu, 'indexing-service': indexing.pid },
      ...load,
    });
    // Only one contender runs at a time, so neither takes CPU from the other.
    while (started.length) await started.pop().stop();

    const bare = await startProcess('bare', join(__dirname, '../servers/bare-providers.js'), {
      env: { DATABASE_URL: infra.databaseUrl },
      nodeArgs: nodeArgs('bare'),
    });
    started.push(bare);
    const bareBody = await getJson(`${bare.url}${path}`);
    if (!isDeepStrictEqual(bareBody, expected)) {
      throw new Error(`the bare handler answers differently from the gateway:\n${JSON.stringify(bareBody)}\n${JSON.stringify(expected)}`);
    }
    say('bare');
    rows.bare = await measure({ url: `${bare.url}${path}`, cpu: { bare: bare.pid, ...shared }, ...load });
    await started.pop().stop();

    const bareList = await startProcess('bare-list', join(__dirname, '../servers/bare-files.js'), {
      env: { DATABASE_URL: infra.databaseUrl, NAMESPACE_ID: namespaceId },
      nodeArgs: nodeArgs('bare-list'),
    });
    started.push(bareList);
    const bareListBody = await getJson(`${bareList.url}${listPath}`);
    if (!isDeepStrictEqual(bareListBody, listAfter)) {
      throw new Error(`the bare list answers differently from the gateway:\n${JSON.stringify(bareListBody)}\n${JSON.stringify(listAfter)}`);
    }
    say('bare list');
    rows.listBare = await measure({ url: `${bareList.url}${listPath}`, cpu: { bare: bareList.pid, ...shared }, ...load });
    await started.pop().stop();

    const bareDeep = await startProcess('bare-deep', join(__dirname, '../servers/bare-files.js'), {
      env: { DATABASE_URL: infra.databaseUrl, NAMESPACE_ID: deepNamespaceId },
      nodeArgs: nodeArgs('bare-deep'),
    });
    started.push(bareDeep);
    const bareDeepBody = await getJson(`${bareDeep.url}${deepPath}`);
    if (!isDeepStrictEqual(bareDeepBody, deepExpected))
      throw new Error('the bare server answers the deep page differently from the gateway');
    log(`page ${DEEP_PAGE + 1} of ${deepFiles} files from the bare server: ${DEEP_REQUESTS} requests one at a time`);
    rows.deepBare = await sequentialLatency(`${bareDeep.url}${deepPath}`, {}, DEEP_REQUESTS, DEEP_WARMUP_REQUESTS);
    say(`page ${DEEP_PAGE + 1} of ${deepFiles} files from the bare server`);
    rows.deepBareLoad = await measure({ url: `${bareDeep.url}${deepPath}`, cpu: { bare: bareDeep.pid, ...shared }, ...load });
  } finally {
    const stops = await Promise.allSettled(started.map((p) => p.stop()));
    rmSync(workDir, { recursive: true, force: true });
    await infra.teardown();
    for (const s of stops) if (s.status === 'rejected') log(`stopping a process failed: ${s.reason}`);
  }

  const ratio = rows.gateway.rps / rows.bare.rps;
  const listRatio = rows.listGateway.rps / rows.listBare.rps;
  const deepRatio = rows.deepGatewayLoad.rps / rows.deepBareLoad.rps;
  const failed = ['gateway', 'bare', 'listGateway', 'listBare', 'deepGatewayLoad', 'deepBareLoad'].reduce((n, k) => n + rows[k].failed, 0);
  const checks = [
    {
      target: `gateway throughput ≥ ${TARGETS.minThroughputRatio * 100}% of bare`,
      measured: `${(ratio * 100).toFixed(1)}%`,
      pass: ratio >= TARGETS.minThroughputRatio,
    },
    {
      target: `gateway p99 < ${TARGETS.maxGatewayP99Ms} ms`,
      measured: `${rows.gateway.p99} ms`,
      pass: rows.gateway.p99 < TARGETS.maxGatewayP99Ms,
    },
    {
      target: `list: gateway ≥ ${TARGETS.minListThroughputRatio * 100}% of bare`,
      measured: `${(listRatio * 100).toFixed(1)}%`,
      pass: listRatio >= TARGETS.minListThroughputRatio,
    },
    {
      target: `list page ${DEEP_PAGE + 1} of ${deepFiles.toLocaleString('en-US')} files: gateway p95 < ${TARGETS.maxDeepPageP95Ms} ms`,
      measured: `${round1(rows.deepGateway.p95)} ms`,
      pass: rows.deepGateway.p95 < TARGETS.maxDeepPageP95Ms,
    },
    {
      target: `list page ${DEEP_PAGE + 1} of ${deepFiles.toLocaleString('en-US')} files: gateway ≥ ${TARGETS.minDeepThroughputRatio * 100}% of bare`,
      measured: `${(deepRatio * 100).toFixed(1)}%`,
      pass: deepRatio >= TARGETS.minDeepThroughputRatio,
    },
    { target: 'no failed requests', measured: `${failed}`, pass: failed === 0 },
  ];
  return {
    rows,
    ratio,
    listRatio,
    deepRatio,
    list: { files: LIST_FILES, pageSize: LIST_PAGE_SIZE, bodyBytes: listBodyBytes, changedDuringMeasurement: listChanged },
    deep: { files: deepFiles, page: DEEP_PAGE, pageSize: LIST_PAGE_SIZE, requests: DEEP_REQUESTS, seedS: deepSeedS, plan: deepPlan },
    checks,
    pass: checks.every((c) => c.pass),
  };
}

const LABELS = {
  gateway: 'gateway: HTTP → api-gateway (token check, cached for AUTH_CACHE_MS) → NATS → storage-service (providers in memory)',
  bare: 'bare: one Fastify process, pg, same row read, no auth',
  listGateway: `list: HTTP → api-gateway → NATS → indexing-service (provider check cached for 1 s) → Postgres, the page's JSON passed on unparsed, ${LIST_PAGE_SIZE} of ${LIST_FILES} files`,
  listBare: 'list bare: one Fastify process, pg, the same page query and total, no auth',
  storageHop: 'hop: NATS request → storage-service providers.get (providers in memory; no HTTP, no auth)',
  natsHop: 'hop: NATS request → storage-service ping',
  httpHop: 'hop: HTTP → api-gateway GET /health/live (no auth, no NATS, no Postgres)',
};
const DEEP_LABELS = {
  deepGateway: 'gateway: HTTP → api-gateway → NATS → indexing-service → Postgres',
  deepBare: 'bare: one Fastify process, pg, the same page query and total, no auth',
};
const SHORT = {
  gateway: 'gateway path',
  bare: 'bare',
  listGateway: 'list: gateway path',
  listBare: 'list: bare',
  deepGatewayLoad: 'page 20: gateway path',
  deepBareLoad: 'page 20: bare',
  storageHop: 'hop: storage-service over NATS',
  natsHop: 'hop: NATS ping',
  httpHop: 'hop: gateway /health/live',
};
const CPU_COLUMNS = [
  ['load generator (bench process)', 'load gen.'],
  ['api-gateway', 'api-gateway'],
  ['storage-service', 'storage-service'],
  ['indexing-service', 'indexing-service'],
  ['bare', 'bare server'],
  ['postgres', 'postgres'],
  ['nats-server', 'nats-server'],
  ['kernel interrupts (network)', 'interrupts'],
  ['other processes', 'other processes'],
];

const fmt = (n) => Math.round(n).toLocaleString('en-US');
const round1 = (n) => Math.round(n * 10) / 10;

function cpuRow(label, r) {
  if (!r.cpu) return null;
  const per = (ms) => (ms === undefined ? '–' : fmt((ms / r.requests) * 1000));
  const total = Object.values(r.cpu.groups).reduce((a, b) => a + b, 0);
  const busy = `${Math.round((100 * r.cpu.machineBusyMs) / r.cpu.machineCapacityMs)}%`;
  return `| ${label} | ${CPU_COLUMNS.map(([key]) => per(r.cpu.groups[key])).join(' | ')} | ${per(total)} | ${busy} |`;
}

/** Share of the machine that processes outside the benchmark took during a run. */
function othersShare(r) {
  return r.cpu ? r.cpu.groups['other processes'] / r.cpu.machineCapacityMs : 0;
}

function markdown(result, opts, machine) {
  const { rows } = result;
  const noisy = Object.entries(rows).filter(([, r]) => othersShare(r) > 0.15);
  const measured = ['gateway', 'bare', 'listGateway', 'listBare'];
  const hops = ['storageHop', 'natsHop', 'httpHop'].filter((k) => rows[k]);
  const order = [...measured, ...hops, ...['deepGatewayLoad', 'deepBareLoad'].filter((k) => rows[k])];
  const perf = (k) => `| ${LABELS[k]} | ${fmt(rows[k].rps)} | ${round1(rows[k].p50)} | ${round1(rows[k].p99)} | ${rows[k].failed} |`;
  const cpuRows = order.map((k) => cpuRow(SHORT[k], rows[k])).filter(Boolean);
  const lines = [
    `## ${TITLE}`,
    '',
    `Command: \`npm run bench -- providers\`. Load: autocannon (hops over NATS: the same number of ` +
      `concurrent callers), ${opts.connections} connections, ${opts.warmupS} s warm-up then ${opts.durationS} s ` +
      `measured, one contender at a time; single instances of api-gateway and storage-service with their default settings.`,
    '',
    `List: \`GET /api/core/files?providerId=…&page=0&pageSize=${result.list.pageSize}\` (a ${(result.list.bodyBytes / 1024).toFixed(1)} KiB JSON page) over ${result.list.files} small text files ` +
      `uploaded and created (POST /api/core/files) in the benchmark's namespace, measured once they are SUCCESS with their ` +
      `asynchronous steps over and indexing-service idle; indexing-service and rules-engine (default settings) run only ` +
      `from then on, so the provider rows see the same processes as without them.`,
    '',
    `Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB RAM, ${machine.os}, Node ${machine.node}. ` +
      `Measured ${machine.date}. Postgres, NATS, the services and the load generator share this machine.`,
    '',
    '| path | requests/s | p50 (ms) | p99 (ms) | failed |',
    '|---|---:|---:|---:|---:|',
    ...measured.map(perf),
    '',
    `Gateway / bare throughput: **${(result.ratio * 100).toFixed(1)}%**. ` +
      `List: gateway / bare throughput: **${(result.listRatio * 100).toFixed(1)}%**.`,
    '',
    '| target | measured | result |',
    '|---|---:|---|',
    ...result.checks.map((c) => `| ${c.target} | ${c.measured} | ${c.pass ? 'pass' : '**FAIL**'} |`),
  ];
  if (rows.deepGateway) {
    const d = result.deep;
    const deepRow = (label, r) => `| ${label} | ${round1(r.p50)} | ${round1(r.p95)} | ${round1(r.p99)} | ${round1(r.max)} |`;
    lines.push(
      '',
      `### Deep paging: page ${d.page + 1} of ${d.files.toLocaleString('en-US')} files`,
      '',
      `\`GET /api/core/files?providerId=…&page=${d.page}&pageSize=${d.pageSize}\` in a namespace of ${d.files.toLocaleString('en-US')} IndexedFiles ` +
        `of one provider, ${d.requests} requests one at a time after ${DEEP_WARMUP_REQUESTS} unmeasured. The files were inserted directly ` +
        `in SQL (${d.seedS.toFixed(1)} s; copies of one indexed file under new names): seeding is not the product's path, the list is. ` +
        'No ANALYZE ran after the seeding (autovacuum is off on this machine), so the plan does not rest on fresh statistics. ' +
        `Then the same page under the load of the rows above (${opts.connections} connections, ${opts.durationS} s).`,
      '',
      ...(d.plan
        ? [
            `In Postgres (EXPLAIN ANALYZE after the seeding, results in bench/results/): the page ${d.plan.pageMs} ms, ` +
              `${/Index Scan using (\S+)/.exec(d.plan.page)?.[1] ?? 'not an index scan'} read for ${(d.page + 1) * d.pageSize} rows; ` +
              `its total ${d.plan.totalMs} ms, one row of provider_file_counts; a count(*) of the provider's files would take ${d.plan.countMs} ms.`,
            '',
          ]
        : []),
      '| one request at a time | p50 (ms) | p95 (ms) | p99 (ms) | max (ms) |',
      '|---|---:|---:|---:|---:|',
      deepRow(DEEP_LABELS.deepGateway, rows.deepGateway),
      deepRow(DEEP_LABELS.deepBare, rows.deepBare),
    );
    if (rows.deepGatewayLoad) {
      const loadRow = (label, r) => `| ${label} | ${fmt(r.rps)} | ${round1(r.p50)} | ${round1(r.p99)} | ${r.failed} |`;
      lines.push(
        '',
        `| ${opts.connections} connections | requests/s | p50 (ms) | p99 (ms) | failed |`,
        '|---|---:|---:|---:|---:|',
        loadRow(DEEP_LABELS.deepGateway, rows.deepGatewayLoad),
        loadRow(DEEP_LABELS.deepBare, rows.deepBareLoad),
        '',
        `Page ${d.page + 1}: gateway / bare throughput: **${(result.deepRatio * 100).toFixed(1)}%**.`,
      );
    }
  }
  if (noisy.length) {
    lines.push(
      '',
      `Warning: other work on the machine took more than 15% of its CPU during ${noisy.map(([k]) => SHORT[k]).join(', ')}; ` +
        'these numbers are lower than a quiet machine gives.',
    );
  }
  if (result.list.changedDuringMeasurement) {
    lines.push('', 'Warning: the files list changed during its measurement, so indexing was still at work then.');
  }
  if (hops.length) {
    lines.push(
      '',
      '### Breakdown: each hop alone, same load',
      '',
      '| hop | requests/s | p50 (ms) | p99 (ms) | failed |',
      '|---|---:|---:|---:|---:|',
    );
    lines.push(...hops.map(perf));
  }
  if (cpuRows.length) {
    lines.push(
      '',
      '### CPU time per request (µs), measured run',
      '',
      'CPU time each process used during the measured seconds divided by the requests served (Linux /proc). ' +
        'When the machine is saturated, requests/s ≈ cores × 1,000,000 / total.',
      '',
      `| run | ${CPU_COLUMNS.map(([, h]) => h).join(' | ')} | total | machine busy |`,
      `|---|${CPU_COLUMNS.map(() => '---:').join('|')}|---:|---:|`,
      ...cpuRows,
    );
  }
  return lines.join('\n');
}

module.exports = { id: 'providers', title: TITLE, run, markdown, TARGETS };
