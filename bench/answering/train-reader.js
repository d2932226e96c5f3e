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
const WARM = opt('warm', 1);
const SETTINGS = { EPOCHS, LEARNING_RATE, L2, MIN_QUESTIONS, AVERAGE, WARM };
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

/** Flat Int32Array of feature lists with offsets: list k is ids[at[k] .. at[k + 1]). */
function packLists(lists) {
  const at = new Int32Array(lists.length + 1);
  lists.forEach((l, k) => (at[k + 1] = at[k] + l.length));
  const ids = new Int32Array(at[lists.length]);
  lists.forEach((l, k) => ids.set(l, at[k]));
  return { at, ids };
}

/**
 * One question's candidates, computed once and kept for every epoch: per sentence, the feature ids
 * of each token as a span start (sentence features included) and as a span end; per span, its
 * sentence, ends, own feature ids and whether its normalised text equals a gold answer.
 */
function example(q, index) {
  const aq = analyzeQuestion({ question: q.question });
  const views = buildLattice(aq, [passageOf(q)]);
  const gold = new Set(q.answers.map((a) => answerKey(a.text)));
  const out = { views: [], sv: [], si: [], sj: [], own: null, gold: [] };
  const own = [];
  views.forEach((view, v) => {
    const sentence = view.sentenceFeatures.map((f) => index.id(f));
    out.views.push({
      starts: packLists(view.startFeatures.map((fs) => [...sentence, ...fs.map((f) => index.id(f))])),
      ends: packLists(view.endFeatures.map((fs) => fs.map((f) => index.id(f)))),
      n: view.tokens.length,
    });
    for (const [i, j] of stringSpans(view, MAX_STRING_TOKENS)) {
      const text = view.passage.text.slice(view.tokens[i].start, view.tokens[j].end);
      out.sv.push(v);
      out.si.push(i);
      out.sj.push(j);
      own.push(spanFeatures(view, i, j, aq).map((f) => index.id(f)));
      out.gold.push(gold.has(answerKey(text)) ? 1 : 0);
    }
  });
  if (!out.gold.some((g) => g)) return null;
  out.own = packLists(own);
  out.sv = Int32Array.from(out.sv);
  out.si = Int32Array.from(out.si);
  out.sj = Int32Array.from(out.sj);
  out.gold = Uint8Array.from(out.gold);
  return out;
}

function build(questions) {
  const index = new Index();
  const started = Date.now();
  const examples = [];
  for (const q of questions) {
    const ex = example(q, index);
    if (ex) examples.push(ex);
  }
  log(`${examples.length} questions with a gold span, ${index.names.length} features, built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return { index, examples };
}

function train({ index, examples }, { EPOCHS, LEARNING_RATE, L2, MIN_QUESTIONS, AVERAGE, WARM }) {
  const random = rng(20240301);
  let started = Date.now();
  const F = index.names.length;
  // Features seen in fewer than MIN_QUESTIONS learning questions are never learned.
  const seen = new Uint32Array(F);
  const mark = new Int32Array(F).fill(-1);
  examples.forEach((ex, e) => {
    const count = (ids) => {
      for (const f of ids) if (mark[f] !== e) (mark[f] = e), seen[f]++;
    };
    for (const v of ex.views) count(v.starts.ids), count(v.ends.ids);
    count(ex.own.ids);
  });
  const active = Uint8Array.from(seen, (c) => (c >= MIN_QUESTIONS ? 1 : 0));
  const w = new Float64Array(F);
  const g2 = new Float64Array(F);
  const grad = new Float64Array(F);
  const touched = new Int32Array(F);
  const stamp = new Float64Array(F);
  // Lazy averaging: sum[f] holds w[f] summed over the steps up to last[f].
  const sum = new Float64Array(F);
  const last = new Float64Array(F);
  let step = 0;
  const order = examples.map((_, i) => i);
  for (let epoch = 1; epoch <= EPOCHS; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    let loss = 0;
    started = Date.now();
    for (const e of order) {
      const ex = examples[e];
      step++;
      const sumOf = (ids, a, b) => {
        let v = 0;
        for (let k = a; k < b; k++) v += w[ids[k]];
        return v;
      };
      const S = ex.views.map(({ starts, n }) => Float64Array.from({ length: n }, (_, t) => sumOf(starts.ids, starts.at[t], starts.at[t + 1])));
      const E = ex.views.map(({ ends, n }) => Float64Array.from({ length: n }, (_, t) => sumOf(ends.ids, ends.at[t], ends.at[t + 1])));
      const m = ex.gold.length;
      const scores = new Float64Array(m);
      let max = -Infinity;
      for (let k = 0; k < m; k++) {
        scores[k] = S[ex.sv[k]][ex.si[k]] + E[ex.sv[k]][ex.sj[k]] + sumOf(ex.own.ids, ex.own.at[k], ex.own.at[k + 1]);
        if (scores[k] > max) max = scores[k];
      }
      let total = 0;
      let goldMass = 0;
      for (let k = 0; k < m; k++) {
        scores[k] = Math.exp(scores[k] - max);
        total += scores[k];
        if (ex.gold[k]) goldMass += scores[k];
      }
      loss -= Math.log(goldMass / total);
      // Gradient of -log P(gold): model expectation minus expectation under the gold-restricted distribution.
      let nt = 0;
      const add = (ids, a, b, d) => {
        for (let k = a; k < b; k++) {
          const f = ids[k];
          if (!active[f] && !(WARM && epoch === 1)) continue;
          if (stamp[f] !== step) (stamp[f] = step), (touched[nt++] = f);
          grad[f] += d;
        }
      };
      const dS = ex.views.map(({ n }) => new Float64Array(n));
      const dE = ex.views.map(({ n }) => new Float64Array(n));
      for (let k = 0; k < m; k++) {
        const d = scores[k] / total - (ex.gold[k] ? scores[k] / goldMass : 0);
        if (Math.abs(d) < 1e-9) continue;
        dS[ex.sv[k]][ex.si[k]] += d;
        dE[ex.sv[k]][ex.sj[k]] += d;
        add(ex.own.ids, ex.own.at[k], ex.own.at[k + 1], d);
      }
      ex.views.forEach(({ starts, ends, n }, v) => {
        for (let t = 0; t < n; t++) {
          if (dS[v][t]) add(starts.ids, starts.at[t], starts.at[t + 1], dS[v][t]);
          if (dE[v][t]) add(ends.ids, ends.at[t], ends.at[t + 1], dE[v][t]);
        }
      });
      for (let k = 0; k < nt; k++) {
        const f = touched[k];
        const gv = grad[f];
        grad[f] = 0;
        sum[f] += w[f] * (step - last[f]);
        last[f] = step;
        const g = gv + L2 * w[f];
        g2[f] += g * g;
        w[f] -= (LEARNING_RATE * g) / (Math.sqrt(g2[f]) + 1e-8);
      }
    }
    if (WARM && epoch === 1) for (let f = 0; f < F; f++) if (!active[f]) w[f] = 0;
    log(`epoch ${epoch}: mean loss ${(loss / examples.length).toFixed(3)}, ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  if (AVERAGE) for (let f = 0; f < F; f++) w[f] = (sum[f] + w[f] * (step - last[f])) / step;
  const weights = {};
  index.names.forEach((name, i) => {
    if (active[i] && Math.abs(w[i]) >= MIN_WEIGHT && !(name in HAND_SET_WEIGHTS)) weights[name] = Math.round(w[i] * 100) / 100;
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
  const data = build(fit);
  // --grid '[{"epochs":5},{"l2":1e-4}]': several settings learned on the same examples, each scored on the watch set.
  const grid = args.includes('--grid') ? JSON.parse(args[args.indexOf('--grid') + 1]) : [{}];
  let weights;
  for (const g of grid) {
    const settings = { ...SETTINGS, ...Object.fromEntries(Object.entries(g).map(([k, v]) => [k.toUpperCase().replace(/-/g, '_'), v])) };
    weights = train(data, settings);
    const d = evaluate(dev, weights);
    log(`watch set: EM ${d.em.toFixed(1)} F1 ${d.f1.toFixed(1)}, ${Object.keys(weights).length} weights; ${JSON.stringify(g)}`);
  }
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
