import type { AnswerTypeDto } from '@docintel/contracts';
import { notFound, type ReaderAnswer } from '../reader';
import { parseBoolean, statementPolarity } from '../typed/booleans';
import { formatRawValue } from '../typed/data-value';
import { decide, type DecisionThresholds } from './decision';
import { porterStem } from '@docintel/retrieval';
import type { SentenceView } from './lattice';
import type { AnalyzedQuestion } from './question';
import { tokenize } from './tokens';

/** A label followed by yes/no ("Automatic renewal: Yes") states the value outright. */
const STATED = /[:=]\s*(yes|no|true|false|y|n)\b/i;

function stated(view: SentenceView): { value: boolean; start: number; end: number } | null {
  const { passage } = view;
  for (const seg of view.segments) {
    const from = view.tokens[seg.from].start;
    const to = view.tokens[seg.to - 1].end;
    const value = parseBoolean(passage.text.slice(from, to));
    // A cell that is only a yes/no word, in a row whose other cells name the question's thing.
    if (value !== null && seg.to - seg.from <= 2 && view.segments.length > 1) return { value, start: from, end: to };
  }
  const text = passage.text.slice(view.start, view.end);
  const m = STATED.exec(text);
  if (m) {
    const value = parseBoolean(m[1]);
    const start = view.start + m.index + m[0].length - m[1].length;
    if (value !== null) return { value, start, end: start + m[1].length };
  }
  return null;
}

const NEGATION_END = /\b(not|never|no|none|neither)\W*$/i;
/** "however, this has been proven to be false": a clause that refutes the one before it. */
const REFUTES = /^\W*(?:however|but|yet)?\W*(?:this|that|it|which)\b[^,;]*\b(?:false|untrue|wrong|incorrect|a myth|not true)\b/i;
/** Words that take what follows out of the statement ("every continent except Antarctica"); "without" is a negation word already. */
const EXCLUDING = /^(?:except|excepting|excluding|but not|other than|apart from)$/i;

/** The clauses of a sentence: split at semicolons and at "however", "whereas", ", but". */
function clausesOf(sentence: string): string[] {
  return sentence
    .split(/;|,?\s+(?=however\b|whereas\b|but\b)/i)
    .map((c) => c.trim())
    .filter(Boolean);
}

/**
 * Whether a sentence affirms the question's statement. The clause that holds most of the question's
 * words decides (an elliptical clause, "those in the tropics are generally not", also holds the
 * words of the clause before it and denies them); a following clause that calls it false flips it,
 * and a question word after "except" is denied.
 */
export function sentencePolarity(sentence: string, q: Pick<AnalyzedQuestion, 'terms'>): boolean {
  const focus = (w: string) => q.terms.has(porterStem(w));
  const clauses = clausesOf(sentence).map((text) => {
    const tokens = tokenize(text);
    return { text, tokens, terms: new Set(tokens.filter((t) => !t.stop && q.terms.has(t.stem)).map((t) => t.stem)) };
  });
  let best = 0;
  let bestCount = -1;
  clauses.forEach((c, k) => {
    const elliptical = k > 0 && NEGATION_END.test(c.text);
    const count = elliptical ? new Set([...c.terms, ...clauses[k - 1].terms]).size : c.terms.size;
    if (count > bestCount || (elliptical && count >= bestCount)) {
      best = k;
      bestCount = count;
    }
  });
  const chosen = clauses[best];
  if (!chosen) return statementPolarity(sentence, focus).affirmative;
  let affirmative = best > 0 && NEGATION_END.test(chosen.text) ? false : statementPolarity(chosen.text, focus).affirmative;
  const { tokens } = chosen;
  const excluded = tokens.some((t, k) => {
    if (t.stop || !q.terms.has(t.stem)) return false;
    const before = tokens.slice(Math.max(0, k - 3), k).filter((b) => b.shape !== 'p');
    return before.some((b, m) => EXCLUDING.test(b.lower) || (m > 0 && EXCLUDING.test(`${before[m - 1].lower} ${b.lower}`)));
  });
  if (excluded) affirmative = !affirmative;
  const next = clauses[best + 1];
  if (next && REFUTES.test(next.text)) affirmative = !affirmative;
  return affirmative;
}

/** Words that make a statement an obligation, and words that make it a permission, an option or advice. */
const OBLIGATION = new Set(
  'must shall required require requires requirement mandatory obligatory compulsory obliged obligation need needs'.split(' '),
);
const PERMISSION = new Set(
  'may can could might optional voluntary voluntarily recommended recommend encouraged encourage should advisable discretion discretionary permitted allowed allow allows'.split(
    ' ',
  ),
);
const AUXILIARIES = new Set('is are was were be do does did can could may might must shall should will would has have had need'.split(' '));

/** Words about modality: a sentence saying "optional" or "must" addresses a question about "mandatory". */
const MODALITY = new Set([...OBLIGATION, ...PERMISSION, 'prohibited', 'forbidden', 'permit', 'permits', 'allowed']);
const MODALITY_STEMS = new Set([...MODALITY].map((w) => porterStem(w)));

/**
 * What a yes/no question predicates of its subject: the words after the subject ("mandatory" in
 * "Are the Practice Tips mandatory?", "removed" and "reused" in "Can the nut be removed and
 * reused?"). The subject is the first run of content words after the auxiliary; when that run
 * ends in a lower-case word, the word is the verb ("Does the agreement renew …"). Empty when the
 * question has no such shape.
 */
export function predicateTerms(question: string): string[] {
  const tokens = tokenize(question).filter((t) => t.shape !== 'p');
  if (!tokens.length || !AUXILIARIES.has(tokens[0].lower)) return [];
  let k = 1;
  while (k < tokens.length && tokens[k].stop) k++;
  const run: typeof tokens = [];
  while (k < tokens.length && !tokens[k].stop) run.push(tokens[k++]);
  const verb = run.length >= 2 && run[run.length - 1].shape === 'x' ? [run[run.length - 1].stem] : [];
  return [
    ...verb,
    ...tokens
      .slice(k)
      .filter((t) => !t.stop)
      .map((t) => t.stem),
  ];
}

/** Whether a sentence speaks of the question's predicate, by its words or, for a modal predicate, by any modal word. */
function addresses(view: SentenceView, predicate: readonly string[]): boolean {
  if (!predicate.length) return true;
  const stems = new Set(view.tokens.map((t) => t.stem));
  if (predicate.some((p) => stems.has(p))) return true;
  return predicate.some((p) => MODALITY_STEMS.has(p)) && [...stems].some((s) => MODALITY_STEMS.has(s));
}

/**
 * A question about an obligation ("Must the tenant …?", "Is it mandatory?") that the sentence
 * affirms only as a permission, an option or advice ("may", "optional", "recommended") is
 * answered no: that one may do a thing does not mean one must.
 */
function onlyPermitted(question: string, sentence: string): boolean {
  const asked = tokenize(question).map((t) => t.lower);
  if (!asked.some((w) => OBLIGATION.has(w))) return false;
  const said = tokenize(sentence).map((t) => t.lower);
  return said.some((w) => PERMISSION.has(w)) && !said.some((w) => OBLIGATION.has(w));
}

/**
 * A yes/no question is answered by the best-matching sentence that speaks of what the question
 * asks (its predicate): a stated yes/no when there is one, otherwise the sentence's polarity
 * around the question's words, flipped when the question itself is negative ("Is the deposit not
 * refundable?"), and "no" when it grants as a permission what the question asks as an obligation.
 */
export function answerBool(
  q: AnalyzedQuestion,
  question: string,
  type: AnswerTypeDto,
  views: SentenceView[],
  thresholds: DecisionThresholds,
): ReaderAnswer {
  const first = views[0];
  if (!first || first.coverage < thresholds.minCoverage) {
    return notFound(
      `No passage mentions enough of the question's words to say yes or no${first ? ` (best match ${Math.round(first.coverage * 100)}%)` : ''}.`,
      0,
    );
  }
  const predicate = predicateTerms(question);
  const view = views.find((v) => v.coverage >= thresholds.minCoverage && (stated(v) || addresses(v, predicate)));
  if (!view) {
    const words = tokenize(question)
      .filter((t) => !t.stop && predicate.includes(t.stem))
      .map((t) => t.text);
    return notFound(
      `The sentences that match the question best do not say whether it is ${words.join(' ')}: "${first.passage.text.slice(first.start, first.end)}".`,
      0,
    );
  }
  const where = `${view.passage.fileName}, passage ${view.passageIndex + 1}`;
  const explicit = stated(view);
  const sentence = view.passage.text.slice(view.start, view.end);
  const permissionOnly = !explicit && onlyPermitted(question, sentence);
  const value = explicit
    ? explicit.value
    : (() => {
        const negatedQuestion = !statementPolarity(question, (w) => q.terms.has(porterStem(w))).affirmative;
        const affirms = sentencePolarity(sentence, q) && !permissionOnly;
        return affirms !== negatedQuestion;
      })();
  const dataValue = type.multiValued ? { boolListValue: [value] } : { boolValue: value };
  const raw = Math.min(1, view.coverage) * (explicit ? 0.9 : 0.7);
  const decision = decide({ probability: 1, coverage: view.coverage, fit: 1 }, thresholds, raw);
  if (!decision.found) return notFound(`The best-matching sentence (${where}) is too uncertain: ${decision.reason}.`, decision.confidence);
  return {
    found: true,
    rawValue: formatRawValue(dataValue, type),
    value: dataValue,
    confidence: decision.confidence,
    explanation: explicit
      ? `The document states "${view.passage.text.slice(explicit.start, explicit.end)}" (${where}).`
      : permissionOnly
        ? `The best-matching sentence (${where}) allows it but does not require it.`
        : `Read from the polarity of the best-matching sentence (${where}); ${value ? 'it affirms' : 'it denies'} the question's statement.`,
    citations: [{ passageId: view.passage.id, start: explicit?.start ?? view.start, end: explicit?.end ?? view.end }],
  };
}
