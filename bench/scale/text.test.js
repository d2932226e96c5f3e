'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { passageSource, fileSizes, corpusFiles, splitSentences, unitVector, sample, uuidOf, wordCount } = require('./text');

const REAL = [
  'Alpha beta gamma delta. Epsilon zeta eta theta iota. Kappa lambda mu nu xi omicron.',
  'The cell divides twice a day. Mitochondria supply the energy it needs. Nothing else changes here.',
  'Rivers flow into the sea in spring. (Floods follow heavy rain.) 42 towns were hit in 1998.',
];

test('real passages come first, unchanged', () => {
  const source = passageSource(REAL, 7);
  assert.deepEqual(
    [0, 1, 2].map((i) => source.passage(i)),
    REAL,
  );
});

test('the same seed gives the same passages; another seed others', () => {
  const a = passageSource(REAL, 7);
  const b = passageSource(REAL, 7);
  const c = passageSource(REAL, 8);
  const ids = [3, 10, 999, 123456];
  assert.deepEqual(
    ids.map((i) => a.passage(i)),
    ids.map((i) => b.passage(i)),
  );
  assert.notDeepEqual(
    ids.map((i) => a.passage(i)),
    ids.map((i) => c.passage(i)),
  );
});

test('a generated passage is real sentences, at least as long as the shortest real passage', () => {
  const source = passageSource(REAL, 1);
  const sentences = new Set(REAL.flatMap(splitSentences));
  const shortest = Math.min(...REAL.map(wordCount));
  for (let i = 3; i < 50; i++) {
    const text = source.passage(i);
    for (const s of splitSentences(text)) assert.ok(sentences.has(s), `"${s}" is not a real sentence`);
    assert.ok(wordCount(text) >= shortest);
  }
});

test('sentences split before capitals, digits and brackets, not inside numbers', () => {
  assert.deepEqual(splitSentences('It rose 3.5 percent. (See below.) 42 towns. done'), [
    'It rose 3.5 percent.',
    '(See below.)',
    '42 towns. done',
  ]);
});

test('files hold 50 to 200 passages (the last the rest) and add up to the size', () => {
  const sizes = fileSizes(10_000, 3);
  assert.equal(
    sizes.reduce((a, b) => a + b, 0),
    10_000,
  );
  for (const n of sizes.slice(0, -1)) assert.ok(n >= 50 && n <= 200, `${n}`);
  assert.deepEqual(sizes, fileSizes(10_000, 3));
});

test('corpus files number every passage once, with stable ids', () => {
  const source = passageSource(REAL, 5);
  const files = [...corpusFiles(source, 500, 5)];
  const nodes = files.flatMap((f) => f.passages.map((p) => p.nodeId));
  assert.equal(nodes.length, 500);
  assert.equal(new Set(nodes).size, 500);
  assert.equal(new Set(files.map((f) => f.fileId)).size, files.length);
  assert.deepEqual(
    [...corpusFiles(source, 500, 5)].map((f) => f.fileId),
    files.map((f) => f.fileId),
  );
  assert.equal(files[0].passages[1].text, REAL[1]);
  assert.match(uuidOf('node', 'x'), /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/);
});

test('random vectors are unit length and repeatable', () => {
  const v = unitVector(512, 9);
  assert.equal(v.length, 512);
  assert.ok(Math.abs(v.reduce((s, x) => s + x * x, 0) - 1) < 1e-5);
  assert.deepEqual(unitVector(512, 9), v);
  assert.notDeepEqual(unitVector(512, 10), v);
});

test('a sample has no repeats and is the same for the same seed', () => {
  const list = Array.from({ length: 100 }, (_, i) => i);
  const s = sample(list, 30, 'x');
  assert.equal(new Set(s).size, 30);
  assert.deepEqual(sample(list, 30, 'x'), s);
  assert.equal(sample(list, 500, 'x').length, 100);
});
