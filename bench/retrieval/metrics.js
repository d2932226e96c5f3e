'use strict';
/* Ranking metrics as BEIR computes them with binary (and graded) qrels. */

/** nDCG@k of one ranking (ids, best first) against qrels (id -> relevance > 0). */
function ndcgAt(ranking, qrels, k) {
  let dcg = 0;
  ranking.slice(0, k).forEach((id, i) => {
    const rel = qrels.get(id) ?? 0;
    if (rel > 0) dcg += rel / Math.log2(i + 2);
  });
  const ideal = [...qrels.values()]
    .filter((r) => r > 0)
    .sort((a, b) => b - a)
    .slice(0, k);
  const idcg = ideal.reduce((sum, rel, i) => sum + rel / Math.log2(i + 2), 0);
  return idcg ? dcg / idcg : 0;
}

/** Recall@k: the share of the relevant ids found in the first k. */
function recallAt(ranking, qrels, k) {
  const relevant = [...qrels.entries()].filter(([, r]) => r > 0).map(([id]) => id);
  if (!relevant.length) return 0;
  const top = new Set(ranking.slice(0, k));
  return relevant.filter((id) => top.has(id)).length / relevant.length;
}

/** Mean nDCG@10 and R@100 over the queries that have qrels. `rankings`: query id -> ids. */
function evaluate(rankings, qrels) {
  let ndcg = 0;
  let recall = 0;
  let n = 0;
  for (const [qid, rels] of qrels) {
    const ranking = rankings.get(qid) ?? [];
    ndcg += ndcgAt(ranking, rels, 10);
    recall += recallAt(ranking, rels, 100);
    n++;
  }
  return { ndcg10: n ? ndcg / n : 0, recall100: n ? recall / n : 0, queries: n };
}

module.exports = { ndcgAt, recallAt, evaluate };
