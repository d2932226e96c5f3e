'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { ndcgAt, recallAt, evaluate } = require('./metrics');

test('nDCG@10 and recall against a hand computation', () => {
  const qrels = new Map([
    ['a', 1],
    ['b', 1],
  ]);
  assert.equal(ndcgAt(['a', 'b', 'c'], qrels, 10), 1);
  // b at rank 2 only: (1/log2 3) / (1 + 1/log2 3).
  const expected = 1 / Math.log2(3) / (1 + 1 / Math.log2(3));
  assert.ok(Math.abs(ndcgAt(['c', 'b'], qrels, 10) - expected) < 1e-12);
  assert.equal(ndcgAt(['c'], qrels, 10), 0);
  assert.equal(recallAt(['c', 'b'], qrels, 100), 0.5);
  const result = evaluate(
    new Map([['q', ['a', 'x']]]),
    new Map([
      ['q', new Map([['a', 1]])],
      ['r', new Map([['z', 1]])],
    ]),
  );
  assert.deepEqual(result, { ndcg10: 0.5, recall100: 0.5, queries: 2 });
});
