#!/usr/bin/env node
/*
 * Storage throughput: a 1 GiB file uploaded through the gateway (multipart) and downloaded back
 * (content endpoint), beside a plain `cp` of the same file on the same disk in the same run, with
 * the peak RSS (VmHWM) of the gateway and the storage service.
 *
 *   npm run bench:storage                      1 GiB, writes docs/benchmarks.md (storage section)
 *   npm run bench:storage -- --size-mib 256 --no-write
 *
 * Targets: upload and download each at least 50% of cp's throughput; no process above 200 MB RSS.
 * Exit code: 0 targets met, 2 a target missed, 1 the run failed. The big files are removed at the end.
 */
'use strict';
const { execFile } = require('node:child_process');
const { createHash, randomFillSync } = require('node:crypto');
const { createReadStream, createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } = require('node:fs');
const { request } = require('node:http');
const { loadavg } = require('node:os');
const { join, relative } = require('node:path');
const { pipeline } = require('node:stream/promises');
const { parseArgs, promisify } = require('node:util');
const { startInfrastructure } = require('../lib/infra');
const { machineInfo } = require('../lib/machine');
const { REPO_ROOT, createToken, startApp, stopAll } = require('../lib/processes');

const MiB = 1024 * 1024;
const PROVIDER_ID = '5f0c8d6e-2b7a-4e51-9c3d-8a1b2c3d4e5f';
const DOC = join(REPO_ROOT, 'docs/benchmarks.md');
const BEGIN = '<!-- storage:start -->';
const END = '<!-- storage:end -->';
const PREAMBLE = `# Benchmarks

Each section is written by its own benchmark (see the command at its top) and rewritten only by
it; the machine, date and load are part of every result, so compare runs made on the same machine.
`;
const RSS_LIMIT_MB = 200;
const STREAMER_NODE_OPTIONS = '--max-semi-space-size=4';
const THROUGHPUT_TARGET = 0.5;

const log = (line) => process.stdout.write(`[bench:storage] ${line}\n`);

function options() {
  const { values } = parseArgs({
    options: {
      'size-mib': { type: 'string', default: process.env.BENCH_STORAGE_MIB ?? '1024' },
      runs: { type: 'string', default: process.env.BENCH_STORAGE_RUNS ?? '3' },
      dir: { type: 'string', default: process.env.BENCH_STORAGE_DIR ?? join(REPO_ROOT, 'data', 'bench-storage') },
      'no-write': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const sizeMiB = Number(values['size-mib']);
  if (!Number.isInteger(sizeMiB) || sizeMiB < 1) throw new Error(`--size-mib must be a whole number above 0 (got ${values['size-mib']})`);
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a whole number above 0 (got ${values.runs})`);
  return { sizeMiB, runs, dir: values.dir, write: !values['no-write'], help: values.help };
}

/** Writes `mib` MiB of incompressible bytes (one random MiB, varied per block so no two blocks match). */
async function generate(path, mib) {
  const block = randomFillSync(Buffer.alloc(MiB));
  const out = createWriteStream(path);
  for (let i = 0; i < mib; i++) {
    block.writeUInt32LE(i, 0);
    if (!out.write(Buffer.from(block))) await new Promise((r) => out.once('drain', r));
  }
  await new Promise((resolve, reject) => out.end((err) => (err ? reject(err) : resolve())));
}

async function sha256(path) {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path, { highWaterMark: MiB }), hash);
  return hash.digest('hex');
}

const run = (cmd, args) => promisify(execFile)(cmd, args, { maxBuffer: 16 * MiB });

/** Peak resident set size of a process so far, in MB (VmHWM from /proc). */
function peakRssMb(pid) {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

const TICKS_PER_SECOND = 100;
/** CPU seconds (user + system) a process has used so far. */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

async function timed(fn) {
  const started = process.hrtime.bigint();
  const result = await fn();
  return { seconds: Number(process.hrtime.bigint() - started) / 1e9, result };
}

/** A multipart upload of one file part, streamed from disk with a known Content-Length. */
function uploadMultipart(url, token, path, name) {
  const boundary = `----docintel-bench-${Date.now()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const length = head.length + statSync(path).size + tail.length;
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': length,
        },
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          if (res.statusCode !== 201) reject(new Error(`upload answered ${res.statusCode}: ${body}`));
          else resolve(JSON.parse(body));
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.write(head);
    const file = createReadStream(path, { highWaterMark: MiB });
    file.on('error', reject);
    file.on('end', () => req.end(tail));
    file.pipe(req, { end: false });
  });
}

/** GETs the content endpoint into a file. */
function downloadTo(url, token, path) {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { authorization: `Bearer ${token}` } }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        return reject(new Error(`download answered ${res.statusCode}`));
      }
      pipeline(res, createWriteStream(path)).then(() => resolve(Number(res.headers['content-length'])), reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const mibps = (bytes, seconds) => bytes / MiB / seconds;
const fmt = (n, digits = 0) => n.toFixed(digits);
const best = (runs, key) => runs.reduce((a, b) => (b[key].seconds < a[key].seconds ? b : a))[key];

function section(r) {
  const cpu = (t, name) => (t.cpu ? fmt((t.cpu[name] / r.bytes) * 1024 * MiB, 2) : '');
  const row = (what, t, vsCp) =>
    `| ${what} | ${fmt(t.seconds, 2)} | ${fmt(mibps(r.bytes, t.seconds))} | ${vsCp} | ${cpu(t, 'gateway')} | ${cpu(t, 'storage')} |`;
  const pct = (t) => `${fmt((r.cp.seconds / t.seconds) * 100)}%`;
  const verdict = (ok) => (ok ? 'met' : '**missed**');
  return `## Storage: 1 GiB through the gateway

\`npm run bench:storage\` (bench/storage/run.js) on ${r.machine.cpu} (${r.machine.cores} cores, ${r.machine.memoryGiB} GiB),
${r.machine.os}, Node ${r.machine.node}, ${r.machine.date}; load average ${r.load.map((l) => fmt(l, 1)).join(' / ')} (1 min,
at start / end). One ${r.sizeMiB} MiB file of random bytes; every copy on the same disk, in the same run: \`cp\` of the
file, a multipart upload through the gateway (POST .../items) to a LOCAL provider, and a download back through the
gateway (GET .../items/content) into a file. Each step starts after \`sync\`, with the source in the page cache; the
best of ${r.runs} rounds is shown. The LOCAL driver fsyncs an upload before renaming it into place, so \`cp + fsync\` is
the like-for-like baseline for uploads. Bytes are checked equal (SHA-256) after timing. CPU is user + system seconds
spent per GiB by each process during that transfer. Both services run with \`${STREAMER_NODE_OPTIONS}\`, as \`npm start\`
starts them (see docs/storage.md, Performance).

| Transfer | Seconds | MiB/s | vs cp | gateway CPU s/GiB | storage CPU s/GiB |
|---|---|---|---|---|---|
${row('cp (same disk)', r.cp, '100%')}
${row('cp + fsync', r.cpSync, pct(r.cpSync))}
${row('upload through the gateway (multipart)', r.upload, pct(r.upload))}
${row('download through the gateway (content)', r.download, pct(r.download))}

| Process | Peak RSS (VmHWM) after start | after all transfers |
|---|---|---|
${r.rss.map((p) => `| ${p.name} | ${fmt(p.start)} MB | ${fmt(p.end)} MB |`).join('\n')}

Every round, in MiB/s: ${Object.entries({ cp: 'cp', cpSync: 'cp + fsync', upload: 'upload', download: 'download' })
    .map(([k, label]) => `${label} ${r.spread[k].map((v) => fmt(v)).join(', ')}`)
    .join('; ')}.

Targets: upload and download at least ${THROUGHPUT_TARGET * 100}% of cp — upload ${verdict(r.targets.upload)}, download
${verdict(r.targets.download)}; no process above ${RSS_LIMIT_MB} MB RSS — ${verdict(r.targets.rss)}. What bounds these figures:
[docs/storage.md, Performance](storage.md#performance).`;
}

function writeSection(body) {
  const doc = existsSync(DOC) ? readFileSync(DOC, 'utf8') : PREAMBLE;
  const block = `${BEGIN}\n${body.trim()}\n${END}`;
  const from = doc.indexOf(BEGIN);
  const to = doc.indexOf(END);
  if ((from === -1) !== (to === -1) || to < from) throw new Error(`the storage markers in ${DOC} are unbalanced; fix them by hand`);
  const next = from === -1 ? `${doc.trimEnd()}\n\n${block}\n` : doc.slice(0, from) + block + doc.slice(to + END.length);
  writeFileSync(DOC, next);
}

/** Times fn and the CPU the named processes spend meanwhile. */
async function measured(fn, procs) {
  const before = Object.fromEntries(procs.map((p) => [p.name, cpuSeconds(p.pid)]));
  const t = await timed(fn);
  t.cpu = Object.fromEntries(procs.map((p) => [p.name, cpuSeconds(p.pid) - before[p.name]]));
  return t;
}

async function main() {
  const opts = options();
  if (opts.help) {
    process.stdout.write(
      readFileSync(__filename, 'utf8')
        .split('\n')
        .slice(1, 13)
        .join('\n')
        .replace(/^ \*? ?/gm, '') + '\n',
    );
    return 0;
  }
  const bytes = opts.sizeMiB * MiB;
  const work = opts.dir;
  const root = join(work, 'provider');
  const source = join(work, 'source.bin');
  const copy = join(work, 'copy.bin');
  const downloaded = join(work, 'downloaded.bin');
  const stored = join(root, 'bench', 'big.bin');
  const cleanup = () => rmSync(work, { recursive: true, force: true });
  process.once('SIGINT', () => {
    cleanup();
    process.exit(130);
  });
  cleanup();
  mkdirSync(root, { recursive: true });
  const providersFile = join(work, 'providers.json');
  writeFileSync(providersFile, JSON.stringify({ providers: [{ id: PROVIDER_ID, name: 'Bench', type: 'LOCAL', root }] }));

  const infra = await startInfrastructure('storage');
  try {
    log(`generating ${opts.sizeMiB} MiB in ${relative(REPO_ROOT, work) || work}`);
    await generate(source, opts.sizeMiB);
    await run('sync', []);

    const env = {
      DATABASE_URL: infra.databaseUrl,
      NATS_URL: infra.natsUrl,
      NATS_PREFIX: infra.natsPrefix,
      LOG_LEVEL: 'warn',
      PROVIDERS_FILE: providersFile,
      MAX_UPLOAD_BYTES: String(bytes + MiB),
      STORAGE_SIGNING_SECRET: 'bench-signing-secret-0123456789abcdef012345',
    };
    // As npm start runs them (scripts/start.js): a small young generation for the byte streamers.
    const nodeArgs = [STREAMER_NODE_OPTIONS];
    const storage = await startApp('storage-service', env, { nodeArgs });
    const gateway = await startApp('api-gateway', { ...env, STORAGE_SERVICE_URL: storage.url }, { nodeArgs });
    const procs = [
      { name: 'gateway', label: 'api-gateway', pid: gateway.pid },
      { name: 'storage', label: 'storage-service', pid: storage.pid },
    ];
    const rss = procs.map((p) => ({ name: p.label, start: peakRssMb(p.pid) }));
    const token = await createToken(env, 'bench', 'bench@docintel.local');
    const items = `${gateway.url}/api/core/providers/${PROVIDER_ID}/items`;
    const load = [loadavg()[0]];

    const rounds = [];
    for (let i = 1; i <= opts.runs; i++) {
      log(`round ${i} of ${opts.runs}: cp`);
      const cp = await timed(() => run('cp', [source, copy]));
      rmSync(copy);
      await run('sync', []);
      log(`round ${i} of ${opts.runs}: cp + fsync`);
      const cpSync = await timed(async () => {
        await run('cp', [source, copy]);
        await run('sync', [copy]);
      });
      rmSync(copy);
      rmSync(stored, { force: true });
      await run('sync', []);

      log(`round ${i} of ${opts.runs}: upload through the gateway`);
      const upload = await measured(() => uploadMultipart(`${items}?key=bench%2F`, token, source, 'big.bin'), procs);
      if (upload.result.size !== bytes) throw new Error(`the upload stored ${upload.result.size} bytes, not ${bytes}`);
      rmSync(downloaded, { force: true });
      await run('sync', []);

      log(`round ${i} of ${opts.runs}: download through the gateway`);
      const download = await measured(
        () => downloadTo(`${items}/content?key=${encodeURIComponent('bench/big.bin')}`, token, downloaded),
        procs,
      );
      rounds.push({ cp, cpSync, upload, download });
      const cpuOf = (t) =>
        Object.entries(t.cpu)
          .map(([name, sec]) => `${name} ${fmt(sec, 2)} s`)
          .join(', ');
      log(
        `round ${i}: cp ${fmt(mibps(bytes, cp.seconds))}, cp+fsync ${fmt(mibps(bytes, cpSync.seconds))}, ` +
          `upload ${fmt(mibps(bytes, upload.seconds))} (CPU ${cpuOf(upload)}), download ${fmt(mibps(bytes, download.seconds))} MiB/s (CPU ${cpuOf(download)})`,
      );
    }
    load.push(loadavg()[0]);
    procs.forEach((p, i) => (rss[i].end = peakRssMb(p.pid)));

    log('checking the bytes');
    const [a, b, c] = await Promise.all([sha256(source), sha256(stored), sha256(downloaded)]);
    if (a !== b || a !== c) throw new Error('the stored or downloaded file differs from the source');

    const r = {
      sizeMiB: opts.sizeMiB,
      bytes,
      runs: opts.runs,
      machine: machineInfo(),
      load,
      spread: Object.fromEntries(
        ['cp', 'cpSync', 'upload', 'download'].map((k) => [k, rounds.map((round) => mibps(bytes, round[k].seconds))]),
      ),
      cp: best(rounds, 'cp'),
      cpSync: best(rounds, 'cpSync'),
      upload: best(rounds, 'upload'),
      download: best(rounds, 'download'),
      rss,
    };
    r.targets = {
      upload: r.upload.seconds <= r.cp.seconds / THROUGHPUT_TARGET,
      download: r.download.seconds <= r.cp.seconds / THROUGHPUT_TARGET,
      rss: rss.every((p) => Math.max(p.start, p.end) <= RSS_LIMIT_MB),
    };
    const body = section(r);
    process.stdout.write(`\n${body}\n\n`);
    if (opts.write) {
      writeSection(body);
      log(`wrote the storage section of ${relative(REPO_ROOT, DOC)}`);
    }
    return Object.values(r.targets).every(Boolean) ? 0 : 2;
  } finally {
    await stopAll();
    cleanup();
    await infra.teardown();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`[bench:storage] failed: ${err.stack || err.message}\n`);
    stopAll().finally(() => process.exit(1));
  },
);
