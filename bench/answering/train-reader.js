#!/usr/bin/env node
/*
 * Learns the built-in reader's weights on the learning half of SQuAD v1.1 dev (the even-numbered
 * articles; the odd ones are held out for bench/answering/squad.js) and writes them to
 * libs/answering/src/builtin/model-weights.ts.
 *   npm run build && node bench/answering/train-reader.js [--all] [--epochs 3] [--soft 0.5] [--min-questions 20] [--dry-run] [--json FILE] [--grid JSON]
 * The model is a log-linear (multinomial logistic) model over every candidate span of a question:
 * the probability of a span is softmax(w · features); learning maximises the probability mass of
 * the spans that answer, with AdaGrad and a small L2 penalty: a span whose normalised text equals
 * a gold answer counts 1, any other span SOFT times its token F1 with the gold answers, so that a
 * span that is nearly right is not pushed down as hard as one that is wrong. The examples (feature
 * ids of every span) are built once and kept for all epochs. Deterministic: questions are shuffled
 * with a fixed seed.
 */
'use strict';
// The library's index also loads the LLM reader, whose config classes need decorator metadata.
require('reflect-metadata');
const { renameSync, writeFileSync } = require('node:fs');
const { resolve } = require('node:path');
const { analyzeQuestion, buildLattice, spanFeatures, stringSpans, answerKey, MAX_STRING_TOKENS, LinearModel, HAND_SET_WEIGHTS, BuiltinReader } = require('@docintel/answering');
const { loadSquad, passageOf, score, normalizeAnswer } = require('./lib/squad');

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
/** Features seen in fewer learning questions than this are never learned: rare lexical features only memorise. */
const MIN_QUESTIONS = opt('min-questions', 20);
/** 1: write the average of the weights over all updates instead of the last ones (did not help on the watch set: −2 F1). */
const AVERAGE = opt('average', 0);
/** Weight, beside an exact gold span's 1, of a span by its F1 with the gold answers in the learning target (0: exact spans only). */
const SOFT = opt('soft', 0.5);
const SETTINGS = { EPOCHS, LEARNING_RATE, L2, MIN_QUESTIONS, AVERAGE, SOFT };
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
function example(q, index, keepText = false) {
  const aq = analyzeQuestion({ question: q.question });
  const views = buildLattice(aq, [passageOf(q)]);
  const gold = new Set(q.answers.map((a) => answerKey(a.text)));
  const out = { views: [], sv: [], si: [], sj: [], own: null, gold: [], f1: [] };
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
      out.f1.push(score(text, q.answers).f1);
      if (keepText) (out.texts ??= []).push(text);
    }
  });
  if (!out.gold.some((g) => g)) return null;
  out.own = packLists(own);
  out.sv = Int32Array.from(out.sv);
  out.si = Int32Array.from(out.si);
  out.sj = Int32Array.from(out.sj);
  out.gold = Uint8Array.from(out.gold);
  out.f1 = Float32Array.from(out.f1);
  return out;
}

function build(questions, watch) {
  const index = new Index();
  const started = Date.now();
  const examples = [];
  for (const q of questions) {
    const ex = example(q, index);
    if (ex) examples.push(ex);
  }
  log(`${examples.length} questions with a gold span, ${index.names.length} features, built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  // The watch set's examples too, for its mean loss: a steadier guide than its F1 on 540 questions.
  const watched = watch.map((q) => {
    const ex = example(q, index, true);
    if (ex) ex.answers = q.answers;
    return ex;
  }).filter(Boolean);
  return { index, examples, watched };
}

/** Probabilities of an example's spans under weights w (in place of the returned array). */
function spanProbabilities(ex, w) {
  const sumOf = (ids, a, b) => {
    let v = 0;
    for (let k = a; k < b; k++) v += w[ids[k]];
    return v;
  };
  const S = ex.views.map(({ starts, n }) => Float64Array.from({ length: n }, (_, t) => sumOf(starts.ids, starts.at[t], starts.at[t + 1])));
  const E = ex.views.map(({ ends, n }) => Float64Array.from({ length: n }, (_, t) => sumOf(ends.ids, ends.at[t], ends.at[t + 1])));
  const m = ex.gold.length;
  const p = new Float64Array(m);
  let max = -Infinity;
  for (let k = 0; k < m; k++) {
    p[k] = S[ex.sv[k]][ex.si[k]] + E[ex.sv[k]][ex.sj[k]] + sumOf(ex.own.ids, ex.own.at[k], ex.own.at[k + 1]);
    if (p[k] > max) max = p[k];
  }
  let total = 0;
  for (let k = 0; k < m; k++) total += p[k] = Math.exp(p[k] - max);
  for (let k = 0; k < m; k++) p[k] /= total;
  return p;
}

/** Watch-set F1 of three ways to pick the answer from the span probabilities. */
function decoders(examples, w) {
  const r = { argmax: 0, keySum: 0, mbr: 0 };
  const toks = (t) => normalizeAnswer(t).split(' ').filter(Boolean);
  const f1 = (a, b) => {
    if (!a.length || !b.length) return a.length === b.length ? 1 : 0;
    const c = new Map();
    for (const t of b) c.set(t, (c.get(t) ?? 0) + 1);
    let same = 0;
    for (const t of a) if ((c.get(t) ?? 0) > 0) same++, c.set(t, c.get(t) - 1);
    return same ? (2 * same) / (a.length + b.length) : 0;
  };
  for (const ex of examples) {
    const p = spanProbabilities(ex, w);
    const order = [...p.keys()].sort((a, b) => p[b] - p[a]).slice(0, 40);
    r.argmax += score(ex.texts[order[0]], ex.answers).f1;
    const mass = new Map();
    for (const k of order) mass.set(answerKey(ex.texts[k]), (mass.get(answerKey(ex.texts[k])) ?? 0) + p[k]);
    const bestKey = order.reduce((b, k) => (mass.get(answerKey(ex.texts[k])) > mass.get(answerKey(ex.texts[b])) ? k : b), order[0]);
    r.keySum += score(ex.texts[bestKey], ex.answers).f1;
    const tk = order.map((k) => toks(ex.texts[k]));
    let best = order[0];
    let bestGain = -1;
    order.forEach((k, a) => {
      let gain = 0;
      order.forEach((l, b) => (gain += p[l] * f1(tk[a], tk[b])));
      if (gain > bestGain) (bestGain = gain), (best = k);
    });
    r.mbr += score(ex.texts[best], ex.answers).f1;
  }
  for (const k of Object.keys(r)) r[k] = ((100 * r[k]) / examples.length).toFixed(1);
  return r;
}

function meanLoss(examples, w) {
  let loss = 0;
  let top = 0;
  for (const ex of examples) {
    const p = spanProbabilities(ex, w);
    let gold = 0;
    let best = 0;
    for (let k = 0; k < p.length; k++) {
      if (ex.gold[k]) gold += p[k];
      if (p[k] > p[best]) best = k;
    }
    loss -= Math.log(Math.max(gold, 1e-12));
    top += ex.gold[best];
  }
  return { loss: loss / examples.length, top: (100 * top) / examples.length };
}

function train({ index, examples, watched }, { EPOCHS, LEARNING_RATE, L2, MIN_QUESTIONS, AVERAGE, SOFT }) {
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
      const target = (k) => (ex.gold[k] ? 1 : SOFT * ex.f1[k]);
      for (let k = 0; k < m; k++) {
        scores[k] = Math.exp(scores[k] - max);
        total += scores[k];
        goldMass += scores[k] * target(k);
      }
      loss -= Math.log(goldMass / total);
      // Gradient of -log P(gold): model expectation minus expectation under the gold-restricted distribution.
      let nt = 0;
      const add = (ids, a, b, d) => {
        for (let k = a; k < b; k++) {
          const f = ids[k];
          if (!active[f]) continue;
          if (stamp[f] !== step) (stamp[f] = step), (touched[nt++] = f);
          grad[f] += d;
        }
      };
      const dS = ex.views.map(({ n }) => new Float64Array(n));
      const dE = ex.views.map(({ n }) => new Float64Array(n));
      for (let k = 0; k < m; k++) {
        const d = scores[k] / total - (scores[k] * target(k)) / goldMass;
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
    const wl = meanLoss(watched, w);
    log(`epoch ${epoch}: mean loss ${(loss / examples.length).toFixed(3)}, watch loss ${wl.loss.toFixed(3)} top ${wl.top.toFixed(1)}, ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  if (AVERAGE) for (let f = 0; f < F; f++) w[f] = (sum[f] + w[f] * (step - last[f])) / step;
  log(`watch F1 by decoder: ${JSON.stringify(decoders(watched, w))}`);
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
  const data = build(fit, dev);
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
  writeFileSync(`${OUT}.tmp`, weightsModule(entries, { trainedOn: 'SQuAD v1.1 dev, even-numbered articles (24 of 48)', questions: fit.length, features: entries.length, epochs: EPOCHS, minQuestions: MIN_QUESTIONS, soft: SOFT }));
  renameSync(`${OUT}.tmp`, OUT);
  log(`wrote ${entries.length} weights to ${OUT}`);
}

if (require.main === module) main();

module.exports = { weightsModule };
