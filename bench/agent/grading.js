'use strict';
/*
 * How an agent answer is graded against the hand-written accepted answers of questions.json.
 * An accepted answer is a string, compared after normalisation, or a regular expression written
 * "/source/flags", tested on the raw text.
 */

/** Lower case, accents and punctuation gone, whitespace collapsed: "Â£1.3m" → "a 1 3m", "dūce" → "duce". */
function normalise(text) {
  return String(text)
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** An accepted answer as a predicate over text; `within` says how much longer than it the text may be. */
function matcher(accepted, within) {
  const regex = /^\/(.+)\/([a-z]*)$/s.exec(accepted);
  if (regex) {
    const re = new RegExp(regex[1], regex[2]);
    return (text) => re.test(String(text));
  }
  const want = normalise(accepted);
  return (text) => {
    const got = normalise(text);
    if (!want || !` ${got} `.includes(` ${want} `)) return false;
    return within === undefined || got.split(' ').length - want.split(' ').length <= within;
  };
}

/**
 * An answer is right when it contains an accepted answer at word boundaries and adds at most
 * EXTRA_WORDS words around it (an extractive reader's span may keep "on" or a place with a date,
 * but a whole paragraph that happens to contain the answer does not count).
 */
const EXTRA_WORDS = 8;

function answerMatches(answer, accepted) {
  if (answer === undefined || answer === null) return false;
  const text = Array.isArray(answer) ? answer.join(', ') : String(answer);
  return accepted.some((a) => matcher(a, EXTRA_WORDS)(text));
}

/** A citation contains the answer when its text contains an accepted answer anywhere. */
function quotes(content, accepted) {
  return accepted.some((a) => matcher(a)(content ?? ''));
}

/**
 * Grades one job. A text question is one item; a structured question has one item per field of
 * its expected object. Each item: right (the answer matches) and cited (an annotation of the job
 * quotes an accepted answer). Also counted: the annotations that quote any expected answer.
 */
function grade(question, outputs, annotations) {
  const contents = annotations.map((a) => a.data?.content ?? '');
  const expectations = question.schema
    ? Object.entries(question.expected).map(([field, accepted]) => ({
        field,
        accepted,
        value: isObject(outputs?.answer) ? outputs.answer[field] : undefined,
      }))
    : [{ field: null, accepted: question.accepted, value: typeof outputs?.answer === 'string' ? outputs.answer : undefined }];
  const items = expectations.map(({ field, accepted, value }) => ({
    field,
    value: value ?? null,
    right: answerMatches(value, accepted),
    cited: contents.some((c) => quotes(c, accepted)),
  }));
  const allAccepted = expectations.flatMap((e) => e.accepted);
  return {
    items,
    annotations: contents.length,
    quotingAnnotations: contents.filter((c) => quotes(c, allAccepted)).length,
  };
}

const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Nearest-rank percentile of sorted numbers. */
function percentile(sorted, p) {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

module.exports = { normalise, answerMatches, quotes, grade, percentile, EXTRA_WORDS };
