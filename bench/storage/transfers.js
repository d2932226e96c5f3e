'use strict';
/*
 * The byte path: a file uploaded through the gateway (multipart, POST .../items) to a LOCAL
 * provider and downloaded back (GET .../items/content), beside `cp` of the same file and beside a
 * bare Node process doing the same transfer in one hop (bench/servers/bare-bytes.js), all on the
 * same disk in the same run, with the CPU each process spends per GiB and the peak RSS of the
 * gateway and the storage service. Used by bench/storage/run.js (npm run bench:storage) and by
 * the performance scenario of npm run bench.
 */
const { execFile } = require('node:child_process');
const { createHash, randomFillSync } = require('node:crypto');
const { createReadStream, createWriteStream, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } = require('node:fs');
const { request } = require('node:http');
const { loadavg } = require('node:os');
const { join, relative } = require('node:path');
const { pipeline } = require('node:stream/promises');
const { promisify } = require('node:util');
const { startInfrastructure } = require('../lib/infra');
const { throwIfInterrupted } = require('../lib/interrupt');
const { machineInfo } = require('../lib/machine');
const { REPO_ROOT, createToken, startApp, startProcess } = require('../lib/processes');

const MiB = 1024 * 1024;
const PROVIDER_ID = '5f0c8d6e-2b7a-4e51-9c3d-8a1b2c3d4e5f';
const RSS_LIMIT_MB = 200;
const STREAMER_NODE_OPTIONS = '--max-semi-space-size=8';
/** Upload through the gateway against cp + fsync, download against cp. */
const THROUGHPUT_TARGET = 0.5;
const PROFILE_DIR = join(REPO_ROOT, 'bench/results/profiles');
const STEPS = ['cp', 'cpSync', 'bareUpload', 'upload', 'bareDownload', 'download'];

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

const exec = (cmd, args) => promisify(execFile)(cmd, args, { maxBuffer: 16 * MiB });

/** Peak resident set size of a process so far, in MB (VmHWM from /proc). */
function peakRssMb(pid) {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

const TICKS_PER_SECOND = 100;
/** CPU seconds a process has used so far: user, system and their sum. */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  const user = Number(fields[11]) / TICKS_PER_SECOND;
  const system = Number(fields[12]) / TICKS_PER_SECOND;
  return { user, system, total: user + system };
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

/** V8 CPU profiles of a service, written when it stops (--profile). */
function profileArgs(name) {
  mkdirSync(PROFILE_DIR, { recursive: true });
  return ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`, `--cpu-prof-name=storage-bench-${name}-${Date.now()}.cpuprofile`];
}

const mibps = (bytes, seconds) => bytes / MiB / seconds;
const fmt = (n, digits = 0) => n.toFixed(digits);
const best = (rounds, key) => rounds.reduce((a, b) => (b[key].seconds < a[key].seconds ? b : a))[key];

/** Times fn and the CPU (total and system) the named processes spend meanwhile. */
async function measured(fn, procs) {
  const before = Object.fromEntries(procs.map((p) => [p.name, cpuSeconds(p.pid)]));
  const t = await timed(fn);
  const after = Object.fromEntries(procs.map((p) => [p.name, cpuSeconds(p.pid)]));
  t.cpu = Object.fromEntries(procs.map((p) => [p.name, after[p.name].total - before[p.name].total]));
  t.system = Object.fromEntries(procs.map((p) => [p.name, after[p.name].system - before[p.name].system]));
  return t;
}

/**
 * Runs `runs` rounds of every step with a `sizeMiB` file in `dir` (removed at the end) and
 * resolves with the figures section() formats. Options: { sizeMiB, runs, dir, profile }.
 */
async function measureTransfers(opts, log) {
  const bytes = opts.sizeMiB * MiB;
  const work = opts.dir;
  const root = join(work, 'provider');
  const bareRoot = join(work, 'bare');
  const source = join(work, 'source.bin');
  const copy = join(work, 'copy.bin');
  const downloaded = join(work, 'downloaded.bin');
  const stored = join(root, 'bench', 'big.bin');
  const bareStored = join(bareRoot, 'big.bin');
  const cleanup = () => rmSync(work, { recursive: true, force: true });
  cleanup();
  mkdirSync(root, { recursive: true });
  mkdirSync(bareRoot, { recursive: true });
  const providersFile = join(work, 'providers.json');
  writeFileSync(providersFile, JSON.stringify({ providers: [{ id: PROVIDER_ID, name: 'Bench', type: 'LOCAL', root }] }));

  const infra = await startInfrastructure('storage');
  const started = [];
  try {
    log(`generating ${opts.sizeMiB} MiB in ${relative(REPO_ROOT, work) || work}`);
    await generate(source, opts.sizeMiB);
    await exec('sync', []);

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
    const nodeArgs = (name) => [STREAMER_NODE_OPTIONS, ...(opts.profile ? profileArgs(name) : [])];
    const storage = await startApp('storage-service', env, { nodeArgs: nodeArgs('storage-service') });
    started.push(storage);
    const gateway = await startApp('api-gateway', { ...env, STORAGE_SERVICE_URL: storage.url }, { nodeArgs: nodeArgs('api-gateway') });
    started.push(gateway);
    const bare = await startProcess('bare-bytes', join(REPO_ROOT, 'bench/servers/bare-bytes.js'), {
      env: { ROOT: bareRoot },
      nodeArgs: nodeArgs('bare-bytes'),
    });
    started.push(bare);
    const procs = [
      { name: 'gateway', label: 'api-gateway', pid: gateway.pid },
      { name: 'storage', label: 'storage-service', pid: storage.pid },
      { name: 'bare', label: 'bare server', pid: bare.pid },
    ];
    const rss = procs.slice(0, 2).map((p) => ({ name: p.label, start: peakRssMb(p.pid) }));
    const token = await createToken(env, 'bench', 'bench@docintel.local');
    const items = `${gateway.url}/api/core/providers/${PROVIDER_ID}/items`;
    const load = [loadavg()[0]];
    const settle = async (...paths) => {
      for (const p of paths) rmSync(p, { force: true });
      await exec('sync', []);
    };

    const rounds = [];
    for (let i = 1; i <= opts.runs; i++) {
      const step = async (what, fn) => {
        throwIfInterrupted();
        log(`round ${i} of ${opts.runs}: ${what}`);
        return measured(fn, procs);
      };
      await settle(copy);
      const cp = await step('cp', () => exec('cp', [source, copy]));
      await settle(copy);
      const cpSync = await step('cp + fsync', async () => {
        await exec('cp', [source, copy]);
        await exec('sync', [copy]);
      });
      await settle(copy, bareStored);
      const bareUpload = await step('upload to the bare server', () => uploadMultipart(`${bare.url}/upload`, token, source, 'big.bin'));
      if (bareUpload.result.size !== bytes) throw new Error(`the bare upload stored ${bareUpload.result.size} bytes, not ${bytes}`);
      await settle(stored);
      const upload = await step('upload through the gateway', () => uploadMultipart(`${items}?key=bench%2F`, token, source, 'big.bin'));
      if (upload.result.size !== bytes) throw new Error(`the upload stored ${upload.result.size} bytes, not ${bytes}`);
      await settle(downloaded);
      const bareDownload = await step('download from the bare server', () => downloadTo(`${bare.url}/download/big.bin`, token, downloaded));
      await settle(downloaded);
      const download = await step('download through the gateway', () =>
        downloadTo(`${items}/content?key=${encodeURIComponent('bench/big.bin')}`, token, downloaded),
      );
      const round = { cp, cpSync, bareUpload, upload, bareDownload, download };
      rounds.push(round);
      log(`round ${i}: ${STEPS.map((k) => `${k} ${fmt(mibps(bytes, round[k].seconds))}`).join(', ')} MiB/s`);
    }
    load.push(loadavg()[0]);
    procs.slice(0, 2).forEach((p, i) => (rss[i].end = peakRssMb(p.pid)));

    log('checking the bytes');
    const [a, b, c, d] = await Promise.all([sha256(source), sha256(stored), sha256(bareStored), sha256(downloaded)]);
    if (a !== b || a !== c || a !== d) throw new Error('a stored or downloaded file differs from the source');

    const r = {
      sizeMiB: opts.sizeMiB,
      bytes,
      runs: opts.runs,
      machine: machineInfo(),
      load,
      spread: Object.fromEntries(STEPS.map((k) => [k, rounds.map((round) => mibps(bytes, round[k].seconds))])),
      ...Object.fromEntries(STEPS.map((k) => [k, best(rounds, k)])),
      rss,
    };
    r.targets = {
      upload: r.upload.seconds <= r.cpSync.seconds / THROUGHPUT_TARGET,
      download: r.download.seconds <= r.cp.seconds / THROUGHPUT_TARGET,
      rss: rss.every((p) => Math.max(p.start, p.end) <= RSS_LIMIT_MB),
    };
    return r;
  } finally {
    await Promise.allSettled(started.map((p) => p.stop()));
    cleanup();
    await infra.teardown();
  }
}

function section(r) {
  const perGiB = (seconds) => fmt((seconds / r.bytes) * 1024 * MiB, 2);
  const cpu = (t, name) => (t.cpu && t.cpu[name] > 0.005 ? `${perGiB(t.cpu[name])} (${perGiB(t.system[name])})` : '');
  const pct = (t, base) => `${fmt((base.seconds / t.seconds) * 100)}%`;
  const row = (what, t, base, bare) =>
    `| ${what} | ${fmt(t.seconds, 2)} | ${fmt(mibps(r.bytes, t.seconds))} | ${base ? pct(t, base) : ''} | ${bare ? pct(t, bare) : ''} | ` +
    `${cpu(t, 'gateway')} | ${cpu(t, 'storage')} | ${cpu(t, 'bare')} |`;
  const verdict = (ok) => (ok ? 'met' : '**missed**');
  const labels = {
    cp: 'cp',
    cpSync: 'cp + fsync',
    bareUpload: 'bare upload',
    upload: 'upload',
    bareDownload: 'bare download',
    download: 'download',
  };
  return `## Storage: ${r.sizeMiB >= 1024 ? `${r.sizeMiB / 1024} GiB` : `${r.sizeMiB} MiB`} through the gateway

\`npm run bench:storage\` (bench/storage/run.js) on ${r.machine.cpu} (${r.machine.cores} cores, ${r.machine.memoryGiB} GiB),
${r.machine.os}, Node ${r.machine.node}, ${r.machine.date}; load average ${r.load.map((l) => fmt(l, 1)).join(' / ')} (1 min,
at start / end). One ${r.sizeMiB} MiB file of random bytes; every copy on the same disk, in the same run: \`cp\` of the
file; a multipart upload through the gateway (POST .../items) to a LOCAL provider and a download back through the
gateway (GET .../items/content) into a file; and the same upload and download against a bare Node process
(bench/servers/bare-bytes.js: one Fastify process with the same multipart parser, writing the file with an fsync and
streaming it back, with no auth, no grant and no second hop). Each step starts after \`sync\`, with the source in the
page cache; the best of ${r.runs} rounds is shown. The LOCAL driver fsyncs an upload before renaming it into place, so
\`cp + fsync\` is the like-for-like \`cp\` for uploads. Bytes are checked equal (SHA-256) after timing. CPU is user +
system seconds (system alone in brackets) spent per GiB by each process during that transfer. The services and the
bare server run with \`${STREAMER_NODE_OPTIONS}\`, as \`npm start\` starts them (see docs/storage.md, Performance).

| Transfer | Seconds | MiB/s | vs cp (uploads: vs cp + fsync) | vs bare Node | gateway CPU s/GiB | storage CPU s/GiB | bare server CPU s/GiB |
|---|---|---|---|---|---|---|---|
${row('cp (same disk)', r.cp, r.cp)}
${row('cp + fsync', r.cpSync, r.cp)}
${row('upload, bare Node (one process, multipart → file + fsync)', r.bareUpload, r.cpSync)}
${row('upload through the gateway (multipart → api-gateway → storage-service → file + fsync)', r.upload, r.cpSync, r.bareUpload)}
${row('download, bare Node (one process, file → HTTP)', r.bareDownload, r.cp)}
${row('download through the gateway (file → storage-service → api-gateway → HTTP)', r.download, r.cp, r.bareDownload)}

| Process | Peak RSS (VmHWM) after start | after all transfers |
|---|---|---|
${r.rss.map((p) => `| ${p.name} | ${fmt(p.start)} MB | ${fmt(p.end)} MB |`).join('\n')}

Every round, in MiB/s: ${STEPS.map((k) => `${labels[k]} ${r.spread[k].map((v) => fmt(v)).join(', ')}`).join('; ')}.

Targets: upload at least ${THROUGHPUT_TARGET * 100}% of cp + fsync — ${verdict(r.targets.upload)}; download at least
${THROUGHPUT_TARGET * 100}% of cp — ${verdict(r.targets.download)}; no process above ${RSS_LIMIT_MB} MB RSS — ${verdict(r.targets.rss)}. What bounds these figures:
[docs/storage.md, Performance](storage.md#performance).`;
}

module.exports = { measureTransfers, section, RSS_LIMIT_MB, THROUGHPUT_TARGET };
