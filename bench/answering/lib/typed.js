'use strict';
/*
 * Typed-answer accuracy of a reader on the hand-written questions of typed-questions.json: every
 * question is asked over all passages of its document (as if retrieval had returned them), and
 * counts as right when the typed value equals the expected one (floats to the requested decimals).
 */
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

const FIXTURE = join(__dirname, '..', 'typed-questions.json');

function sameValue(got, expected) {
  if (!got) return false;
  const [key] = Object.keys(expected);
  if (key === 'doubleValue') return typeof got.doubleValue === 'number' && Math.abs(got.doubleValue - expected.doubleValue) < 1e-9;
  return got[key] === expected[key];
}

async function runTyped(reader) {
  const { documents } = JSON.parse(readFileSync(FIXTURE, 'utf8'));
  const perType = {};
  const rows = [];
  let ms = 0;
  for (const doc of documents) {
    const passages = doc.passages.map((p, i) => ({ ...p, fileId: doc.fileName, fileName: doc.fileName, score: 1 - i * 0.01 }));
    for (const q of doc.questions) {
      const answerType = { multiValued: false, ...q.answerType };
      const started = process.hrtime.bigint();
      const a = await reader.answer({ question: q.question, answerType }, passages);
      ms += Number(process.hrtime.bigint() - started) / 1e6;
      const ok = a.found && sameValue(a.value, q.expected);
      const t = (perType[answerType.dataType] ??= { right: 0, total: 0, notFound: 0 });
      t.total++;
      if (ok) t.right++;
      if (!a.found) t.notFound++;
      rows.push({ question: q.question, type: answerType.dataType, expected: q.expected, got: a.value, rawValue: a.rawValue, found: a.found, ok });
    }
  }
  const total = rows.length;
  const right = rows.filter((r) => r.ok).length;
  return { perType, total, right, msPerQuestion: ms / total, rows };
}

module.exports = { runTyped, FIXTURE };
