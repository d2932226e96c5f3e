'use strict';
/*
 * The real text the scale namespaces are made of, read where it lies in ../shared/eval: BEIR SciFact
 * (abstracts, claims as queries, test qrels for nDCG) and SQuAD v1.1 dev (paragraphs, questions).
 * Both stay outside the repository; only measurements are written.
 */
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const { REPO_ROOT } = require('../lib/processes');
const { sample } = require('./text');

const EVAL = process.env.BENCH_SCALE_EVAL_DIR ?? join(REPO_ROOT, '..', 'shared', 'eval');

const jsonl = (file) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));

function loadScifact() {
  const dir = join(EVAL, 'beir-scifact');
  const corpus = jsonl(join(dir, 'corpus.jsonl')).map((d) => ({ id: String(d._id), text: `${d.title ?? ''}\n${d.text ?? ''}`.trim() }));
  // Only the id and the text of a query: its metadata names the evidence.
  const queries = new Map(jsonl(join(dir, 'queries.jsonl')).map((q) => [String(q._id), String(q.text)]));
  const qrels = new Map();
  for (const line of readFileSync(join(dir, 'qrels', 'test.tsv'), 'utf8')
    .split('\n')
    .slice(1)) {
    const [qid, docId, score] = line.trim().split('\t');
    if (!qid) continue;
    if (!qrels.has(qid)) qrels.set(qid, new Map());
    qrels.get(qid).set(docId, Number(score));
  }
  return { corpus, queries, testQrels: qrels };
}

function loadSquad() {
  const data = JSON.parse(readFileSync(join(EVAL, 'squad-v1.1', 'dev-v1.1.json'), 'utf8')).data;
  const paragraphs = data.flatMap((a) => a.paragraphs);
  return { paragraphs: paragraphs.map((p) => p.context), questions: paragraphs.flatMap((p) => p.qas.map((q) => q.question)) };
}

/**
 * The real passages (SciFact abstracts, then SQuAD paragraphs), the latency queries (half SciFact
 * claims, half SQuAD questions, sampled with the seed) and SciFact for nDCG.
 */
function loadSources({ queries: queryCount, seed }) {
  const scifact = loadScifact();
  const squad = loadSquad();
  const half = Math.ceil(queryCount / 2);
  const queries = [
    ...sample([...scifact.queries.values()], half, `${seed}:scifact`),
    ...sample(squad.questions, queryCount - half, `${seed}:squad`),
  ];
  return {
    real: [...scifact.corpus.map((d) => d.text), ...squad.paragraphs],
    queries: sample(queries, queries.length, `${seed}:mix`),
    scifact,
  };
}

module.exports = { loadSources, EVAL };
