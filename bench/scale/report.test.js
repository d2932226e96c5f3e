'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { markdown } = require('./report');

const m = (p50, p95) => ({ p50, p95, p99: p95 * 1.2, n: 280, of: 300, queriesPerSecond: 10, loadAverage: 3.25 });
const legs = (names) => Object.fromEntries(names.map((n, i) => [n, { 1: m(10 + i, 20 + i), 8: m(40 + i, 80 + i) }]));

function result({ wallSeconds = 500, vectorIndexSeconds = 60 } = {}) {
  const load = {
    files: 800,
    passages: 100_000,
    seconds: { lexical: 400, vectors: 300, fts: 100 },
    analyzeSeconds: 20,
    filesPerBatch: 16,
    passagesPerSecond: { lexical: 250, vectors: 333, fts: 1000, all: 200 },
  };
  if (wallSeconds != null) Object.assign(load, { wallSeconds, vectorIndexSeconds });
  return {
    pgvector: true,
    dims: 512,
    queries: 300,
    warmup: 20,
    budgetSeconds: 30,
    realPassages: 7250,
    ndcg: {
      lexical: { ndcg10: 0.687, recall100: 0.928, queries: 300 },
      fts: { ndcg10: 0.58, recall100: 0.849, queries: 300 },
      bm25: { k1: 1.2, b: 0.75 },
    },
    sizes: [
      {
        size: 100_000,
        vectorStorage: 'pgvector',
        reused: false,
        load,
        disk: {
          tables: { retrieval_docs: 1e9, retrieval_postings: 5e8, node_embeddings: 6e8, scale_fts: 2.6e8 },
          bytesPerPassage: { lexical: 15000, vectors: 6000, fts: 2600 },
        },
        latency: legs(['hybrid', 'lexical', 'vector', 'fts100', 'fts40', 'pgvector']),
        peakRssMiB: 500,
      },
    ],
    crossing: { above: null, below: 100_000 },
    goals: [{ goal: '100k: lexical leg p95 no slower than full-text search, any term, top 40', value: 21, met: true }],
  };
}

const machine = { date: '2026-12-06T00:00:00Z', cpu: 'cpu', cores: 2, memoryGiB: 24, node: 'v20' };

test('the scale section states the bulk load: its rate, its batches and the HNSW build', () => {
  const md = markdown(result(), { keep: true }, machine);
  assert.match(md, /\| the load, passages\/s \(the three write paths side by side, batches of about 2,000 passages\) \| 200 \|/);
  assert.match(md, /`PostgresBm25Retriever\.indexFiles`, 16 files a transaction\) \| 250 \| 1,000/);
  assert.match(md, /one HNSW build of 60 s\) \| 333 \|/);
  assert.match(
    md,
    /Load: 500 s in all; lexical 400 s, vectors 300 s, full-text baseline 100 s \(overlapping\), then `VACUUM \(ANALYZE\)` 20 s\./,
  );
  assert.match(md, /pgvector alone is a plain `ORDER BY embedding <=> q LIMIT 100` over the same/);
});

test('a kept database loaded before the wall time was recorded renders without it', () => {
  const md = markdown(result({ wallSeconds: null }), { keep: true }, machine);
  assert.match(md, /Load: – s in all;/);
  assert.match(md, /one HNSW build of – s\)/);
});

test('each latency row carries the load average after its measurements', () => {
  const md = markdown(result(), { keep: true }, machine);
  assert.match(
    md,
    /\| hybrid \(`HybridPassageSearch`, `DEFAULT_HYBRID`\) \| 10\.0 \/ 20\.0 \/ 24\.0 \| 40\.0 \/ 80\.0 \/ 96\.0 \| 280 of 300 \/ 280 of 300 \| 10\.0 \/ 10\.0 \| 3\.3 \/ 3\.3 \|/,
  );
});
