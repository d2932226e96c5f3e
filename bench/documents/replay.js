#!/usr/bin/env node
'use strict';
/*
 * Development aid: the built-in reader over the passages a documents run dumped
 * (BENCH_DOCUMENTS_DUMP=<file> npm run bench -- documents), graded as the bench grades answers,
 * in seconds and without the stack. Only for the dev split: the held-out split is run through the
 * stack, once per change.
 *   node bench/documents/replay.js <dump.json> [--min-confidence X] [--min-coverage X] [--show wrong|unanswered|all]
 * Citations are not read back here; the stack run does that.
 */
require('reflect-metadata');
const { readFileSync } = require('node:fs');
const { join, resolve } = require('node:path');
const { BuiltinReader } = require('@docintel/answering');
const { loadQuestionFiles } = require('./questions');
const { gradeAnswer } = require('./grading');

const args = process.argv.slice(2);
const opt = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const dump = JSON.parse(readFileSync(resolve(args[0]), 'utf8'));
const questions = new Map(
  loadQuestionFiles(
    process.env.BENCH_DOCUMENTS_QUESTIONS || join(__dirname, 'questions'),
    join(__dirname, '../../../shared/corpus'),
  ).flatMap((d) => d.questions.map((q) => [q.id, { ...q, file: d.file, split: d.split }])),
);
if (dump.some((d) => questions.get(d.id)?.split === 'heldout')) throw new Error('replay is for the dev split only');
const minConfidence = opt('--min-confidence');
const minCoverage = opt('--min-coverage');
const reader = new BuiltinReader({
  ...(minConfidence !== undefined ? { minConfidence: Number(minConfidence) } : {}),
  ...(minCoverage !== undefined ? { minCoverage: Number(minCoverage) } : {}),
});
const show = opt('--show');
const recordsOut = opt('--records');
const records = [];
let answerable = 0,
  right = 0,
  unanswerable = 0,
  answered = 0,
  ms = 0;
const byType = {};
for (const d of dump) {
  const q = questions.get(d.id);
  const started = performance.now();
  const a = reader.answerNow(
    { question: d.question, answerType: q.answerType },
    d.passages.map((p) => ({
      id: p.id,
      fileId: p.fileId,
      fileName: p.fileName,
      nodeType: p.nodeType,
      text: p.text,
      headings: p.headings,
      score: p.score,
    })),
  );
  ms += performance.now() - started;
  const g = gradeAnswer(q, { found: a.found, rawValue: a.rawValue, answer: a.value ?? undefined, confidence: a.confidence });
  const type = q.answerType.dataType + (q.answerType.multiValued ? ' list' : '');
  byType[type] ??= [0, 0];
  if (q.answers.length) {
    answerable++;
    byType[type][1]++;
    if (g.right) (right++, byType[type][0]++);
  } else {
    unanswerable++;
    if (a.found) answered++;
  }
  records.push({
    id: d.id,
    type: q.answerType.dataType + (q.answerType.multiValued ? ' list' : ''),
    answerable: q.answers.length > 0,
    found: a.found,
    right: g.right,
    confidence: a.confidence,
  });
  const bad = q.answers.length ? !g.right : a.found;
  if (show === 'all' || (show === 'wrong' && bad && a.found) || (show === 'unanswered' && bad && !a.found)) {
    process.stdout.write(
      `${d.id} ${type} ${a.found ? a.confidence.toFixed(2) : '--'} | ${q.question} | got: ${a.found ? a.rawValue : '-'} | exp: ${q.answers.join('; ') || '(none)'}\n   ${(a.explanation ?? '').replace(/\s+/g, ' ').slice(0, 220)}\n`,
    );
  }
}
if (recordsOut) require('node:fs').writeFileSync(recordsOut, JSON.stringify(records));
const pct = (a, b) => (b ? ((100 * a) / b).toFixed(1) : '-');
process.stdout.write(
  `right ${pct(right, answerable)} % of ${answerable}, unanswerable answered ${pct(answered, unanswerable)} % of ${unanswerable}, ` +
    `${(ms / dump.length).toFixed(1)} ms/question\n${Object.entries(byType)
      .map(([t, [r, n]]) => `${t} ${r}/${n}`)
      .join(', ')}\n`,
);
