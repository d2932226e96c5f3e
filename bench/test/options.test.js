'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { parseOptions } = require('../lib/options');

test('the deep-paging namespace holds 100,000 files unless told otherwise', () => {
  assert.equal(parseOptions([], {}).deepFiles, 100_000);
  assert.equal(parseOptions(['providers', '--files', '2000'], {}).deepFiles, 2000);
  assert.equal(parseOptions([], { BENCH_DEEP_FILES: '5000' }).deepFiles, 5000);
  assert.equal(parseOptions(['--files', '3000'], { BENCH_DEEP_FILES: '5000' }).deepFiles, 3000);
});

test('the deep-paging namespace must hold page 20 of 20 files', () => {
  assert.equal(parseOptions(['--files', '400'], {}).deepFiles, 400);
  assert.throws(() => parseOptions(['--files', '399'], {}), /at least 400/);
  assert.throws(() => parseOptions(['--files', '1e3.5'], {}), /whole number/);
});
