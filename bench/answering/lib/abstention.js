'use strict';
/*
 * Abstention on SQuAD v1.1: each question asked over its own paragraph (it has an answer there) and
 * over a paragraph of another article (it has none). A reader that abstains well answers the first
 * and withholds the second.
 */
const { passageOf, score } = require('./squad');

const STRING = { dataType: 'STRING', multiValued: false };

/** A paragraph of another article for question i: the question halfway round the list, skipping its own article. */
function otherPassage(questions, i) {
  const n = questions.length;
  for (let k = Math.floor(n / 2); k < n + Math.floor(n / 2); k++) {
    const o = questions[(i + k) % n];
    if (o.title !== questions[i].title) return passageOf(o);
  }
  throw new Error('every question is of the same article');
}

/** Per question: the answer over its own paragraph (confidence, found, F1) and over another article's. */
function askBoth(reader, questions) {
  return questions.map((q, i) => {
    const own = reader.answerNow({ question: q.question, answerType: STRING }, [passageOf(q)]);
    const other = reader.answerNow({ question: q.question, answerType: STRING }, [otherPassage(questions, i)]);
    return {
      own: { found: own.found, confidence: own.confidence, f1: score(own.rawValue, q.answers).f1 },
      other: { found: other.found, confidence: other.confidence },
    };
  });
}

/** Share answered over the own paragraph, F1 on those answered, and share answered over another article's. */
function summarise(rows, threshold) {
  const answered = (a) => a.found && (threshold === undefined || a.confidence >= threshold);
  const own = rows.filter((r) => answered(r.own));
  const f1 = own.reduce((s, r) => s + r.own.f1, 0);
  return {
    questions: rows.length,
    ownAnswered: own.length / rows.length,
    f1OnAnswered: own.length ? (100 * f1) / own.length : 0,
    otherAnswered: rows.filter((r) => answered(r.other)).length / rows.length,
    // Per question asked twice: +1 for an answer with F1 >= 0.5, -1 for one below or one over another
    // article's paragraph, 0 for a withheld answer: a wrong answer costs what a right one gains.
    utility:
      (own.filter((r) => r.own.f1 >= 0.5).length -
        own.filter((r) => r.own.f1 < 0.5).length -
        rows.filter((r) => answered(r.other)).length) /
      (2 * rows.length),
  };
}

/** The threshold of best utility among 0.05, 0.10, … 0.60 (ties: the lower). */
function chooseThreshold(rows) {
  let best = { threshold: 0, utility: -Infinity };
  const table = [];
  for (let t = 0.05; t <= 0.601; t += 0.05) {
    const s = { threshold: Number(t.toFixed(2)), ...summarise(rows, t) };
    table.push(s);
    if (s.utility > best.utility) best = s;
  }
  return { best, table };
}

module.exports = { askBoth, summarise, chooseThreshold, otherPassage };
