'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { percentile, summarize, ratio, parseSizes, formatSize } = require('./stats');

test('percentiles by nearest rank', () => {
  const xs = Array.from({ length: 100 }, (_, i) => 100 - i); // 1..100, unsorted
  assert.equal(percentile(xs, 50), 50);
  assert.equal(percentile(xs, 95), 95);
  assert.equal(percentile(xs, 99), 99);
  assert.equal(percentile(xs, 100), 100);
  assert.equal(percentile([7], 99), 7);
  assert.equal(percentile([1, 2, 3, 4], 50), 2);
  assert.equal(percentile([], 50), null);
  assert.throws(() => percentile([1], 0), /p must be/);
});

test('a summary holds the count, percentiles and mean', () => {
  assert.deepEqual(summarize([10, 20, 30, 40]), { n: 4, p50: 20, p95: 40, p99: 40, mean: 25 });
  assert.deepEqual(summarize([]), { n: 0, p50: null, p95: null, p99: null, mean: null });
});

test('ratios are product over baseline, null without a baseline', () => {
  assert.equal(ratio(30, 10), 3);
  assert.equal(ratio(30, null), null);
  assert.equal(ratio(30, 0), null);
});

test('sizes read as 10k, 100k, 1M, sorted and once each', () => {
  assert.deepEqual(parseSizes('100k,10k,1M,10k'), [10_000, 100_000, 1_000_000]);
  assert.deepEqual(parseSizes('2500'), [2500]);
  assert.deepEqual(parseSizes('1.5k'), [1500]);
  assert.throws(() => parseSizes('10x'), /--sizes takes sizes such as 10k,100k,1M \(got "10x"\)/);
  assert.throws(() => parseSizes('0'), /--sizes/);
  assert.deepEqual([10_000, 1_000_000, 2500].map(formatSize), ['10k', '1M', '2500']);
});
