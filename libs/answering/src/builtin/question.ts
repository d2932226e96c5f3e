import type { ReaderQuestion } from '../reader';
import { tokenize, type Token } from './tokens';

/**
 * What the question asks for, from its wh-word: the classes the reader's features are conjoined
 * with, so that "when" learns to like dates and "who" capitalised names.
 */
export type QuestionType =
  'who' | 'when' | 'year' | 'where' | 'why' | 'howmany' | 'howmuch' | 'howlong' | 'howadj' | 'how' | 'which' | 'what' | 'other';

export interface AnalyzedQuestion {
  tokens: Token[];
  type: QuestionType;
  /** The noun the wh-word asks about ("what year" → year, "how many people" → people), or ''. */
  focus: string;
  /** Stems of the question's content words. */
  terms: Set<string>;
  /** Lower-cased words of the question, to tell candidates that repeat it. */
  words: Set<string>;
  /** Stems of the chained answers and guidelines: context, not the question itself. */
  context: Set<string>;
}

const SKIP_AFTER_WH = new Set(['is', 'was', 'are', 'were', 'the', 'a', 'an', 'kind', 'type', 'sort', 'of', 'did', 'does', 'do']);

function typeOf(lower: string[]): { type: QuestionType; at: number } {
  for (let i = 0; i < lower.length; i++) {
    const w = lower[i];
    const next = lower[i + 1] ?? '';
    switch (w) {
      case 'who':
      case 'whom':
      case 'whose':
        return { type: 'who', at: i };
      case 'when':
        return { type: 'when', at: i };
      case 'where':
        return { type: 'where', at: i };
      case 'why':
        return { type: 'why', at: i };
      case 'how':
        if (next === 'many') return { type: 'howmany', at: i + 1 };
        if (next === 'much') return { type: 'howmuch', at: i + 1 };
        if (next === 'long') return { type: 'howlong', at: i + 1 };
        if (/^(old|far|big|large|tall|high|often|fast|wide|deep|heavy|small)$/.test(next)) return { type: 'howadj', at: i + 1 };
        return { type: 'how', at: i };
      case 'which':
      case 'what':
        if (next === 'year' || next === 'years') return { type: 'year', at: i + 1 };
        return { type: w === 'which' ? 'which' : 'what', at: i };
      default:
    }
  }
  return { type: 'other', at: -1 };
}

/** The question's type, focus and terms; `inputs` and `guidelines` add context terms. */
export function analyzeQuestion(q: Pick<ReaderQuestion, 'question' | 'guidelines' | 'inputs'>): AnalyzedQuestion {
  const tokens = tokenize(q.question);
  const lower = tokens.map((t) => t.lower);
  const { type, at } = typeOf(lower);
  let focus = '';
  if (at >= 0 && type !== 'who' && type !== 'why') {
    for (let i = at + 1; i < tokens.length && i <= at + 4; i++) {
      if (SKIP_AFTER_WH.has(lower[i])) continue;
      if (tokens[i].shape !== 'p' && !tokens[i].stop) focus = tokens[i].stem;
      break;
    }
  }
  const terms = new Set(tokens.filter((t) => !t.stop).map((t) => t.stem));
  const contextText = [q.guidelines ?? '', ...(q.inputs ?? []).filter((i) => i.found).map((i) => i.rawValue)].join(' ');
  const context = new Set(
    tokenize(contextText)
      .filter((t) => !t.stop && !terms.has(t.stem))
      .map((t) => t.stem),
  );
  return { tokens, type, focus, terms, words: new Set(lower), context };
}
