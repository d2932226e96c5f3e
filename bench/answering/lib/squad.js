'use strict';
/*
 * SQuAD v1.1 dev, read from ../shared (never copied into the repo), split by article, and scored
 * with the official evaluate-v1.1 normalisation (lower case, no punctuation, no a/an/the, single
 * spaces; EM and token F1, the max over a question's gold answers).
 */
const { readFileSync } = require('node:fs');
const { resolve } = require('node:path');

const REPO_ROOT = resolve(__dirname, '../../..');
const SQUAD_DEV = resolve(REPO_ROOT, '../shared/eval/squad-v1.1/dev-v1.1.json');

/**
 * The 48 articles in file order, alternately to the learning half (even positions) and the
 * held-out half (odd positions): no paragraph or question of a held-out article is ever learned on.
 */
function loadSquad(file = SQUAD_DEV) {
  const { data } = JSON.parse(readFileSync(file, 'utf8'));
  const halves = { learn: [], heldOut: [] };
  data.forEach((article, i) => {
    const questions = [];
    article.paragraphs.forEach((p, pi) => {
      for (const qa of p.qas) {
        questions.push({ id: qa.id, title: article.title, paragraph: pi, context: p.context, question: qa.question, answers: qa.answers });
      }
    });
    (i % 2 === 0 ? halves.learn : halves.heldOut).push({ title: article.title, questions });
  });
  return { learn: halves.learn.flatMap((a) => a.questions), heldOut: halves.heldOut.flatMap((a) => a.questions), learnTitles: halves.learn.map((a) => a.title), heldOutTitles: halves.heldOut.map((a) => a.title) };
}

function normalizeAnswer(s) {
  return s
    .toLowerCase()
    .replace(/[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g, '')
    .replace(/\b(a|an|the)\b/g, ' ')
    .split(/\s+/)
    .filter(Boolean)
    .join(' ');
}

/** How many tokens of `p` are also in `g`, each token of `g` matched once. */
function commonTokens(p, g) {
  const counts = new Map();
  for (const t of g) counts.set(t, (counts.get(t) ?? 0) + 1);
  let same = 0;
  for (const t of p) {
    const c = counts.get(t) ?? 0;
    if (c > 0) {
      same++;
      counts.set(t, c - 1);
    }
  }
  return same;
}

/** SQuAD token F1 of two lists of normalised tokens. */
function tokenF1(p, g) {
  if (!p.length || !g.length) return 0;
  const same = commonTokens(p, g);
  if (same === 0) return 0;
  const precision = same / p.length;
  const recall = same / g.length;
  return (2 * precision * recall) / (precision + recall);
}

const tokensOf = (s) => normalizeAnswer(String(s)).split(' ').filter(Boolean);

function f1(prediction, gold) {
  return tokenF1(tokensOf(prediction), tokensOf(gold));
}

/** EM and F1 of one prediction, each the max over the gold answers. */
function score(prediction, answers) {
  let em = 0;
  let best = 0;
  for (const a of answers) {
    if (normalizeAnswer(prediction) === normalizeAnswer(a.text)) em = 1;
    best = Math.max(best, f1(prediction, a.text));
  }
  return { em, f1: best };
}

/** The question's one passage: the whole paragraph, as the job engine would pass a paragraph node. */
function passageOf(q) {
  return { id: `${q.title}#${q.paragraph}`, fileId: q.title, fileName: q.title, nodeType: 'paragraph', text: q.context, headings: [], score: 1 };
}

module.exports = { SQUAD_DEV, loadSquad, normalizeAnswer, commonTokens, tokenF1, tokensOf, score, passageOf };
