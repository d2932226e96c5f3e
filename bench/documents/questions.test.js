'use strict';
const { describe, it } = require('node:test');
const assert = require('node:assert/strict');
const { mkdtempSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { loadQuestionFiles } = require('./questions');

const CORPUS = join(__dirname, '../../../shared/corpus');
const FIXTURE = join(__dirname, 'test/fixture-questions.json');

const question = (over = {}) => ({
  id: 'x-01',
  question: 'How many annotated pages?',
  answerType: { dataType: 'INT' },
  answers: ['80863'],
  evidence: 'contains 80863 manually annotated pages',
  style: 'lookup',
  lure: false,
  ...over,
});

/** Loads a directory holding the given question files. */
function load(files) {
  const dir = mkdtempSync(join(tmpdir(), 'documents-questions-'));
  try {
    for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), JSON.stringify(content));
    return loadQuestionFiles(dir, CORPUS);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
const doc = (questions, over = {}) => ({ documents: [{ file: 'txt/unstructured_norwich-city.txt', split: 'dev', questions, ...over }] });

describe('loadQuestionFiles', () => {
  it('loads the fixture, with each document, its split and its questions', () => {
    const docs = loadQuestionFiles(FIXTURE, CORPUS);
    assert.deepEqual(
      docs.map((d) => [d.file, d.split, d.questions.length]),
      [
        ['txt/unstructured_norwich-city.txt', 'dev', 5],
        ['pdf/docling_multi_page.pdf', 'dev', 3],
        ['xlsx/docling_xlsx_01.xlsx', 'dev', 1],
      ],
    );
  });

  it('names the file and the question of a bad entry', () => {
    assert.throws(
      () => load({ 'a.json': doc([question({ id: 'a-07', answers: ['80,863'] })]) }),
      /a\.json txt\/unstructured_norwich-city\.txt question a-07: answer "80,863" is not a plain number/,
    );
    assert.throws(
      () => load({ 'a.json': doc([question({ answerType: { dataType: 'DATE' }, answers: ['June 1968'] })]) }),
      /is not YYYY-MM-DD/,
    );
    assert.throws(() => load({ 'a.json': doc([question({ style: 'other' })]) }), /style must be/);
    assert.throws(
      () => load({ 'a.json': doc([question({ answerType: { dataType: 'ENUM', enumValues: ['a', 'b'] }, answers: ['c'] })]) }),
      /not one of enumValues/,
    );
  });

  it('refuses an id used twice across files, and a file that is not in the corpus', () => {
    assert.throws(
      () => load({ 'a.json': doc([question()]), 'b.json': doc([question()], { file: 'pdf/docling_multi_page.pdf' }) }),
      /b\.json: question id x-01 is used twice \(also in a\.json\)/,
    );
    assert.throws(() => load({ 'a.json': doc([question()], { file: 'pdf/nope.pdf' }) }), /no such corpus file/);
  });

  it('asks a document named in two files once, with all its questions', () => {
    const docs = load({ 'a.json': doc([question()]), 'b.json': doc([question({ id: 'x-02' })]) });
    assert.equal(docs.length, 1);
    assert.deepEqual(
      docs[0].questions.map((q) => q.id),
      ['x-01', 'x-02'],
    );
  });
});
