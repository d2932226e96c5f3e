'use strict';
/*
 * docs/benchmarks.md collects the sections of several benchmarks. Each benchmark owns the text
 * between its two marker comments and replaces only that; a new section is appended.
 */
const { existsSync, readFileSync, writeFileSync } = require('node:fs');

const begin = (id) => `<!-- ${id}:start -->`;
const end = (id) => `<!-- ${id}:end -->`;

function replaceSection(document, id, body) {
  const block = `${begin(id)}\n${body.trim()}\n${end(id)}`;
  const from = document.indexOf(begin(id));
  const to = document.indexOf(end(id));
  if (from === -1 && to === -1) {
    return `${document.trimEnd()}${document.trim() ? '\n\n' : ''}${block}\n`;
  }
  if (from === -1 || to === -1 || to < from) {
    throw new Error(`the markers of section "${id}" are unbalanced; fix them by hand`);
  }
  return document.slice(0, from) + block + document.slice(to + end(id).length);
}

/** Rewrites the section `id` of the Markdown file, creating the file with `preamble` if needed. */
function writeSection(file, id, body, preamble = '') {
  const before = existsSync(file) ? readFileSync(file, 'utf8') : preamble;
  writeFileSync(file, replaceSection(before, id, body));
}

module.exports = { replaceSection, writeSection };
