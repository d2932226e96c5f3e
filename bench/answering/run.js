#!/usr/bin/env node
/*
 * The built-in answering engine on two benchmarks, after `npm run build`:
 *   node bench/answering/run.js [--no-write] [--limit N]
 *   node bench/answering/run.js --choose-threshold   (learning half only: the default minConfidence)
 * 1. SQuAD v1.1 dev, held-out half (the odd-numbered articles; the weights were learned on the
 *    even-numbered ones by train-reader.js): EM and F1 with the official normalisation.
 *    Abstention with the reader's default thresholds: each held-out question over its own
 *    paragraph (share answered, F1 on those) and over another article's (share answered: should be 0).
 * 2. Typed answers (INT, FLOAT, DATE, BOOL, ENUM) on the hand-written typed-questions.json.
 * Rewrites the section between <!-- answering:start --> and <!-- answering:end --> of
 * docs/benchmarks.md and leaves a JSON record in bench/results/. Exit code: 0 targets met, 2 a
 * target missed, 1 the run failed.
 */
'use strict';
// The library's index also loads the LLM reader, whose config classes need decorator metadata.
require('reflect-metadata');
const { mkdirSync, writeFileSync } = require('node:fs');
const { join, resolve } = require('node:path');
const { loadavg } = require('node:os');
const { BuiltinReader, LEARNED_WEIGHTS_INFO, DEFAULT_THRESHOLDS: DEFAULTS } = require('@docintel/answering');
const { machineInfo } = require('../lib/machine');
const { writeSection } = require('../lib/markdown-section');
const { loadSquad, passageOf, score } = require('./lib/squad');
const { runTyped } = require('./lib/typed');
const { askBoth, summarise, chooseThreshold } = require('./lib/abstention');

const REPO_ROOT = resolve(__dirname, '../..');
const DOC = join(REPO_ROOT, 'docs/benchmarks.md');
/** The brief's goal: above the logistic-regression anchor of Rajpurkar et al. (51.0 F1) by a margin. */
const TARGET_F1 = 55;
const args = process.argv.slice(2);
const limitAt = args.indexOf('--limit');
const LIMIT = limitAt >= 0 ? Number(args[limitAt + 1]) : Infinity;
const log = (line) => process.stdout.write(`[bench:answering] ${line}\n`);

function runSquad(reader, questions) {
  let em = 0;
  let f1 = 0;
  let found = 0;
  const started = process.hrtime.bigint();
  for (const q of questions) {
    // SQuAD v1.1 always has an answer in the paragraph, so the reader is asked never to abstain.
    const a = reader.answerNow({ question: q.question, answerType: { dataType: 'STRING', multiValued: false } }, [passageOf(q)]);
    const s = score(a.rawValue, q.answers);
    em += s.em;
    f1 += s.f1;
    if (a.found) found++;
  }
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const n = questions.length;
  return { questions: n, em: (100 * em) / n, f1: (100 * f1) / n, found, msPerQuestion: ms / n };
}

/** 50 passages per question, as the job engine sends at most: the time the reader takes at its limit. */
function runLatency(reader, questions) {
  const sample = questions.filter((_, i) => i % 50 === 0).slice(0, 100);
  const pool = questions.map(passageOf).filter((p, i, all) => all.findIndex((o) => o.id === p.id) === i);
  const started = process.hrtime.bigint();
  for (const [k, q] of sample.entries()) {
    const others = pool.filter((p) => p.id !== passageOf(q).id).slice(k, k + 49);
    reader.answerNow({ question: q.question, answerType: { dataType: 'STRING', multiValued: false } }, [passageOf(q), ...others]);
  }
  return { questions: sample.length, msPerQuestion: Number(process.hrtime.bigint() - started) / 1e6 / sample.length };
}

const pct = (x) => x.toFixed(1);

function markdown(r, machine) {
  const typedRows = Object.entries(r.typed.perType)
    .map(([type, t]) => `| ${type} | ${t.total} | ${t.right} | ${pct((100 * t.right) / t.total)}% | ${t.notFound} |`)
    .join('\n');
  return `## Answering: the built-in extractive reader

\`npm run build && node bench/answering/run.js\` (bench/answering/run.js) on ${machine.cpu} (${machine.cores} cores,
${machine.memoryGiB} GiB), ${machine.os}, Node ${machine.node}, ${machine.date}; load average ${r.load.start.toFixed(1)} / ${r.load.end.toFixed(1)}
(1 min, at start / end). One thread; times include sentence splitting, candidate generation and scoring.

**SQuAD v1.1 dev, held-out half.** The 48 articles in file order go alternately to a learning half
(even positions, ${r.learnArticles} articles) and a held-out half (odd positions, ${r.heldOutArticles} articles); the weights
(${LEARNED_WEIGHTS_INFO.features} features) were learned by \`node bench/answering/train-reader.js\` on ${LEARNED_WEIGHTS_INFO.questions} questions of the learning half only, and
the numbers below are on the held-out half alone. Learning maximises the probability of the spans that equal a gold
answer, with partial credit (${LEARNED_WEIGHTS_INFO.soft ?? 0} × token F1) for spans that overlap one; the reader answers a
STRING question with the span of highest expected F1 against its 40 likeliest answers (minimum-risk decoding).
Features and training settings were chosen on a watch set (a tenth of the learning half, left out of learning while
choosing); the held-out half is only run to report, never to tune. The reader's idf table (word-idf.ts) also
comes from the learning half's paragraphs. Each question gets its paragraph as its one passage, answerType STRING;
the reader may not abstain (minConfidence 0), since every SQuAD v1.1 question has an answer. Official
evaluate-v1.1 normalisation, max over the gold answers.

| system | questions | EM | F1 | ms / question |
|---|---|---|---|---|
| builtin reader (held-out half) | ${r.squad.questions} | ${pct(r.squad.em)} | **${pct(r.squad.f1)}** | ${r.squad.msPerQuestion.toFixed(2)} |
| builtin reader, 50 passages per question (latency only) | ${r.latency.questions} | – | – | ${r.latency.msPerQuestion.toFixed(2)} |
| sliding window (Rajpurkar et al. 2016, test) | | ≈12.5 | ≈19.7 | |
| logistic regression (Rajpurkar et al. 2016, dev) | | 40.0 | 51.0 | |
| BERT-base (Devlin et al. 2019, dev) | | 80.8 | 88.5 | |

Target: F1 above ${TARGET_F1} on the held-out half: **${r.squad.f1 > TARGET_F1 ? 'met' : 'missed'}**.

**Abstention, held-out half, default thresholds** (\`new BuiltinReader()\`: minConfidence ${DEFAULTS.minConfidence}, minCoverage ${DEFAULTS.minCoverage}).
Each question is asked twice: over its own paragraph, where SQuAD v1.1 always has the answer, and over the paragraph of
another article (the question halfway round the held-out list), where it has none and the reader should say not found.
The default minConfidence was chosen on the learning half (\`node bench/answering/run.js --choose-threshold\`: the best
utility, +1 for an answer with F1 ≥ 0.5 over its own paragraph, −1 for one below 0.5 or any answer over another
article's paragraph, 0 for a withheld one).

| asked over | questions | answered (found) | F1 on answered |
|---|---|---|---|
| its own paragraph | ${r.abstention.questions} | ${pct(100 * r.abstention.ownAnswered)}% | ${pct(r.abstention.f1OnAnswered)} |
| another article's paragraph | ${r.abstention.questions} | ${pct(100 * r.abstention.otherAnswered)}% | – |

**Typed answers.** ${r.typed.total} hand-written questions (bench/answering/typed-questions.json) over short excerpts of
documents of ../shared/corpus (a footballer's biography, a 1995 SEC prospectus, the Wikipedia article on ducks, rows of
Apple's XBRL facts); each question is asked over all the excerpts of its document. Right when the typed value equals the
expected one; a not-found answer counts as wrong.

| answerType | questions | right | accuracy | not found |
|---|---|---|---|---|
${typedRows}
| all | ${r.typed.total} | ${r.typed.right} | ${pct((100 * r.typed.right) / r.typed.total)}% | |

${r.typed.msPerQuestion.toFixed(2)} ms per typed question.`;
}

/** Sweeps minConfidence on the learning half (never the held-out half) and prints the mixed accuracy of each. */
function chooseOnLearningHalf() {
  const { learn } = loadSquad();
  const rows = askBoth(new BuiltinReader({ minConfidence: 0 }), learn.slice(0, LIMIT));
  const { best, table } = chooseThreshold(rows);
  for (const t of table)
    log(`minConfidence ${t.threshold.toFixed(2)}: own answered ${pct(100 * t.ownAnswered)}% (F1 ${pct(t.f1OnAnswered)}), other answered ${pct(100 * t.otherAnswered)}%, utility ${t.utility.toFixed(3)}`);
  log(`best: ${best.threshold}`);
  return 0;
}

async function main() {
  if (args.includes('--choose-threshold')) return chooseOnLearningHalf();
  const load = { start: loadavg()[0], end: 0 };
  const machine = machineInfo();
  const { heldOut, learnTitles, heldOutTitles } = loadSquad();
  const reader = new BuiltinReader({ minConfidence: 0, minCoverage: 0 });
  const questions = heldOut.slice(0, LIMIT);
  log(`SQuAD held-out half: ${questions.length} questions`);
  const squad = runSquad(reader, questions);
  log(`EM ${pct(squad.em)} F1 ${pct(squad.f1)}, ${squad.msPerQuestion.toFixed(2)} ms per question`);
  const abstention = summarise(askBoth(new BuiltinReader(), questions));
  log(`abstention (defaults): own paragraph answered ${pct(100 * abstention.ownAnswered)}% with F1 ${pct(abstention.f1OnAnswered)}; another article's answered ${pct(100 * abstention.otherAnswered)}%`);
  const latency = runLatency(reader, questions);
  log(`50 passages: ${latency.msPerQuestion.toFixed(2)} ms per question`);
  const typed = await runTyped(new BuiltinReader());
  for (const row of typed.rows.filter((x) => !x.ok)) log(`typed miss: ${row.type} "${row.question}" expected ${JSON.stringify(row.expected)} got ${row.found ? JSON.stringify(row.got) : 'not found'}`);
  log(`typed: ${typed.right}/${typed.total}`);
  load.end = loadavg()[0];
  const result = { squad, abstention, latency, typed, load, learnArticles: learnTitles.length, heldOutArticles: heldOutTitles.length, pass: squad.f1 > TARGET_F1 };
  const md = markdown(result, machine);
  process.stdout.write(`\n${md}\n\n`);
  mkdirSync(join(REPO_ROOT, 'bench/results'), { recursive: true });
  writeFileSync(join(REPO_ROOT, 'bench/results', `answering-${machine.date.replace(/:/g, '-')}.json`), JSON.stringify({ machine, result }, null, 2));
  if (!args.includes('--no-write') && LIMIT === Infinity) {
    writeSection(DOC, 'answering', md);
    log('updated docs/benchmarks.md (section answering)');
  }
  return result.pass ? 0 : 2;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`benchmark failed: ${err.stack || err.message}\n`);
    process.exitCode = 1;
  },
);
