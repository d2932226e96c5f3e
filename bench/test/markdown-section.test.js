'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { replaceSection } = require('../lib/markdown-section');

test('appends a new section after the existing text', () => {
  const out = replaceSection('# Benchmarks\n\nIntro.\n', 'a', '## A\n\n1');
  assert.equal(out, '# Benchmarks\n\nIntro.\n\n<!-- a:start -->\n## A\n\n1\n<!-- a:end -->\n');
});

test('replaces only its own section and keeps the others', () => {
  const doc = replaceSection(replaceSection('# B\n', 'a', 'old a'), 'b', 'b stays');
  const out = replaceSection(doc, 'a', 'new a');
  assert.match(out, /new a/);
  assert.doesNotMatch(out, /old a/);
  assert.match(out, /<!-- b:start -->\nb stays\n<!-- b:end -->/);
  assert.equal(replaceSection(out, 'a', 'new a'), out);
});

test('refuses to guess when a marker is missing', () => {
  assert.throws(() => replaceSection('<!-- a:start -->\nno end', 'a', 'x'), /unbalanced/);
});
