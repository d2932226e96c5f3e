'use strict';
/* The `scale` section of docs/benchmarks.md, from a run's result. */
const { formatSize, ratio } = require('./stats');

const ms = (x) => (x == null ? '–' : x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
const int = (x) => (x == null ? '–' : Math.round(x).toLocaleString('en-US'));
const kb = (bytes) => (bytes == null ? '–' : `${(bytes / 1024).toFixed(1)} KB`);
const times = (r) => (r == null ? '–' : `${r >= 10 ? r.toFixed(0) : r.toFixed(2)}×`);
const pcts = (m) => (m ? `${ms(m.p50)} / ${ms(m.p95)} / ${ms(m.p99)}` : '–');
const load = (m) => (m?.loadAverage == null ? '–' : m.loadAverage.toFixed(1));
const count = (m) => (m ? `${m.n}${m.n < m.of ? ` of ${m.of}` : ''}` : '–');

function latencyRows(s) {
  const row = (name, leg) => {
    const l = s.latency[leg];
    if (!l) return `| ${name} | pgvector not installed | | | | |`;
    return `| ${name} | ${pcts(l[1])} | ${pcts(l[8])} | ${count(l[1])} / ${count(l[8])} | ${l[1].queriesPerSecond.toFixed(1)} / ${l[8].queriesPerSecond.toFixed(1)} | ${load(l[1])} / ${load(l[8])} |`;
  };
  const ratioRow = (name, leg, base) => {
    const a = s.latency[leg];
    const b = s.latency[base];
    if (!b) return `| ${name} | pgvector not installed | | | | |`;
    const r = (c) => `${times(ratio(a[c].p50, b[c].p50))} / ${times(ratio(a[c].p95, b[c].p95))}`;
    return `| ${name} (p50 / p95) | ${r(1)} | ${r(8)} | | | |`;
  };
  return [
    row('hybrid (`HybridPassageSearch`, `DEFAULT_HYBRID`)', 'hybrid'),
    row('lexical leg (BM25, top 100)', 'lexical'),
    row(`vector leg (top 100, ${s.vectorStorage === 'pgvector' ? 'pgvector HNSW' : 'every vector scanned'})`, 'vector'),
    row('baseline: PostgreSQL full-text, any term, `ts_rank`, top 100', 'fts100'),
    row('baseline: PostgreSQL full-text, any term, `ts_rank`, top 40', 'fts40'),
    row('baseline: pgvector alone, HNSW, top 100', 'pgvector'),
    ratioRow('lexical leg / full-text top 100', 'lexical', 'fts100'),
    ratioRow('lexical leg / full-text top 40', 'lexical', 'fts40'),
    ratioRow('vector leg / pgvector alone', 'vector', 'pgvector'),
  ].join('\n');
}

function sizeSection(s) {
  const rate = s.load.passagesPerSecond;
  const per = s.disk.bytesPerPassage;
  const mib = (bytes) => (bytes / 1024 / 1024).toFixed(0);
  const total = (pred) => Object.entries(s.disk.tables).reduce((sum, [n, b]) => sum + (pred(n) ? b : 0), 0);
  return `### ${int(s.load.passages)} passages (${int(s.load.files)} files)

| search, ms | 1 query: p50 / p95 / p99 | 8 concurrent: p50 / p95 / p99 | queries measured (1 / 8) | queries/s (1 / 8) | load average after (1 / 8) |
|---|---|---|---|---|---|
${latencyRows(s)}

| load and disk | docintel | baseline | docintel / baseline |
|---|---|---|---|
| the load, passages/s (the three write paths side by side, batches of about ${int((s.load.passages / Math.max(1, s.load.files)) * (s.load.filesPerBatch ?? 1))} passages) | ${int(rate.all)} | | |
| lexical index, passages/s (\`PostgresBm25Retriever.indexFiles\`, ${(s.load.filesPerBatch ?? 1).toFixed(0)} files a transaction) | ${int(rate.lexical)} | ${int(rate.fts)} (full-text: \`to_tsvector\` insert, GIN) | ${times(ratio(rate.lexical, rate.fts))} |
| vectors, passages/s (\`NodeVectorStore.upsert\` inside \`bulkLoad\`: rows, then one HNSW build of ${s.load.vectorIndexSeconds == null ? '–' : s.load.vectorIndexSeconds.toFixed(0)} s) | ${int(rate.vectors)} | | |
| lexical index on disk per passage (\`retrieval_*\` tables, ${mib(total((n) => n.startsWith('retrieval')))} MiB) | ${kb(per.lexical)} | ${kb(per.fts)} (tsvector + GIN) | ${times(ratio(per.lexical, per.fts))} |
| vectors on disk per passage (\`node_embeddings\` with its HNSW index, ${mib(total((n) => n === 'node_embeddings'))} MiB) | ${kb(per.vectors)} | the same table (pgvector) | |
| peak RSS of the bench process (after this size) | ${s.peakRssMiB.toFixed(0)} MiB | | |

Load: ${s.load.wallSeconds == null ? '–' : s.load.wallSeconds.toFixed(0)} s in all; lexical ${s.load.seconds.lexical.toFixed(0)} s, vectors ${s.load.seconds.vectors.toFixed(0)} s, full-text baseline ${s.load.seconds.fts.toFixed(0)} s (overlapping), then \`VACUUM (ANALYZE)\` ${s.load.analyzeSeconds.toFixed(0)} s${s.reused ? ` (measured when the kept database was built, ${s.load.loadedAt})` : ''}.`;
}

function goalLine(g) {
  const state = g.met === null ? 'not measured in this run' : g.met ? 'met' : 'missed';
  return `| ${g.goal} | ${g.value == null ? '–' : typeof g.value === 'number' && g.value < 1 ? g.value.toFixed(3) : `${ms(g.value)} ms`} | ${state} |`;
}

const productOnPgvector = (r) => r.sizes.length > 0 && r.sizes.every((s) => s.vectorStorage === 'pgvector');

function pgvectorNote(r) {
  if (!r.pgvector)
    return '**not installed** on this machine, so the vector leg scans every vector of the namespace and the pgvector baseline is not measured';
  return productOnPgvector(r)
    ? 'installed; `node_embeddings` holds `vector` columns searched through an HNSW index'
    : 'installed for the baseline, but `node_embeddings` stores bytea vectors scanned in Node';
}

function crossingLine(r) {
  const { above, below } = r.crossing;
  const vector = productOnPgvector(r) ? 'with pgvector' : 'without pgvector (the vector leg scans every vector)';
  if (above == null) return `Hybrid p95 at 1 query stays under 1 s up to ${formatSize(below)} passages ${vector}.`;
  if (below == null) return `Hybrid p95 at 1 query is over 1 s already at ${formatSize(above)} passages ${vector}.`;
  return `Hybrid p95 at 1 query crosses 1 s between ${formatSize(below)} and ${formatSize(above)} passages ${vector}.`;
}

function markdown(r, opts, machine) {
  const sizes = r.sizes.map((s) => formatSize(s.size)).join(',');
  const n = r.ndcg;
  return `## Scale

\`npm run bench -- scale --sizes ${sizes}${opts.keep ? ' --keep' : ''}\` — ${machine.date}, ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB RAM, Node ${machine.node}.

One namespace per size, each in a database of its own, filled through the product's write paths
(files of 50-200 passages written in batches through \`PostgresBm25Retriever.indexFiles\` and
\`NodeVectorStore.upsert\` inside \`NodeVectorStore.bulkLoad\`; \`VACUUM (ANALYZE)\` after loading, as autovacuum
would do) with real text: the first ${int(r.realPassages)} passages are the SciFact abstracts and SQuAD dev
paragraphs, the rest their sentences recombined at the length of a real passage drawn at random
(seeded). **Vectors are random unit vectors** of ${r.dims} dimensions (the built-in model's): search
latency depends on their number, not their values, and embedding a million passages with the
built-in model would take days on this machine; the hybrid figures therefore leave out embedding
the query. Queries: ${r.queries} SciFact claims and SQuAD questions after ${r.warmup} of warm-up,
each measurement stopped after ${r.budgetSeconds} s (the count measured is in its column). The last column is the
machine's 1-minute load average after each measurement: on 2 cores, above 2 means queries waited for CPU that other work held.
pgvector: ${pgvectorNote(r)}.
The baselines run on the same PostgreSQL, passages and queries: full-text search is a table of
\`to_tsvector('english', text)\` with a GIN index, queried with the query's lexemes ORed
(\`plainto_tsquery\` with \`&\` replaced by \`|\`) and ranked by \`ts_rank\`; pgvector alone is a plain \`ORDER BY embedding <=> q LIMIT 100\` over the same
\`node_embeddings\` rows and HNSW index (built once after loading, as one bulk-loads pgvector), without
the store's iterative scan and re-sort.

${r.sizes.map(sizeSection).join('\n\n')}

${crossingLine(r)}

Relevance on BEIR SciFact (${n.lexical.queries} test queries, 5,183 abstracts, one passage each), the same engines:

| run | nDCG@10 | R@100 |
|---|---|---|
| lexical leg (BM25, k1 = ${n.bm25.k1}, b = ${n.bm25.b}) | **${n.lexical.ndcg10.toFixed(3)}** | ${n.lexical.recall100.toFixed(3)} |
| PostgreSQL full-text, any term, \`ts_rank\` | **${n.fts.ndcg10.toFixed(3)}** | ${n.fts.recall100.toFixed(3)} |

| target (issue 28) | measured | |
|---|---|---|
${r.goals.map(goalLine).join('\n')}

Not measured here yet: a QA job over 1,000 files, find-similar, \`GET /files\` paging, ingestion with
1 and 2 indexing-service replicas. What these numbers mean for a deployment: [docs/scaling.md](scaling.md).`;
}

module.exports = { markdown };
