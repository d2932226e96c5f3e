'use strict';
/*
 * Grading of one QA answer against a question of bench/documents/questions/*.json, and the check
 * that the text read back at an answer's citations holds the expected answer. Pure: no I/O.
 * The answer conventions are those of the question files (bench/README.md, "documents").
 */
const { commonTokens, normalizeAnswer, tokenF1, tokensOf } = require('../answering/lib/squad');
const { findNumbers } = require('@docintel/answering/dist/typed/numbers');
const { findDates } = require('@docintel/answering/dist/typed/dates');

const LENIENT_F1 = 0.5;

const tokens = tokensOf;

const f1 = (prediction, gold) => tokenF1(tokens(prediction), tokens(gold));

/** Equality of a typed value with a gold answer written per the conventions ("80863", "2024-03-01", "Yes"). */
function sameTyped(dataType, got, gold) {
  if (got === undefined || got === null) return false;
  switch (dataType) {
    case 'INT':
      return Number(got) === Number(gold);
    case 'FLOAT': {
      const a = Number(got);
      const b = Number(gold);
      return Math.abs(a - b) <= 1e-6 * Math.max(Math.abs(a), Math.abs(b)) || a === b;
    }
    case 'DATE':
      return String(got).slice(0, 10) === gold;
    case 'BOOL':
      return got === (gold.toLowerCase() === 'yes');
    case 'ENUM':
      return normalizeAnswer(String(got)) === normalizeAnswer(gold);
    default:
      return normalizeAnswer(String(got)) === normalizeAnswer(gold);
  }
}

/** The typed values of an answer: the service's parsed `answer` when it has one, else read from rawValue. */
function valuesOf(type, result) {
  const a = result.answer ?? {};
  const list = type.multiValued;
  const pick = {
    STRING: list ? a.strListValue : a.strValue,
    ENUM: list ? a.strListValue : a.strValue,
    INT: list ? a.longListValue : a.longValue,
    FLOAT: list ? (a.doubleListValue ?? a.longListValue) : (a.doubleValue ?? a.longValue),
    DATE: list ? a.dateListValue : a.dateValue,
    BOOL: list ? a.boolListValue : a.boolValue,
  }[type.dataType];
  if (pick !== undefined && pick !== null) return list ? pick : [pick];
  const raw = result.rawValue ?? '';
  if (!raw) return [];
  if (type.dataType === 'INT' || type.dataType === 'FLOAT') return findNumbers(raw).map((n) => n.value);
  if (type.dataType === 'DATE') {
    return findDates(raw)
      .filter((d) => d.precision === 'day')
      .map((d) => `${d.year}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`);
  }
  if (type.dataType === 'BOOL') return /^\s*(yes|true)\b/i.test(raw) ? [true] : /^\s*(no|false)\b/i.test(raw) ? [false] : [];
  return list ? raw.split(/\s*[;\n]\s*|\s*,\s*/).filter(Boolean) : [raw];
}

/** Greedy one-to-one matching of answer items to gold items. */
function matchItems(got, gold, same) {
  const used = new Set();
  let matched = 0;
  for (const g of got) {
    const i = gold.findIndex((x, k) => !used.has(k) && same(g, x));
    if (i >= 0) {
      used.add(i);
      matched++;
    }
  }
  return { matched, precision: got.length ? matched / got.length : 0, recall: gold.length ? matched / gold.length : 0 };
}

/**
 * The grade of one result. Answerable: `right` is the lenient grade (STRING token F1 >= 0.5, lists
 * item F1 >= 0.5, typed values exact), `exact` the strict one. Unanswerable: right iff not found.
 * `why` is null when right, else "not found", "wrong" or "answered unanswerable".
 */
function gradeAnswer(question, result) {
  const type = question.answerType;
  const found = Boolean(result && result.found);
  if (question.answers.length === 0) {
    return { answerable: false, found, right: !found, exact: !found, why: found ? 'answered unanswerable' : null };
  }
  if (!found) return { answerable: true, found, right: false, exact: false, f1: 0, why: 'not found' };
  const got = valuesOf(type, result);
  let right;
  let exact;
  let detail = {};
  if (type.multiValued) {
    const same = type.dataType === 'STRING' ? (g, x) => f1(g, x) >= LENIENT_F1 : (g, x) => sameTyped(type.dataType, g, x);
    const m = matchItems(got, question.answers, same);
    const itemF1 = m.precision + m.recall ? (2 * m.precision * m.recall) / (m.precision + m.recall) : 0;
    const strict = matchItems(got, question.answers, (g, x) => sameTyped(type.dataType === 'STRING' ? 'STRING' : type.dataType, g, x));
    right = itemF1 >= LENIENT_F1;
    exact = strict.precision === 1 && strict.recall === 1;
    detail = { precision: m.precision, recall: m.recall, f1: itemF1 };
  } else if (type.dataType === 'STRING') {
    const best = Math.max(0, ...got.flatMap((g) => question.answers.map((a) => f1(g, a))));
    right = best >= LENIENT_F1;
    exact = got.some((g) => question.answers.some((a) => normalizeAnswer(String(g)) === normalizeAnswer(a)));
    detail = { f1: best };
  } else {
    // One typed value: the first the service gave must equal one of the gold answers.
    right = got.length > 0 && question.answers.some((a) => sameTyped(type.dataType, got[0], a));
    exact = right;
  }
  return { answerable: true, found, right, exact, ...detail, why: right ? null : 'wrong' };
}

/** True when some window of the read-back tokens has token F1 >= 0.5 with the gold text, or contains it. */
function textHolds(readback, gold) {
  const r = tokens(readback);
  const g = tokens(gold);
  if (!g.length) return false;
  const joined = ` ${r.join(' ')} `;
  if (joined.includes(` ${g.join(' ')} `)) return true;
  // Windows one token shorter or longer than the gold text too: "the 2019 report" vs "2019 report".
  for (let i = 0; i < r.length; i++) {
    for (const w of [g.length - 1, g.length, g.length + 1]) {
      if (w >= 1 && i + w <= r.length && tokenF1(r.slice(i, i + w), g) >= LENIENT_F1) return true;
    }
  }
  return false;
}

/** Share of the evidence's tokens (as a multiset) present in the read-back. */
function evidenceOverlap(readback, evidence) {
  const e = tokens(evidence);
  return e.length ? commonTokens(e, tokens(readback)) / e.length : 0;
}

/**
 * Whether the text read back at an answer's citations holds the expected answer: STRING a gold
 * alternative (lists: each gold item the answer got, at least one), INT/FLOAT/DATE a number or full
 * date equal to the expected one, BOOL/ENUM at least half of the evidence quote's tokens.
 */
function citationHolds(question, readback, result) {
  const type = question.answerType;
  if (!question.answers.length || !readback) return false;
  switch (type.dataType) {
    case 'INT':
    case 'FLOAT': {
      const numbers = findNumbers(readback).map((n) => n.value);
      return question.answers.some((a) => numbers.some((n) => sameTyped(type.dataType, n, a)));
    }
    case 'DATE': {
      const dates = findDates(readback)
        .filter((d) => d.precision === 'day')
        .map((d) => `${d.year}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`);
      return question.answers.some((a) => dates.includes(a));
    }
    case 'BOOL':
    case 'ENUM':
      return evidenceOverlap(readback, question.evidence) >= 0.5;
    default: {
      if (!type.multiValued) return question.answers.some((a) => textHolds(readback, a));
      const got = result ? valuesOf(type, result) : [];
      const gotRight = question.answers.filter((a) => got.some((g) => f1(g, a) >= LENIENT_F1));
      const items = gotRight.length ? gotRight : question.answers;
      const held = items.filter((a) => textHolds(readback, a));
      return gotRight.length ? held.length === gotRight.length : held.length > 0;
    }
  }
}

module.exports = { gradeAnswer, citationHolds, textHolds, evidenceOverlap, tokenF1, f1, valuesOf, LENIENT_F1 };
