#!/usr/bin/env node
/*
 * Learns the built-in reader's weights on the learning half of SQuAD v1.1 dev (the even-numbered
 * articles; the odd ones are held out for bench/answering/squad.js) and writes them to
 * libs/answering/src/builtin/model-weights.ts.
 *   npm run build && node bench/answering/train-reader.js [--all] [--epochs 3] [--min-questions 20] [--dry-run] [--json FILE]
 * The model is a log-linear (multinomial logistic) model over every candidate span of a question:
 * the probability of a span is softmax(w · features); learning maximises the probability of the
 * spans whose normalised text equals a gold answer, with AdaGrad and a small L2 penalty.
 * Deterministic: questions are shuffled with a fixed seed.
 */
'use strict';
// The library's index also loads the LLM reader, whose config classes need decorator metadata.
require('reflect-metadata');
const { renameSync, writeFileSync } = require('node:fs');
const { resolve } = require('node:path');
const { analyzeQuestion, buildLattice, spanFeatures, stringSpans, answerKey, MAX_STRING_TOKENS, LinearModel, HAND_SET_WEIGHTS, BuiltinReader } = require('@docintel/answering');
const { loadSquad, passageOf, score } = require('./lib/squad');

const OUT = resolve(__dirname, '../../libs/answering/src/builtin/model-weights.ts');
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : dflt;
};
const EPOCHS = opt('epochs', 3);
const LEARNING_RATE = opt('lr', 0.1);
const L2 = opt('l2', 1e-5);
const MIN_WEIGHT = 0.01;
/** Features seen in fewer learning questions than this are dropped after the first epoch: rare lexical features only memorise. */
const MIN_QUESTIONS = opt('min-questions', 20);
/** 1: write the average of the weights over all updates instead of the last ones (did not help on the watch set: −2 F1). */
const AVERAGE = opt('average', 0);
const log = (line) => process.stdout.write(`[train] ${line}\n`);

function rng(seed) {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

/** Feature names to dense indices, growing as new ones appear. */
class Index {
  constructor() {
    this.ids = new Map();
    this.names = [];
  }
  id(name) {
    let i = this.ids.get(name);
    if (i === undefined) {
      i = this.names.length;
      this.ids.set(name, i);
      this.names.push(name);
    }
    return i;
  }
}

/** One question's candidates: feature ids of each span's start, end and own features, and which spans are gold. */
function example(q, index) {
  const aq = analyzeQuestion({ question: q.question });
  const views = buildLattice(aq, [passageOf(q)]);
  const gold = new Set(q.answers.map((a) => answerKey(a.text)));
  const spans = [];
  for (const view of views) {
    const sentence = view.sentenceFeatures.map((f) => index.id(f));
    const starts = view.startFeatures.map((fs) => [...sentence, ...fs.map((f) => index.id(f))]);
    const ends = view.endFeatures.map((fs) => fs.map((f) => index.id(f)));
    for (const [i, j] of stringSpans(view, MAX_STRING_TOKENS)) {
      const text = view.passage.text.slice(view.tokens[i].start, view.tokens[j].end);
      spans.push({ start: starts[i], end: ends[j], own: spanFeatures(view, i, j, aq).map((f) => index.id(f)), gold: gold.has(answerKey(text)) });
    }
  }
  return spans.some((s) => s.gold) ? spans : null;
}

function train(questions) {
  const index = new Index();
  let w = new Float64Array(1 << 16);
  let g2 = new Float64Array(1 << 16);
  let seen = new Uint32Array(1 << 16);
  // Lazy averaging: sum[f] holds w[f] summed over the steps up to last[f].
  let sum = new Float64Array(1 << 16);
  let last = new Float64Array(1 << 16);
  let step = 0;
  const random = rng(20240301);
  const order = questions.map((_, i) => i);
  for (let epoch = 1; epoch <= EPOCHS; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    let loss = 0;
    let used = 0;
    const started = Date.now();
    for (const qi of order) {
      const spans = example(questions[qi], index);
      if (!spans) continue;
      if (index.names.length > w.length) {
        const grow = (a) => Float64Array.from({ length: a.length * 2 }, (_, k) => a[k] ?? 0);
        w = grow(w);
        g2 = grow(g2);
        seen = Uint32Array.from({ length: seen.length * 2 }, (_, k) => seen[k] ?? 0);
        sum = grow(sum);
        last = grow(last);
      }
      used++;
      step++;
      const scores = spans.map((s) => {
        let v = 0;
        for (const f of s.start) v += w[f];
        for (const f of s.end) v += w[f];
        for (const f of s.own) v += w[f];
        return v;
      });
      const max = Math.max(...scores);
      const p = scores.map((v) => Math.exp(v - max));
      const total = p.reduce((a, b) => a + b, 0);
      const goldMass = spans.reduce((a, s, k) => a + (s.gold ? p[k] : 0), 0);
      loss -= Math.log(goldMass / total);
      // Gradient of -log P(gold): model expectation minus expectation under the gold-restricted distribution.
      const grad = new Map();
      const add = (f, v) => grad.set(f, (grad.get(f) ?? 0) + v);
      spans.forEach((s, k) => {
        const d = p[k] / total - (s.gold ? p[k] / goldMass : 0);
        if (Math.abs(d) < 1e-9) return;
        for (const f of s.start) add(f, d);
        for (const f of s.end) add(f, d);
        for (const f of s.own) add(f, d);
      });
      for (const [f, gv] of grad) {
        if (epoch === 1) seen[f]++;
        else if (seen[f] < MIN_QUESTIONS) continue;
        sum[f] += w[f] * (step - last[f]);
        last[f] = step;
        const g = gv + L2 * w[f];
        g2[f] += g * g;
        w[f] -= (LEARNING_RATE * g) / (Math.sqrt(g2[f]) + 1e-8);
      }
    }
    if (epoch === 1) {
      for (let f = 0; f < index.names.length; f++) if (seen[f] < MIN_QUESTIONS) w[f] = 0;
    }
    log(`epoch ${epoch}: ${used} questions with a gold span, mean loss ${(loss / used).toFixed(3)}, ${((Date.now() - started) / 1000).toFixed(1)} s, ${index.names.length} features`);
  }
  if (AVERAGE) for (let f = 0; f < index.names.length; f++) w[f] = (sum[f] + w[f] * (step - last[f])) / step;
  const weights = {};
  index.names.forEach((name, i) => {
    if (seen[i] >= MIN_QUESTIONS && Math.abs(w[i]) >= MIN_WEIGHT && !(name in HAND_SET_WEIGHTS)) weights[name] = Math.round(w[i] * 100) / 100;
  });
  return weights;
}

function evaluate(questions, weights) {
  const reader = new BuiltinReader({ model: new LinearModel(weights, HAND_SET_WEIGHTS), minConfidence: 0, minCoverage: 0 });
  let em = 0;
  let f1 = 0;
  for (const q of questions) {
    const a = reader.answerNow({ question: q.question, answerType: { dataType: 'STRING', multiValued: false } }, [passageOf(q)]);
    const s = score(a.rawValue, q.answers);
    em += s.em;
    f1 += s.f1;
  }
  return { em: (100 * em) / questions.length, f1: (100 * f1) / questions.length };
}

/**
 * The weights as a TypeScript module, compactly: grouped by feature template and conjunct ("sw=…|who"
 * holds "Cap 0.52\nthe -0.3" for sw=Cap|who and sw=the|who), a third of the size of one entry per
 * feature. model.ts reads it back (`decodeWeights`).
 */
function weightsModule(entries, info) {
  const groups = new Map();
  for (const [name, value] of entries) {
    const eq = name.indexOf('=');
    const prefix = eq >= 0 ? name.slice(0, eq + 1) : '';
    const bar = name.lastIndexOf('|');
    const suffix = bar > eq ? name.slice(bar) : '';
    const key = `${prefix}…${suffix}`;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(`${name.slice(prefix.length, name.length - suffix.length)} ${value}`);
  }
  const body = [...groups].map(([key, lines]) => `  ${JSON.stringify(key)}: ${JSON.stringify(lines.join('\n'))},`).join('\n');
  return (
    `// Generated by bench/answering/train-reader.js; do not edit by hand.\n` +
    `export const LEARNED_WEIGHTS_INFO = ${JSON.stringify(info)};\n` +
    `/** Weights by feature template: "prefix…suffix" → lines of "middle weight" (see decodeWeights in model.ts). */\n` +
    `export const LEARNED_WEIGHT_GROUPS: Readonly<Record<string, string>> = {\n${body}\n};\n`
  );
}

function main() {
  const { learn } = loadSquad();
  // A tenth of the learning half (whole articles are not needed here: it only watches for overfitting).
  // --all: the final model learns on the whole learning half (the watch set then tells nothing).
  const dev = learn.filter((_, i) => i % 10 === 0);
  const fit = args.includes('--all') ? learn : learn.filter((_, i) => i % 10 !== 0);
  log(`learning on ${fit.length} questions of the even-numbered articles, watching ${dev.length}`);
  const weights = train(fit);
  const d = evaluate(dev, weights);
  log(`watch set: EM ${d.em.toFixed(1)} F1 ${d.f1.toFixed(1)}, ${Object.keys(weights).length} weights`);
  // --json FILE: the weights as JSON too, for looking at errors on the watch set.
  const json = args.indexOf('--json');
  if (json >= 0) writeFileSync(args[json + 1], JSON.stringify(weights));
  if (args.includes('--dry-run')) return;
  const entries = Object.entries(weights).sort(([a], [b]) => (a < b ? -1 : 1));
  // Written beside and renamed, so that a build never sees half a file.
  writeFileSync(`${OUT}.tmp`, weightsModule(entries, { trainedOn: 'SQuAD v1.1 dev, even-numbered articles (24 of 48)', questions: fit.length, features: entries.length, epochs: EPOCHS, minQuestions: MIN_QUESTIONS }));
  renameSync(`${OUT}.tmp`, OUT);
  log(`wrote ${entries.length} weights to ${OUT}`);
}

if (require.main === module) main();

module.exports = { weightsModule };
