'use strict';
/*
 * The request path and the byte path side by side, in one run: the providers scenario (GET
 * /providers/{id} and a page of GET /files, each beside a bare Fastify + pg process) and then the
 * storage transfers (1 GiB up and down through the gateway, beside cp and a bare Node process).
 * Writes the summary table into its own section, and the detailed sections of both parts (the
 * same ones `npm run bench -- providers` and `npm run bench:storage` write) from the same run.
 *
 *   npm run bench -- performance [--duration 10 --connections 50 ...]
 *   BENCH_STORAGE_MIB=256 BENCH_STORAGE_RUNS=1 npm run bench -- performance --no-write
 */
const { join } = require('node:path');
const { machineInfo } = require('../lib/machine');
const { writeSection } = require('../lib/markdown-section');
const { REPO_ROOT } = require('../lib/processes');
const providers = require('./providers');
const transfers = require('../storage/transfers');

const DOC = join(REPO_ROOT, 'docs/benchmarks.md');
const TITLE = 'Performance: the request path and the byte path, side by side';

function positiveInteger(name, value) {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a whole number above 0 (got "${value}")`);
  return n;
}

async function run(opts, log) {
  const requests = await providers.run(opts, log);
  const requestMachine = machineInfo();
  const bytes = await transfers.measureTransfers(
    {
      sizeMiB: positiveInteger('BENCH_STORAGE_MIB', process.env.BENCH_STORAGE_MIB ?? '1024'),
      runs: positiveInteger('BENCH_STORAGE_RUNS', process.env.BENCH_STORAGE_RUNS ?? '3'),
      dir: process.env.BENCH_STORAGE_DIR ?? join(REPO_ROOT, 'data', 'bench-storage'),
      profile: opts.profile,
    },
    (line) => log(`storage: ${line}`),
  );
  if (opts.write) {
    writeSection(DOC, providers.id, providers.markdown(requests, opts, requestMachine));
    writeSection(DOC, 'storage', transfers.section(bytes));
    log('updated the providers and storage sections of docs/benchmarks.md from this run');
  }
  const checks = summaryRows(requests, bytes, opts);
  return { requests, bytes, checks, pass: checks.every((c) => c.pass) };
}

const pct = (x) => `${(x * 100).toFixed(1)}%`;
const mibps = (r, t) => r.bytes / (1024 * 1024) / t.seconds;

function summaryRows(requests, bytes, opts) {
  const { rows } = requests;
  const { TARGETS } = providers;
  const upVsCpSync = bytes.cpSync.seconds / bytes.upload.seconds;
  const downVsCp = bytes.cp.seconds / bytes.download.seconds;
  const peak = Math.max(...bytes.rss.map((p) => Math.max(p.start, p.end)));
  return [
    {
      path: 'GET /providers/{id}: gateway → NATS → storage-service vs one bare Fastify+pg process, ' + `${opts.connections} connections`,
      measured: `${pct(requests.ratio)} of bare throughput (${Math.round(rows.gateway.rps)} vs ${Math.round(rows.bare.rps)} requests/s), p99 ${rows.gateway.p99} ms`,
      goal: `at least ${TARGETS.minThroughputRatio * 100}%, p99 under ${TARGETS.maxGatewayP99Ms} ms`,
      pass: requests.ratio >= TARGETS.minThroughputRatio && rows.gateway.p99 < TARGETS.maxGatewayP99Ms,
    },
    {
      path: `GET /files, a page of ${requests.list.pageSize} (${(requests.list.bodyBytes / 1024).toFixed(0)} KiB): gateway → NATS → indexing-service vs a bare query of the same rows`,
      measured: `${pct(requests.listRatio)} of bare throughput (${Math.round(rows.listGateway.rps)} vs ${Math.round(rows.listBare.rps)} requests/s), p99 ${rows.listGateway.p99} ms`,
      goal: `at least ${TARGETS.minListThroughputRatio * 100}%`,
      pass: requests.listRatio >= TARGETS.minListThroughputRatio,
    },
    {
      path: `GET /files, page ${requests.deep.page + 1} of ${requests.deep.files.toLocaleString('en-US')} files (seeded in SQL): gateway vs bare, one request at a time, then ${opts.connections} connections`,
      measured:
        `p95 ${rows.deepGateway.p95.toFixed(1)} ms (p50 ${rows.deepGateway.p50.toFixed(1)}; bare p95 ${rows.deepBare.p95.toFixed(1)} ms); ` +
        `${pct(requests.deepRatio)} of bare throughput (${Math.round(rows.deepGatewayLoad.rps)} vs ${Math.round(rows.deepBareLoad.rps)} requests/s)`,
      goal: `p95 under ${TARGETS.maxDeepPageP95Ms} ms, at least ${TARGETS.minDeepThroughputRatio * 100}%`,
      pass: rows.deepGateway.p95 < TARGETS.maxDeepPageP95Ms && requests.deepRatio >= TARGETS.minDeepThroughputRatio,
    },
    {
      path: `${bytes.sizeMiB} MiB upload through the gateway vs cp + fsync`,
      measured: `${pct(upVsCpSync)} (${mibps(bytes, bytes.upload).toFixed(0)} MiB/s); bare Node: ${pct(bytes.cpSync.seconds / bytes.bareUpload.seconds)} (${mibps(bytes, bytes.bareUpload).toFixed(0)} MiB/s)`,
      goal: `at least ${transfers.THROUGHPUT_TARGET * 100}%`,
      pass: bytes.targets.upload,
    },
    {
      path: `${bytes.sizeMiB} MiB download through the gateway vs cp`,
      measured: `${pct(downVsCp)} (${mibps(bytes, bytes.download).toFixed(0)} MiB/s); bare Node: ${pct(bytes.cp.seconds / bytes.bareDownload.seconds)} (${mibps(bytes, bytes.bareDownload).toFixed(0)} MiB/s)`,
      goal: `at least ${transfers.THROUGHPUT_TARGET * 100}%`,
      pass: bytes.targets.download,
    },
    {
      path: 'peak RSS of api-gateway and storage-service during the byte benchmark',
      measured: bytes.rss.map((p) => `${p.name} ${Math.round(Math.max(p.start, p.end))} MB`).join(', '),
      goal: `under ${transfers.RSS_LIMIT_MB} MB`,
      pass: peak <= transfers.RSS_LIMIT_MB,
    },
  ];
}

function markdown(result, opts, machine) {
  return [
    `## ${TITLE}`,
    '',
    `Command: \`npm run bench -- performance\` on ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB RAM, ` +
      `${machine.os}, Node ${machine.node}; ${machine.date}. One run measures both paths: the request rows come from ` +
      `[the providers section](#providers-get-apicoreprovidersid-and-get-apicorefiles) and the byte rows from ` +
      `[the storage section](#storage-1-gib-through-the-gateway), both rewritten by the same run with every detail. ` +
      `Why a goal is missed, with profiles: [Providers: where the time goes](#providers-where-the-time-goes) and ` +
      `[docs/storage.md, Performance](storage.md#performance).`,
    '',
    '| path | measured | goal | result |',
    '|---|---|---|---|',
    ...result.checks.map((c) => `| ${c.path} | ${c.measured} | ${c.goal} | ${c.pass ? 'met' : '**missed**'} |`),
  ].join('\n');
}

module.exports = { id: 'performance', title: TITLE, run, markdown, onlyWhenNamed: true };
