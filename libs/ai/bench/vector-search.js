#!/usr/bin/env node
/*
 * Vector search on stock PostgreSQL, the store's streaming scan against cosine in SQL over real[],
 * then the same rows converted to pgvector (HNSW) with its recall against the exact scan:
 *   npm run build && node libs/ai/bench/vector-search.js [count=100000] [dims=512]
 * BENCH_PGVECTOR=0 skips the pgvector leg (it needs the extension: scripts/install-pgvector.sh).
 * Uses a scratch database on DATABASE_ADMIN_URL (default postgres://postgres@127.0.0.1:5432/postgres),
 * dropped at the end.
 */
'use strict';
require('reflect-metadata');
const { randomUUID } = require('node:crypto');
const { Client } = require('pg');
const { createDataSource, initializeDataSource } = require('../../persistence/dist');
const { NodeVectorStore, CreateNodeEmbeddings1732450000000, CreateDocumentEmbeddings1764100000000, normalize } = require('../dist');

const COUNT = Number(process.argv[2] ?? 100_000);
const DIMS = Number(process.argv[3] ?? 512);
const ADMIN = process.env.DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB = `docintel_bench_vectors_${process.pid}`;

function randomVector() {
  const v = new Float32Array(DIMS);
  for (let i = 0; i < DIMS; i++) v[i] = Math.random() * 2 - 1;
  return v;
}

async function timed(label, runs, fn) {
  const times = [];
  let result;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    result = await fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  console.log(`${label}: median ${times[Math.floor(runs / 2)].toFixed(0)} ms over ${runs} runs`);
  return result;
}

async function main() {
  const admin = new Client({ connectionString: ADMIN });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${DB}"`);
  const url = new URL(ADMIN);
  url.pathname = `/${DB}`;
  const opts = {
    url: url.toString(),
    schema: 'indexing',
    entities: [],
    migrations: [CreateNodeEmbeddings1732450000000, CreateDocumentEmbeddings1764100000000],
    poolSize: 2,
  };
  const ds = await initializeDataSource(createDataSource(opts), opts);
  try {
    const store = new NodeVectorStore(ds, { model: 'bench', dimensions: DIMS, storage: 'bytea' });
    const namespace = randomUUID();
    const file = randomUUID();
    // The alternative measured beside the store: the same normalised vectors as real[], cosine in SQL.
    await ds.query('CREATE TABLE real_vectors (namespace_id uuid, node_id uuid, embedding real[])');
    let upsertMs = 0;
    for (let i = 0; i < COUNT; i += 1000) {
      const rows = Array.from({ length: Math.min(1000, COUNT - i) }, () => ({
        nodeId: randomUUID(),
        fileId: file,
        vector: randomVector(),
      }));
      const t = performance.now();
      await store.upsert(namespace, rows);
      upsertMs += performance.now() - t;
      await ds.query('INSERT INTO real_vectors SELECT $1, unnest($2::uuid[]), unnest($3::text[])::real[]', [
        namespace,
        rows.map((r) => r.nodeId),
        rows.map((r) => `{${Array.from(normalize(r.vector)).join(',')}}`),
      ]);
    }
    console.log(`store.upsert ${COUNT} x ${DIMS}: ${(upsertMs / 1000).toFixed(1)} s`);
    await ds.query('VACUUM ANALYZE node_embeddings');
    await ds.query('VACUUM ANALYZE real_vectors');
    const query = randomVector();
    const scan = await timed('store.search (bytea, streaming scan in Node), k=10', 5, () => store.search(namespace, query, { k: 10 }));
    const qa = `{${Array.from(normalize(query)).join(',')}}`;
    // float8 products: real * real underflows to an error on tiny values.
    const sql = await timed('SQL cosine over real[] with unnest, k=10', 3, () =>
      ds.query(
        `SELECT node_id, (SELECT sum(a::float8 * b::float8) FROM unnest(embedding, $2::real[]) AS t (a, b)) AS score
         FROM real_vectors WHERE namespace_id = $1 ORDER BY score DESC LIMIT 10`,
        [namespace, qa],
      ),
    );
    const same = scan.map((h) => h.nodeId).join() === sql.map((r) => r.node_id).join();
    console.log(`same top 10 from both: ${same}`);

    // The pgvector leg (skipped with BENCH_PGVECTOR=0): the same rows converted in place, as a
    // deployment that installs pgvector later gets them, then HNSW search against the exact scan.
    if (process.env.BENCH_PGVECTOR !== '0') {
      const queries = Array.from({ length: 20 }, randomVector);
      const exact = [];
      for (const q of queries) exact.push(await store.search(namespace, q, { k: 10 }));
      const pg = new NodeVectorStore(ds, { model: 'bench', dimensions: DIMS, storage: 'pgvector' });
      const t = performance.now();
      await pg.prepare();
      console.log(`conversion to pgvector and HNSW build, ${COUNT} x ${DIMS}: ${((performance.now() - t) / 1000).toFixed(1)} s`);
      await ds.query('VACUUM ANALYZE node_embeddings');
      let found = 0;
      for (const [i, q] of queries.entries()) {
        const ids = new Set((await pg.search(namespace, q, { k: 10 })).map((h) => h.nodeId));
        found += exact[i].filter((h) => ids.has(h.nodeId)).length;
      }
      console.log(
        `pgvector HNSW recall@10 against the exact scan: ${(found / (queries.length * 10)).toFixed(3)} over ${queries.length} queries`,
      );
      await timed('store.search (pgvector, HNSW, ef_search 100), k=10', 20, () => pg.search(namespace, randomVector(), { k: 10 }));
    }
  } finally {
    await ds.destroy();
    await admin.query(`DROP DATABASE IF EXISTS "${DB}" WITH (FORCE)`);
    await admin.end();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
