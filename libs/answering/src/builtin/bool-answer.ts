import type { AnswerTypeDto } from '@docintel/contracts';
import { notFound, type ReaderAnswer } from '../reader';
import { parseBoolean, statementPolarity } from '../typed/booleans';
import { formatRawValue } from '../typed/data-value';
import { porterStem } from '@docintel/retrieval';
import type { SentenceView } from './lattice';
import type { AnalyzedQuestion } from './question';

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
        const focus = (w: string) => q.terms.has(porterStem(w));
        const sentence = view.passage.text.slice(view.start, view.end);
        const negatedQuestion = !statementPolarity(question, focus).affirmative;
        return statementPolarity(sentence, focus).affirmative !== negatedQuestion;
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
