'use strict';
/*
 * Scale (`npm run bench -- scale [--sizes 10k,100k,1M] [--keep]`): one namespace per size, filled
 * with real text (SciFact abstracts, SQuAD paragraphs, then their sentences recombined at real
 * passage lengths) through the product's own write paths, PostgresBm25Retriever.index per file and
 * NodeVectorStore.upsert, in a database of its own per size; then search latency of the lexical
 * leg, the vector leg and HybridPassageSearch at 1 and 8 concurrent queries, ingestion rate, disk
 * per passage and the bench's peak RSS, each beside what a user would pick instead on the same
 * passages and queries: PostgreSQL full-text search (tsvector + GIN, ts_rank) and pgvector alone.
 * Once per run, nDCG@10 on SciFact of the lexical leg beside the full-text baseline.
 *
 * Vectors are random unit vectors of the built-in model's dimensions: latency depends on their
 * number and length, not their values, and embedding a million passages with USE-lite would take
 * days on two cores. Query embedding time is therefore not part of the hybrid numbers.
 */
const { join } = require('node:path');
const { loadavg } = require('node:os');
const { performance } = require('node:perf_hooks');
const { Client } = require('pg');
const { REPO_ROOT } = require('../lib/processes');
const { startInfrastructure, PG_ADMIN_URL } = require('../lib/infra');
const { isInterrupted, throwIfInterrupted } = require('../lib/interrupt');
const { evaluate } = require('../retrieval/metrics');
const { passageSource, corpusFiles, unitVector, seedOf, uuidOf } = require('./text');
const { summarize, ratio, formatSize } = require('./stats');
const { loadSources } = require('./sources');

/** Changing the generator or the seed changes the passages: a kept database of another version is rebuilt. */
const SEED = 'docintel-scale-1';
const GENERATOR = 3;
const QUERIES = Number(process.env.BENCH_SCALE_QUERIES ?? 300);
const WARMUP = 20;
/** Each latency measurement stops issuing queries after this long (the vector scan at 1M takes seconds per query). */
const BUDGET_MS = Number(process.env.BENCH_SCALE_SECONDS ?? 60) * 1000;
const DEPTH = 100;
const VECTOR_MODEL = 'bench-scale-random-unit';
/** Files are written in batches of about this many passages, one transaction per write path (PostgresBm25Retriever.indexFiles, NodeVectorStore.upsert). */
const BATCH_PASSAGES = Number(process.env.BENCH_SCALE_BATCH ?? 2000);
/** maintenance_work_mem of the HNSW builds: pgvector builds fastest when the graph fits (about 3 GB at 1M vectors of 512 dimensions). */
/**
 * The vector storage the product is configured with (VECTOR_STORAGE): auto (pgvector where
 * installed) or bytea, to measure a deployment without pgvector on a machine that has it.
 */
const VECTOR_STORAGE = process.env.BENCH_SCALE_VECTOR_STORAGE ?? 'auto';
const MAINTENANCE_WORK_MEM = process.env.BENCH_SCALE_MAINTENANCE_WORK_MEM ?? '4GB';

function loadLibs() {
  require(join(REPO_ROOT, 'node_modules/reflect-metadata'));
  const lib = (name) => require(join(REPO_ROOT, 'libs', name, 'dist'));
  const retrieval = lib('retrieval');
  const ai = lib('ai');
  const persistence = lib('persistence');
  // The two libraries' own migrations, as bench/retrieval runs them: indexing-service adds a foreign
  // key from retrieval_docs to its files table, whose rows this bench does not write.
  const isMigration = (m) => typeof m === 'function' && /\d{13}$/.test(m.name) && typeof m.prototype?.up === 'function';
  // Every migration class a library exports, alone or in a list (retrievalMigrations), so a migration added there is run here too.
  const exported = (mod) =>
    Object.values(mod).flatMap((v) => (isMigration(v) ? [v] : Array.isArray(v) && v.length && v.every(isMigration) ? v : []));
  const migrations = [...new Set([...exported(retrieval), ...exported(ai)])];
  return { retrieval, ai, persistence, migrations, dims: ai.BuiltinEmbedder.DIMENSIONS };
}

async function withAdmin(fn) {
  const client = new Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

function databaseUrl(database) {
  const u = new URL(PG_ADMIN_URL);
  u.pathname = `/${database}`;
  return u.toString();
}

/**
 * The database of one size: a scratch one dropped afterwards, or with --keep a named one that stays
 * and is reused while it holds the same passages loaded under the same migrations.
 */
async function openDatabase(size, keep, fingerprint, log) {
  if (!keep) {
    const infra = await startInfrastructure(`scale${formatSize(size)}${VECTOR_STORAGE === 'auto' ? '' : VECTOR_STORAGE}`);
    return { url: infra.databaseUrl, database: infra.database, kept: false, state: null, close: () => infra.teardown() };
  }
  const database = `docintel_bench_scale_${formatSize(size).toLowerCase()}${VECTOR_STORAGE === 'auto' ? '' : `_${VECTOR_STORAGE}`}`;
  const exists = await withAdmin(async (c) => (await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [database])).rowCount > 0);
  let state = null;
  if (exists) {
    const client = new Client({ connectionString: databaseUrl(database) });
    await client.connect();
    try {
      const rows = await client.query(`SELECT value FROM indexing.scale_bench_state WHERE key = 'load'`).catch(() => ({ rows: [] }));
      state = rows.rows[0]?.value ?? null;
    } finally {
      await client.end();
    }
    if (state?.fingerprint !== fingerprint) {
      log(`${database}: ${state ? 'built by another version or schema' : 'incomplete'}; rebuilding`);
      await withAdmin((c) => c.query(`DROP DATABASE "${database}" WITH (FORCE)`));
      state = null;
    } else log(`${database}: reusing the ${formatSize(size)} namespace loaded on ${state.loadedAt}`);
  }
  if (!state) await withAdmin((c) => c.query(`CREATE DATABASE "${database}"`));
  return { url: databaseUrl(database), database, kept: true, state, close: async () => undefined };
}

async function pgvectorAvailable() {
  return withAdmin(async (c) => (await c.query(`SELECT 1 FROM pg_available_extensions WHERE name = 'vector'`)).rowCount > 0);
}

/**
 * The full-text baseline's table: what a team would build with PostgreSQL alone. The pgvector
 * baseline needs no table of its own: the product's vectors are a pgvector column with an HNSW
 * index, loaded as one bulk-loads pgvector (rows, then one build), so the baseline queries those
 * rows and that index with a plain ORDER BY … LIMIT (PGVECTOR_SEARCH).
 */
async function createBaselines(ds) {
  await ds.query(
    `CREATE TABLE scale_fts (namespace_id uuid NOT NULL, node_id uuid NOT NULL, body tsvector NOT NULL, PRIMARY KEY (namespace_id, node_id))`,
  );
  await ds.query('CREATE INDEX scale_fts_body_idx ON scale_fts USING gin (body)');
}

/** Any-term full-text search: the query's lexemes ORed (plainto_tsquery ANDs them), ranked by ts_rank. */
const FTS_SEARCH = `SELECT node_id, ts_rank(body, x.q) AS score
  FROM scale_fts, (SELECT replace(plainto_tsquery('english', $2)::text, ' & ', ' | ')::tsquery AS q) AS x
  WHERE namespace_id = $1 AND body @@ x.q ORDER BY score DESC LIMIT $3`;

/** pgvector alone: the k nearest by cosine distance through the HNSW index, without the store's iterative scan and re-sort. */
const PGVECTOR_SEARCH = (dims) => `SELECT node_id FROM node_embeddings WHERE namespace_id = $1 AND model = $2 AND dims = ${dims}
  ORDER BY embedding::vector(${dims}) <=> $3::vector(${dims}) LIMIT ${DEPTH}`;

const vectorOf = (key, dims) => unitVector(dims, seedOf(SEED, 'vector', key));
const pgvectorText = (v) => `[${Array.from(v).join(',')}]`;

/** Fills the namespace file by file, timing each write path on its own (generation excluded). */
async function load({ ds, libs, source, size, namespace, log }) {
  const { PostgresBm25Retriever, RECOMMENDED_BM25 } = libs.retrieval;
  const retriever = new PostgresBm25Retriever(ds, RECOMMENDED_BM25);
  const store = new libs.ai.NodeVectorStore(ds, { model: VECTOR_MODEL, dimensions: libs.dims, storage: VECTOR_STORAGE });
  const ms = { lexical: 0, vectors: 0, fts: 0 };
  let files = 0;
  let passages = 0;
  let batches = 0;
  let nextReport = 0.1;
  const time = async (key, work) => {
    const t = performance.now();
    await work();
    ms[key] += performance.now() - t;
  };
  let batch = [];
  const flush = async () => {
    if (!batch.length) return;
    const passagesOf = batch.flatMap((f) => f.passages);
    const nodeIds = passagesOf.map((p) => p.nodeId);
    const rows = batch.flatMap((f) =>
      f.passages.map((p) => ({ nodeId: p.nodeId, fileId: f.fileId, vector: vectorOf(p.nodeId, libs.dims) })),
    );
    // The write paths run side by side, as indexing-service's lexical and vector stages do: the
    // analysis is JavaScript, the inserts PostgreSQL's work, so on two cores they overlap. Each
    // path's time is its own wall time, so they add up to more than the load's.
    await Promise.all([
      time('lexical', () =>
        retriever.indexFiles(
          namespace,
          batch.map((f) => ({ fileId: f.fileId, passages: f.passages })),
        ),
      ),
      time('vectors', () => store.upsert(namespace, rows)),
      time('fts', () =>
        ds.query(`INSERT INTO scale_fts SELECT $1::uuid, n, to_tsvector('english', t) FROM unnest($2::uuid[], $3::text[]) AS x (n, t)`, [
          namespace,
          nodeIds,
          passagesOf.map((p) => p.text),
        ]),
      ),
    ]);
    files += batch.length;
    passages += passagesOf.length;
    batches++;
    batch = [];
    if (passages / size >= nextReport) {
      log(
        `  ${formatSize(size)}: ${passages} passages in ${files} files (lexical ${(ms.lexical / 1000).toFixed(0)} s, vectors ${(ms.vectors / 1000).toFixed(0)} s, fts ${(ms.fts / 1000).toFixed(0)} s; ${((performance.now() - started) / 1000).toFixed(0)} s in all)`,
      );
      nextReport += 0.1;
    }
  };
  const started = performance.now();
  let buildStarted = 0;
  // The product's bulk path for vectors: rows first, then the model's HNSW index built once.
  await store.bulkLoad(
    async () => {
      let inBatch = 0;
      for (const file of corpusFiles(source, size, SEED)) {
        throwIfInterrupted();
        batch.push(file);
        inBatch += file.passages.length;
        if (inBatch >= BATCH_PASSAGES) {
          await flush();
          inBatch = 0;
        }
      }
      await flush();
      buildStarted = performance.now();
    },
    { maintenanceWorkMem: MAINTENANCE_WORK_MEM },
  );
  const vectorIndexSeconds = (performance.now() - buildStarted) / 1000;
  ms.vectors += vectorIndexSeconds * 1000;
  log(`  ${formatSize(size)}: vector index built in ${vectorIndexSeconds.toFixed(0)} s`);
  const wallSeconds = (performance.now() - started) / 1000;
  const t = performance.now();
  // What autovacuum does to freshly inserted tables (autovacuum_vacuum_insert_threshold), here at
  // once: statistics, and the visibility map that lets a search read postings from the index alone.
  await ds.query('VACUUM (ANALYZE)');
  const rate = (key) => (ms[key] ? passages / (ms[key] / 1000) : null);
  return {
    files,
    passages,
    wallSeconds,
    vectorIndexSeconds,
    filesPerBatch: files / Math.max(1, batches),
    seconds: Object.fromEntries(Object.entries(ms).map(([k, v]) => [k, v / 1000])),
    analyzeSeconds: (performance.now() - t) / 1000,
    passagesPerSecond: {
      lexical: rate('lexical'),
      vectors: rate('vectors'),
      fts: rate('fts'),
      all: passages / wallSeconds,
    },
  };
}

/**
 * Bytes per passage of the product's tables (retrieval_* for the lexical index, node_embeddings) and
 * of the baseline's: each table's size over the passages it holds in every namespace, so that a kept
 * database holding more than the bench's namespace is still measured right.
 */
async function disk(ds) {
  const rows = await ds.query(
    `SELECT c.relname AS name, pg_total_relation_size(c.oid)::bigint AS bytes FROM pg_class c
     JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'indexing' AND c.relkind IN ('r', 'p', 'm') ORDER BY c.relname`,
  );
  const [held] = await ds.query(
    `SELECT (SELECT coalesce(sum(doc_count), 0) FROM retrieval_stats)::float8 AS lexical,
            (SELECT count(*) FROM node_embeddings)::float8 AS vectors,
            (SELECT count(*) FROM scale_fts)::float8 AS fts`,
  );
  const tables = Object.fromEntries(rows.map((r) => [r.name, Number(r.bytes)]));
  const sum = (pred) => Object.entries(tables).reduce((s, [name, bytes]) => s + (pred(name) ? bytes : 0), 0);
  const perPassage = (bytes, passages) => (bytes && passages ? bytes / passages : null);
  return {
    tables,
    passagesHeld: held,
    bytesPerPassage: {
      lexical: perPassage(
        sum((n) => n.startsWith('retrieval')),
        held.lexical,
      ),
      vectors: perPassage(
        sum((n) => n === 'node_embeddings'),
        held.vectors,
      ),
      fts: perPassage(
        sum((n) => n === 'scale_fts'),
        held.fts,
      ),
    },
  };
}

/** Latencies of `search` over the queries, `concurrency` at a time, after a warm-up that is not counted. */
async function measure(search, queries, concurrency) {
  const warm = queries.slice(-WARMUP);
  const measured = queries.slice(0, -WARMUP);
  const warmStart = performance.now();
  for (const q of warm) {
    if (performance.now() - warmStart > BUDGET_MS / 3) break;
    throwIfInterrupted();
    await search(q);
  }
  const latencies = [];
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < measured.length && performance.now() - started < BUDGET_MS && !isInterrupted()) {
      const q = measured[next++];
      const t = performance.now();
      await search(q);
      latencies.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  throwIfInterrupted();
  const seconds = (performance.now() - started) / 1000;
  return { ...summarize(latencies), queriesPerSecond: latencies.length / seconds, of: measured.length };
}

async function measureSize({ libs, source, queries, size, keep, pgvector, log }) {
  const { HybridPassageSearch, PostgresBm25Retriever, DEFAULT_HYBRID, RECOMMENDED_BM25 } = libs.retrieval;
  const { createDataSource, initializeDataSource } = libs.persistence;
  const fingerprint = JSON.stringify({
    SEED,
    GENERATOR,
    size,
    pgvector,
    ...(VECTOR_STORAGE === 'auto' ? {} : { storage: VECTOR_STORAGE }),
    dims: libs.dims,
    migrations: libs.migrations.map((m) => m.name),
  });
  const db = await openDatabase(size, keep, fingerprint, log);
  let ds;
  try {
    const opts = { url: db.url, schema: 'indexing', entities: [], migrations: libs.migrations, poolSize: 24 };
    ds = await initializeDataSource(createDataSource(opts), opts);
    const namespace = uuidOf('namespace', `${SEED}:${size}`);
    let loaded = db.state?.load;
    if (!loaded) {
      await createBaselines(ds);
      log(`${formatSize(size)}: loading ${size} passages into ${db.database}`);
      loaded = await load({ ds, libs, source, size, namespace, log });
      loaded.loadedAt = new Date().toISOString();
      if (db.kept) {
        await ds.query(`CREATE TABLE scale_bench_state (key text PRIMARY KEY, value jsonb NOT NULL)`);
        await ds.query(`INSERT INTO scale_bench_state VALUES ('load', $1)`, [
          JSON.stringify({ fingerprint, loadedAt: loaded.loadedAt, load: loaded }),
        ]);
      }
    }
    const storage = await disk(ds);
    // The migration picks the vector column (pgvector or bytea scanned in Node); the report says which ran.
    const [{ type: vectorColumn }] = await ds.query(
      `SELECT t.typname AS type FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid
       WHERE a.attrelid = 'node_embeddings'::regclass AND a.attname = 'embedding'`,
    );
    log(
      `${formatSize(size)}: ${JSON.stringify(loaded.passagesPerSecond)} passages/s; bytes/passage ${JSON.stringify(storage.bytesPerPassage)}`,
    );

    const retriever = new PostgresBm25Retriever(ds, RECOMMENDED_BM25);
    const store = new libs.ai.NodeVectorStore(ds, { model: VECTOR_MODEL, dimensions: libs.dims, storage: VECTOR_STORAGE });
    const queryVectors = new Map(queries.map((q) => [q, vectorOf(`query:${q}`, libs.dims)]));
    const hybrid = new HybridPassageSearch({
      retriever,
      vectors: (ns, v, o) => store.search(ns, v, o),
      embedQuery: async (q) => queryVectors.get(q),
      parameters: DEFAULT_HYBRID,
      onDenseFailure: 'throw',
    });
    const legs = {
      hybrid: (q) => hybrid.search(namespace, q, { limit: DEPTH }),
      lexical: (q) => retriever.search(namespace, q, { limit: DEPTH }),
      vector: (q) => store.search(namespace, queryVectors.get(q), { k: DEPTH }),
      fts100: (q) => ds.query(FTS_SEARCH, [namespace, q, 100]),
      fts40: (q) => ds.query(FTS_SEARCH, [namespace, q, 40]),
    };
    if (vectorColumn === 'vector') {
      legs.pgvector = (q) => ds.query(PGVECTOR_SEARCH(libs.dims), [namespace, VECTOR_MODEL, pgvectorText(queryVectors.get(q))]);
    }
    const latency = {};
    for (const [name, search] of Object.entries(legs)) {
      latency[name] = {};
      for (const concurrency of [1, 8]) {
        const m = await measure(search, queries, concurrency);
        // The machine's 1-minute load average after the measurement (2 cores: above 2, queries waited for CPU).
        m.loadAverage = loadavg()[0];
        latency[name][concurrency] = m;
        log(
          `  ${formatSize(size)} ${name} x${concurrency}: p50 ${m.p50?.toFixed(1)} p95 ${m.p95?.toFixed(1)} p99 ${m.p99?.toFixed(1)} ms (${m.n}/${m.of}); load ${m.loadAverage.toFixed(1)}`,
        );
      }
    }
    return {
      size,
      database: db.database,
      kept: db.kept,
      reused: !!db.state,
      vectorStorage: vectorColumn === 'vector' ? 'pgvector' : vectorColumn,
      load: loaded,
      disk: storage,
      latency,
      peakRssMiB: process.resourceUsage().maxRSS / 1024,
    };
  } finally {
    if (ds?.isInitialized) await ds.destroy();
    await db.close();
  }
}

/** nDCG@10 on the SciFact test queries over its 5,183 abstracts, one passage each: the lexical leg beside ts_rank. */
async function measureNdcg({ libs, scifact, log }) {
  const { PostgresBm25Retriever, RECOMMENDED_BM25 } = libs.retrieval;
  const { createDataSource, initializeDataSource } = libs.persistence;
  const infra = await startInfrastructure('scalendcg');
  let ds;
  try {
    const opts = { url: infra.databaseUrl, schema: 'indexing', entities: [], migrations: libs.migrations, poolSize: 4 };
    ds = await initializeDataSource(createDataSource(opts), opts);
    await createBaselines(ds);
    const namespace = uuidOf('namespace', `${SEED}:scifact`);
    const retriever = new PostgresBm25Retriever(ds, RECOMMENDED_BM25);
    const docOfNode = new Map(scifact.corpus.map((d) => [uuidOf('node', `scifact:${d.id}`), d.id]));
    const passages = scifact.corpus.map((d) => ({ nodeId: uuidOf('node', `scifact:${d.id}`), text: d.text }));
    // Files of 100 abstracts: BM25 ranks passages over the whole namespace, so how they are grouped into files does not change a score.
    for (let i = 0; i < passages.length; i += 100) {
      throwIfInterrupted();
      await retriever.index(namespace, uuidOf('file', `scifact:${i}`), passages.slice(i, i + 100));
    }
    await ds.query(`INSERT INTO scale_fts SELECT $1::uuid, n, to_tsvector('english', t) FROM unnest($2::uuid[], $3::text[]) AS x (n, t)`, [
      namespace,
      [...docOfNode.keys()],
      scifact.corpus.map((d) => d.text),
    ]);
    await ds.query('ANALYZE');
    const lexical = new Map();
    const fts = new Map();
    for (const qid of scifact.testQrels.keys()) {
      throwIfInterrupted();
      const q = scifact.queries.get(qid);
      lexical.set(
        qid,
        (await retriever.search(namespace, q, { limit: DEPTH })).map((h) => docOfNode.get(h.nodeId)),
      );
      fts.set(
        qid,
        (await ds.query(FTS_SEARCH, [namespace, q, DEPTH])).map((r) => docOfNode.get(r.node_id)),
      );
    }
    const result = { lexical: evaluate(lexical, scifact.testQrels), fts: evaluate(fts, scifact.testQrels), bm25: RECOMMENDED_BM25 };
    log(`SciFact test nDCG@10: lexical ${result.lexical.ndcg10.toFixed(3)}, full-text ${result.fts.ndcg10.toFixed(3)}`);
    return result;
  } finally {
    if (ds?.isInitialized) await ds.destroy();
    await infra.teardown();
  }
}

/** The issue's targets, each met, missed or not measured in this run. */
function goals(result) {
  const bySize = new Map(result.sizes.map((s) => [s.size, s]));
  const at1M = bySize.get(1_000_000);
  const p95 = (s, leg, c) => s?.latency[leg]?.[c]?.p95 ?? null;
  const under = (value, limit) => (value == null ? null : value < limit);
  // The targets at 1M hold for the product on pgvector; on bytea vectors the report states where p95 crosses 1 s instead.
  const onPgvector = result.sizes.length > 0 && result.sizes.every((s) => s.vectorStorage === 'pgvector');
  const out = [
    {
      goal: '1M passages: hybrid p95 under 150 ms at 1 query, with pgvector',
      value: p95(at1M, 'hybrid', 1),
      met: onPgvector ? under(p95(at1M, 'hybrid', 1), 150) : null,
    },
    {
      goal: '1M passages: hybrid p95 under 500 ms at 8 concurrent, with pgvector',
      value: p95(at1M, 'hybrid', 8),
      met: onPgvector ? under(p95(at1M, 'hybrid', 8), 500) : null,
    },
  ];
  for (const s of result.sizes) {
    const lex = p95(s, 'lexical', 1);
    const fts = p95(s, 'fts40', 1);
    out.push({
      goal: `${formatSize(s.size)}: lexical leg p95 no slower than full-text search, any term, top 40`,
      value: lex,
      met: lex == null || fts == null ? null : lex <= fts,
    });
  }
  if (result.ndcg) {
    out.push({
      goal: 'SciFact nDCG@10: lexical leg above full-text search',
      value: result.ndcg.lexical.ndcg10,
      met: result.ndcg.lexical.ndcg10 > result.ndcg.fts.ndcg10,
    });
  }
  return out;
}

/** The smallest measured size whose hybrid p95 at 1 query exceeds 1 s, with the largest below it. */
function crossing(result) {
  let below = null;
  for (const s of result.sizes) {
    const p95 = s.latency.hybrid[1].p95;
    if (p95 > 1000) return { above: s.size, below };
    below = s.size;
  }
  return { above: null, below };
}

async function run(opts, log) {
  const libs = loadLibs();
  const sources = loadSources({ queries: QUERIES + WARMUP, seed: SEED });
  const source = passageSource(sources.real, SEED);
  const pgvector = await pgvectorAvailable();
  log(
    `${sources.real.length} real passages, ${sources.queries.length} queries; sizes ${opts.sizes.map(formatSize).join(', ')}; pgvector ${pgvector ? 'available' : 'not installed'}`,
  );
  const result = {
    pgvector,
    dims: libs.dims,
    queries: sources.queries.length - WARMUP,
    warmup: WARMUP,
    budgetSeconds: BUDGET_MS / 1000,
    realPassages: source.realCount,
  };
  result.ndcg = await measureNdcg({ libs, scifact: sources.scifact, log });
  result.sizes = [];
  for (const size of opts.sizes) {
    throwIfInterrupted();
    result.sizes.push(await measureSize({ libs, source, queries: sources.queries, size, keep: opts.keep, pgvector, log }));
  }
  result.crossing = crossing(result);
  result.goals = goals(result);
  result.pass = result.goals.every((g) => g.met !== false);
  return result;
}

module.exports = {
  id: 'scale',
  title: 'Scale: namespaces of 10k to 1M passages beside PostgreSQL full-text search and pgvector',
  /** Loads up to a million passages; run it by name. */
  onlyWhenNamed: true,
  run,
  markdown: (result, opts, machine) => require('./report').markdown(result, opts, machine),
};
