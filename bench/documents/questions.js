'use strict';
/*
 * The question files of the real-document evaluation (bench/documents/questions/*.json), loaded and
 * checked against their format: a bad entry stops the run with the file and question id named.
 */
const { existsSync, readFileSync, readdirSync } = require('node:fs');
const { basename, dirname, join } = require('node:path');

const DATA_TYPES = ['STRING', 'INT', 'FLOAT', 'DATE', 'BOOL', 'ENUM'];
const SPLITS = ['dev', 'heldout'];

/** Throws with `where` named when the question is not in the format. */
function checkQuestion(q, where) {
  const fail = (msg) => {
    throw new Error(`${where}: ${msg}`);
  };
  if (typeof q.id !== 'string' || !q.id) fail('id must be a non-empty string');
  if (typeof q.question !== 'string' || !q.question.trim()) fail('question must be a non-empty string');
  const t = q.answerType;
  if (!t || !DATA_TYPES.includes(t.dataType)) fail(`answerType.dataType must be one of ${DATA_TYPES.join(', ')}`);
  if (t.dataType === 'ENUM' && (!Array.isArray(t.enumValues) || t.enumValues.length < 2)) fail('an ENUM needs enumValues');
  if (!Array.isArray(q.answers) || q.answers.some((a) => typeof a !== 'string' || !a.trim()))
    fail('answers must be an array of non-empty strings');
  for (const a of q.answers) {
    if ((t.dataType === 'INT' || t.dataType === 'FLOAT') && !Number.isFinite(Number(a))) fail(`answer "${a}" is not a plain number`);
    if (t.dataType === 'INT' && !Number.isInteger(Number(a))) fail(`answer "${a}" is not a whole number`);
    if (t.dataType === 'DATE' && !/^\d{4}-\d{2}-\d{2}$/.test(a)) fail(`answer "${a}" is not YYYY-MM-DD`);
    if (t.dataType === 'BOOL' && a !== 'Yes' && a !== 'No') fail(`answer "${a}" is not Yes or No`);
    if (t.dataType === 'ENUM' && !t.enumValues.includes(a)) fail(`answer "${a}" is not one of enumValues`);
  }
  if (typeof q.evidence !== 'string') fail('evidence must be a string');
  if (q.answers.length && !q.evidence.trim()) fail('an answerable question needs its evidence quote');
  if (!['lookup', 'paraphrase'].includes(q.style)) fail('style must be "lookup" or "paraphrase"');
  if (typeof q.lure !== 'boolean') fail('lure must be true or false');
}

/**
 * Every question file of a directory (or the one file named), checked; ids unique across files. Returns the documents, each
 * { file, split, group, questions }, in file order.
 */
function loadQuestionFiles(dirOrFile, corpus) {
  // A single file (a fixture) is read alone.
  const single = dirOrFile.endsWith('.json');
  const dir = single ? dirname(dirOrFile) : dirOrFile;
  const names = single
    ? [basename(dirOrFile)]
    : existsSync(dir)
      ? readdirSync(dir)
          .filter((n) => n.endsWith('.json'))
          .sort()
      : [];
  const ids = new Map();
  const documents = [];
  for (const name of names) {
    let data;
    try {
      data = JSON.parse(readFileSync(join(dir, name), 'utf8'));
    } catch (err) {
      throw new Error(`${name}: not valid JSON (${err.message})`);
    }
    if (!Array.isArray(data.documents)) throw new Error(`${name}: "documents" must be an array`);
    data.documents.forEach((doc, di) => {
      const where = `${name} documents[${di}] (${doc.file})`;
      if (typeof doc.file !== 'string' || !doc.file)
        throw new Error(`${name} documents[${di}]: file must be a path under ../shared/corpus`);
      if (corpus && !existsSync(join(corpus, doc.file))) throw new Error(`${where}: no such corpus file`);
      if (!SPLITS.includes(doc.split)) throw new Error(`${where}: split must be "dev" or "heldout"`);
      if (!Array.isArray(doc.questions) || !doc.questions.length) throw new Error(`${where}: questions must be a non-empty array`);
      doc.questions.forEach((q, qi) => {
        checkQuestion(q, `${name} ${doc.file} question ${q.id ?? `#${qi}`}`);
        if (ids.has(q.id)) throw new Error(`${name}: question id ${q.id} is used twice (also in ${ids.get(q.id)})`);
        ids.set(q.id, name);
      });
      documents.push({ file: doc.file, split: doc.split, group: name.replace(/\.json$/, ''), questions: doc.questions });
    });
  }
  // A document asked about in two files is asked once, with all its questions.
  const byFile = new Map();
  for (const d of documents) {
    const seen = byFile.get(d.file);
    if (!seen) byFile.set(d.file, { ...d, questions: [...d.questions] });
    else if (seen.split !== d.split) throw new Error(`${d.file} is in split "${seen.split}" in one file and "${d.split}" in another`);
    else seen.questions.push(...d.questions);
  }
  return [...byFile.values()];
}

module.exports = { loadQuestionFiles, checkQuestion, SPLITS };
