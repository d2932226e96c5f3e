import type { AnswerTypeDto } from '@docintel/contracts';
import { notFound, type ReaderAnswer } from '../reader';
import { parseBoolean, statementPolarity } from '../typed/booleans';
import { formatRawValue } from '../typed/data-value';
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

/**
 * A yes/no question is answered by the sentence that matches it best: a stated yes/no when there
 * is one, otherwise the sentence's polarity around the question's words, flipped when the question
 * itself is negative ("Is the deposit not refundable?").
 */
export function answerBool(
  q: AnalyzedQuestion,
  question: string,
  type: AnswerTypeDto,
  views: SentenceView[],
  minCoverage: number,
): ReaderAnswer {
  const view = views[0];
  if (!view || view.coverage < minCoverage) {
    return notFound(
      `No passage mentions enough of the question's words to say yes or no${view ? ` (best match ${Math.round(view.coverage * 100)}%)` : ''}.`,
      view?.coverage ?? 0,
    );
  }
  const where = `${view.passage.fileName}, passage ${view.passageIndex + 1}`;
  const explicit = stated(view);
  const value = explicit
    ? explicit.value
    : (() => {
        const negatedQuestion = !statementPolarity(question, (w) => q.terms.has(porterStem(w))).affirmative;
        return sentencePolarity(view.passage.text.slice(view.start, view.end), q) !== negatedQuestion;
      })();
  const dataValue = type.multiValued ? { boolListValue: [value] } : { boolValue: value };
  const confidence = Math.min(1, view.coverage) * (explicit ? 0.9 : 0.7);
  return {
    found: true,
    rawValue: formatRawValue(dataValue, type),
    value: dataValue,
    confidence,
    explanation: explicit
      ? `The document states "${view.passage.text.slice(explicit.start, explicit.end)}" (${where}).`
      : `Read from the polarity of the best-matching sentence (${where}); ${value ? 'it affirms' : 'it denies'} the question's statement.`,
    citations: [{ passageId: view.passage.id, start: explicit?.start ?? view.start, end: explicit?.end ?? view.end }],
  };
}
