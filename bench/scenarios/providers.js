'use strict';
/*
 * GET /api/core/providers/{id} through the whole path (api-gateway -> NATS -> storage-service ->
 * Postgres), compared with a bare Fastify + pg handler doing the same row read on the same
 * machine, against a private database and NATS prefix. The breakdown times each hop alone
 * under the same load and accounts CPU time per process, to show where a request's cost goes.
 */
const { mkdtempSync, mkdirSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { isDeepStrictEqual } = require('node:util');
const { startInfrastructure } = require('../lib/infra');
const { measure } = require('../lib/load');
const { measureNats } = require('../lib/nats-load');
const { createToken, startApp, startProcess, REPO_ROOT } = require('../lib/processes');

const TARGETS = { minThroughputRatio: 0.4, maxGatewayP99Ms: 25 };
const PROFILE_DIR = join(REPO_ROOT, 'bench/results/profiles');

async function getJson(url, headers) {
  const res = await fetch(url, { headers });
  if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}: ${await res.text()}`);
  return res.json();
}

async function run(opts, log) {
  const infra = await startInfrastructure('providers');
  const storageRoot = mkdtempSync(join(tmpdir(), 'docintel-bench-'));
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
  try {
    log(`database ${infra.database}, NATS prefix ${infra.natsPrefix}`);
    const storage = await startApp('storage-service', env, { nodeArgs: nodeArgs('storage-service') });
    started.push(storage);
    const gateway = await startApp('api-gateway', env, { nodeArgs: nodeArgs('api-gateway') });
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
  } finally {
    const stops = await Promise.allSettled(started.map((p) => p.stop()));
    rmSync(storageRoot, { recursive: true, force: true });
    await infra.teardown();
    for (const s of stops) if (s.status === 'rejected') log(`stopping a process failed: ${s.reason}`);
  }

  const ratio = rows.gateway.rps / rows.bare.rps;
  const failed = rows.gateway.failed + rows.bare.failed;
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
    { target: 'no failed requests', measured: `${failed}`, pass: failed === 0 },
  ];
  return { rows, ratio, checks, pass: checks.every((c) => c.pass) };
}

const LABELS = {
  gateway: 'gateway: HTTP → api-gateway (token check in Postgres) → NATS → storage-service → Postgres',
  bare: 'bare: one Fastify process, pg, same row read, no auth',
  storageHop: 'hop: NATS request → storage-service → Postgres (no HTTP, no auth)',
  natsHop: 'hop: NATS request → storage-service ping (no Postgres)',
  httpHop: 'hop: HTTP → api-gateway GET /health/live (no auth, no NATS, no Postgres)',
};
const SHORT = {
  gateway: 'gateway path',
  bare: 'bare',
  storageHop: 'hop: storage-service over NATS',
  natsHop: 'hop: NATS ping',
  httpHop: 'hop: gateway /health/live',
};
const CPU_COLUMNS = [
  ['load generator (bench process)', 'load gen.'],
  ['api-gateway', 'api-gateway'],
  ['storage-service', 'storage-service'],
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
  const order = ['gateway', 'bare', 'storageHop', 'natsHop', 'httpHop'].filter((k) => rows[k]);
  const perf = (k) => `| ${LABELS[k]} | ${fmt(rows[k].rps)} | ${round1(rows[k].p50)} | ${round1(rows[k].p99)} | ${rows[k].failed} |`;
  const cpuRows = order.map((k) => cpuRow(SHORT[k], rows[k])).filter(Boolean);
  const lines = [
    '## Providers: GET /api/core/providers/{id}',
    '',
    `Command: \`npm run bench -- providers\`. Load: autocannon (hops over NATS: the same number of ` +
      `concurrent callers), ${opts.connections} connections, ${opts.warmupS} s warm-up then ${opts.durationS} s ` +
      `measured, one contender at a time; single instances of api-gateway and storage-service with their default settings.`,
    '',
    `Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB RAM, ${machine.os}, Node ${machine.node}. ` +
      `Measured ${machine.date}. Postgres, NATS, the services and the load generator share this machine.`,
    '',
    '| path | requests/s | p50 (ms) | p99 (ms) | failed |',
    '|---|---:|---:|---:|---:|',
    ...['gateway', 'bare'].map(perf),
    '',
    `Gateway / bare throughput: **${(result.ratio * 100).toFixed(1)}%**.`,
    '',
    '| target | measured | result |',
    '|---|---:|---|',
    ...result.checks.map((c) => `| ${c.target} | ${c.measured} | ${c.pass ? 'pass' : '**FAIL**'} |`),
  ];
  if (noisy.length) {
    lines.push(
      '',
      `Warning: other work on the machine took more than 15% of its CPU during ${noisy.map(([k]) => SHORT[k]).join(', ')}; ` +
        'these numbers are lower than a quiet machine gives.',
    );
  }
  if (order.length > 2) {
    lines.push(
      '',
      '### Breakdown: each hop alone, same load',
      '',
      '| hop | requests/s | p50 (ms) | p99 (ms) | failed |',
      '|---|---:|---:|---:|---:|',
    );
    lines.push(...order.slice(2).map(perf));
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

module.exports = { id: 'providers', title: 'Providers: GET /api/core/providers/{id}', run, markdown, TARGETS };
