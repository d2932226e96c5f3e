'use strict';
/*
 * Where indexing-service's memory goes for a batch of large PDFs, and its peak.
 *
 *   node bench/hardening/indexing-memory.js            parse side, in this process (about a minute)
 *   node bench/hardening/indexing-memory.js --stack    the whole stack: the batch indexed through
 *                                                      the API, indexing-service's RSS sampled
 *   node bench/hardening/indexing-memory.js --embed    node_embedding side, in this process: the
 *                                                      batch's node texts through the configured
 *                                                      embedder (EMBEDDINGS_*), 500 nodes a batch and
 *                                                      64 texts a call (over 10 minutes on 2 busy cores)
 *
 * Both need a build (`npx tsc -b tsconfig.build.json`). The first runs indexing-service's own parser
 * threads (apps/indexing-service/dist/parsing/parsers.js) with its configuration (PARSE_* and the
 * other variables of the environment, defaults otherwise) on the batch at once, as its corpus_parsing
 * consumers take it, then turns each tree into the node records written to the database; it prints
 * the process's RSS after each stage and its peak, sampled every 50 ms. The second starts the stack
 * as the hardening run does and prints indexing-service's peak RSS until every file of the batch is
 * settled, and the seconds a small text file asked for right after the batch took to end (SUCCESS:
 * `smallFile`), which the large files' lanes keep short. Files: the arguments that are not options (paths under /work/shared/corpus or absolute),
 * the hardening batch otherwise. Prints one JSON object; exits 1 when the peak is 1 GiB or more.
 */
const { readFileSync } = require('node:fs');
const { isAbsolute, join } = require('node:path');
const { REPO_ROOT } = require('../lib/processes');

const CORPUS = join(REPO_ROOT, '..', 'shared', 'corpus');
const BATCH = [
  'pdf/unstructured_pdf2image-memory-error-test-400p.pdf',
  'pdf/pdfjs_freeculture.pdf',
  'pdf/pypdf-samples_GeoTopo-komprimiert.pdf',
  'pdf/papermage_papermage.pdf',
];
const LIMIT_MIB = 1024;
/** The small file of --stack, asked for right after the batch. */
const SMALL_FILE = {
  key: 'memory/small-note.txt',
  text: 'Delivery note 4711.\n\nThe parcel of twelve widgets left the warehouse on 3 March and is expected on 5 March.\n',
};
const mib = (bytes) => Math.round(bytes / 1048576);

/** Peak of `read()` (bytes), sampled every `everyMs` until stopped. */
function peakSampler(read, everyMs) {
  let peak = 0;
  const sample = () => {
    peak = Math.max(peak, read());
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    peak: () => (sample(), peak),
    stop: () => clearInterval(timer),
  };
}

async function parseSide(files) {
  const { Parsers, parserThreads } = require(join(REPO_ROOT, 'apps/indexing-service/dist/parsing/parsers'));
  const { IndexingEnv } = require(join(REPO_ROOT, 'apps/indexing-service/dist/indexing.env'));
  const { toNodeRecords } = require(join(REPO_ROOT, 'apps/indexing-service/dist/pipeline/tree-records'));
  const env = new IndexingEnv();
  for (const key of Object.keys(env))
    if (process.env[key] !== undefined && typeof env[key] === 'number') env[key] = Number(process.env[key]);
  const metrics = { indexing: { parseDuration: { observe: () => undefined } } };
  const parsers = new Parsers(env, metrics);
  const rss = peakSampler(() => process.memoryUsage().rss, 50);
  const stages = [{ stage: 'start', rssMib: mib(process.memoryUsage().rss) }];
  // As many at once as the service's corpus_parsing consumers take.
  const consumers = parserThreads(env) + 1;
  const queue = files.map((f) => ({ path: f, size: readFileSync(f).length }));
  const perFile = [];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const t0 = Date.now();
      let doc = await parsers.parse({ source: { path: next.path }, fileName: next.path.split('/').pop() }, next.size);
      const parsedRss = mib(process.memoryUsage().rss);
      const records = toNodeRecords(doc.root, '00000000-0000-4000-8000-000000000000');
      doc = null;
      perFile.push({
        file: next.path.split('/').pop(),
        bytes: next.size,
        nodes: records.length,
        parseMs: Date.now() - t0,
        rssAfterParseMib: parsedRss,
        rssWithRecordsMib: mib(process.memoryUsage().rss),
      });
    }
  };
  await Promise.all(Array.from({ length: consumers }, worker));
  stages.push({ stage: 'batch parsed', rssMib: mib(process.memoryUsage().rss) });
  await parsers.close();
  stages.push({ stage: 'parsers closed', rssMib: mib(process.memoryUsage().rss) });
  const peakRssMib = mib(rss.peak());
  rss.stop();
  return {
    mode: 'parse side',
    consumers,
    largeFileBytes: env.PARSE_LARGE_FILE_BYTES,
    threads: parserThreads(env),
    peakRssMib,
    stages,
    perFile,
  };
}

/** The texts node_embedding embeds for a parsed tree by default (see embeddings/embedding-texts.ts). */
function embeddingTexts(root, types, maxChars) {
  const out = [];
  const under = (node, sep) => {
    const parts = [];
    const walk = (n) => {
      if (n.text && n.text.trim()) parts.push(n.text.trim());
      for (const c of n.children ?? []) walk(c);
    };
    for (const c of node.children ?? []) walk(c);
    return parts.join(sep);
  };
  const stack = [root];
  while (stack.length) {
    const n = stack.pop();
    if (types.has(n.type)) {
      const text = (n.text && n.text.trim() ? n.text : under(n, n.type === 'row' ? ' | ' : ' ')).slice(0, maxChars);
      if (text.trim()) out.push(text);
    }
    for (let i = (n.children ?? []).length - 1; i >= 0; i--) stack.push(n.children[i]);
  }
  return out;
}

async function embedSide(files) {
  require('reflect-metadata');
  const { loadConfig } = require(join(REPO_ROOT, 'libs/config/dist'));
  const { EmbeddingsEnv, createEmbedder } = require(join(REPO_ROOT, 'libs/ai/dist'));
  const { Parsers } = require(join(REPO_ROOT, 'apps/indexing-service/dist/parsing/parsers'));
  const { IndexingEnv } = require(join(REPO_ROOT, 'apps/indexing-service/dist/indexing.env'));
  const { DEFAULT_EMBEDDED_TYPES } = require(join(REPO_ROOT, 'apps/indexing-service/dist/embeddings/embedding-texts'));
  const env = loadConfig(EmbeddingsEnv);
  const indexing = new IndexingEnv();
  const parsers = new Parsers(indexing, { indexing: { parseDuration: { observe: () => undefined } } });
  const texts = [];
  for (const path of files) {
    const doc = await parsers.parse({ source: { path }, fileName: path.split('/').pop() }, readFileSync(path).length);
    texts.push(...embeddingTexts(doc.root, new Set(DEFAULT_EMBEDDED_TYPES), env.EMBEDDINGS_MAX_CHARS));
  }
  await parsers.close();
  const embedder = createEmbedder(env);
  const startRssMib = mib(process.memoryUsage().rss);
  const rss = peakSampler(() => process.memoryUsage().rss, 50);
  const t0 = Date.now();
  // As node_embedding does: a batch's vectors are kept until it is stored, 64 texts per embed() call.
  for (let b = 0; b < texts.length; b += indexing.NODE_BATCH_SIZE) {
    const rows = [];
    const batch = texts.slice(b, b + indexing.NODE_BATCH_SIZE);
    for (let i = 0; i < batch.length; i += 64) rows.push(...(await embedder.embed(batch.slice(i, i + 64))));
  }
  const peakRssMib = mib(rss.peak());
  rss.stop();
  const workers = embedder.workerStats;
  await embedder.close();
  return {
    mode: 'node_embedding side',
    model: embedder.model,
    texts: texts.length,
    chars: texts.reduce((n, t) => n + t.length, 0),
    embedMs: Date.now() - t0,
    startRssMib,
    peakRssMib,
    ...(workers && { workersStarted: workers.started, lastWorkerWasmMib: mib(workers.wasmBytes) }),
    rssAfterCloseMib: mib(process.memoryUsage().rss),
  };
}

/**
 * Which indexing steps hold messages (JetStream consumers with acks pending) when indexing-service's
 * RSS is highest: sampled every second, the five samples of highest RSS kept.
 */
async function stepSampler(natsUrl, prefix, readRssMib) {
  const { connect } = require('nats');
  const nc = await connect({ servers: natsUrl.split(','), timeout: 5000 });
  const jsm = await nc.jetstreamManager();
  const samples = [];
  const t0 = Date.now();
  let running = true;
  const loop = (async () => {
    while (running) {
      const busy = {};
      for await (const s of jsm.streams.list()) {
        if (!s.config.name.startsWith(`${prefix}_`)) continue;
        for await (const c of jsm.consumers.list(s.config.name)) {
          if (c.num_ack_pending > 0) busy[c.name] = c.num_ack_pending;
        }
      }
      samples.push({ second: Math.round((Date.now() - t0) / 1000), rssMib: readRssMib(), busy });
      await new Promise((r) => setTimeout(r, 1000));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop.catch(() => undefined);
      await nc.close();
      return [...samples].sort((a, b) => b.rssMib - a.rssMib).slice(0, 5);
    },
  };
}

async function wholeStack(files) {
  const { startHardeningStack } = require('./stack');
  const { call, must, upload, poll } = require('./runner');
  const stack = await startHardeningStack({ namespaces: ['acme'] });
  try {
    const { url } = stack;
    const token = await stack.token('acme', 'memory@acme.test');
    const providers = await must(200, url, 'GET', '/api/core/providers', { token });
    const providerId = providers.data.find((p) => p.name === 'Local storage').id.id;
    const rssKib = () => {
      try {
        const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${stack.pid('indexing-service')}/status`, 'utf8'));
        return m ? Number(m[1]) * 1024 : 0;
      } catch {
        return 0;
      }
    };
    const rss = peakSampler(rssKib, 250);
    const startRssMib = mib(rssKib());
    const steps = await stepSampler(stack.env.NATS_URL, stack.env.NATS_PREFIX, () => mib(rssKib()));
    const put = async (key, bytes) => {
      const res = await upload(url, token, providerId, key, bytes);
      if (res.status !== 201) throw new Error(`upload of ${key}: ${res.status} ${res.text.slice(0, 200)}`);
    };
    const index = async (key) => (await must(201, url, 'POST', '/api/core/files', { token, body: { providerId, key } })).id.id;
    // A small file asked for right after the batch: how long a user waits for it while large files index.
    await put(SMALL_FILE.key, Buffer.from(SMALL_FILE.text));
    const ids = [];
    for (const path of files) {
      const key = `memory/${path.split('/').pop()}`;
      await put(key, readFileSync(path));
      ids.push(await index(key));
    }
    const t0 = Date.now();
    const smallId = await index(SMALL_FILE.key);
    const statuses = [];
    // A status read that fails (a 504 while the service is busy) is counted and read again.
    let failedReads = 0;
    const status = async (id) => {
      const res = await call(url, 'GET', `/api/core/files/${id}`, { token, timeoutMs: 15_000 }).catch(() => null);
      if (res?.status === 200) {
        const { status: s, errorMessage } = res.json.lastIndexationInfos;
        return s === 'SUCCESS' || !errorMessage ? s : `${s}: ${errorMessage}`;
      }
      failedReads++;
      return null;
    };
    const settled = (s) => ['SUCCESS', 'FAILED', 'ABORTED'].includes(String(s).split(':')[0]);
    const small = await poll(() => status(smallId), settled, 10 * 60_000, 250);
    const smallFile = { status: small.value, secondsToEnd: Math.round((Date.now() - t0) / 100) / 10 };
    for (const id of ids) {
      const end = await poll(() => status(id), settled, 30 * 60_000, 1000);
      statuses.push(end.value);
    }
    const peakRssMib = mib(rss.peak());
    rss.stop();
    const busiest = await steps.stop();
    return {
      mode: 'whole stack',
      startRssMib,
      peakRssMib,
      batchMs: Date.now() - t0,
      statuses,
      smallFile,
      failedStatusReads: failedReads,
      peakRssOfEveryService: stack.peakRssMib(),
      stepsAtHighestRss: busiest,
    };
  } finally {
    await stack.stop();
  }
}

async function main() {
  const args = process.argv.slice(2);
  const named = args.filter((a) => !a.startsWith('--'));
  const files = (named.length ? named : BATCH).map((f) => (isAbsolute(f) ? f : join(CORPUS, f)));
  const mode = args.includes('--stack') ? wholeStack : args.includes('--embed') ? embedSide : parseSide;
  const result = await mode(files);
  console.log(JSON.stringify({ ...result, limitMib: LIMIT_MIB, withinLimit: result.peakRssMib < LIMIT_MIB }, null, 2));
  process.exitCode = result.peakRssMib < LIMIT_MIB ? 0 : 1;
}

if (require.main === module) {
  main().catch((err) => {
    console.error(err);
    process.exit(2);
  });
}

module.exports = { parseSide, embedSide, wholeStack, BATCH };
