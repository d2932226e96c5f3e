import type { ReaderQuestion } from '../reader';
import { idfOf } from './idf';
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
  /** Per term, its distance in tokens from the wh-word (the closest occurrence); 9 without a wh-word. */
  whDistance: Map<string, number>;
  /**
   * Per term, the side of the wh-word it is on and the words between them ("R:was chopin" for
   * "born" in "Where was Chopin born?"): the question's half of the surface-path features.
   */
  whPath: Map<string, string>;
  /** Lower-cased word bigrams of the question, function words included ("founded by"). */
  bigrams: Set<string>;
  /** The first content word after the wh-phrase that is not its focus, usually the verb asked about, or ''. */
  verb: string;
  /**
   * The wh-word and the word after it ("what did", "who was"; "many people" for "how many people",
   * "year did" for "what year did"), or 'none': a finer question class than `type`.
   */
  whPhrase: string;
  /** idf of each term (idf.ts) and their sum. */
  idf: Map<string, number>;
  idfTotal: number;
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

/** The words between a question term and the wh-word, and the side the term is on; 'far' past three words. */
function surfacePath(lower: readonly string[], at: number, i: number): string {
  if (at < 0) return 'none';
  const between = i > at ? lower.slice(at + 1, i) : lower.slice(i + 1, at);
  return between.length > 3 ? `${i > at ? 'R' : 'L'}:far` : `${i > at ? 'R' : 'L'}:${between.join(' ')}`;
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
  const whDistance = new Map<string, number>();
  const whPath = new Map<string, string>();
  let verb = '';
  tokens.forEach((t, i) => {
    if (t.stop) return;
    const d = at >= 0 ? Math.abs(i - at) : 9;
    if (d < (whDistance.get(t.stem) ?? 10)) whPath.set(t.stem, surfacePath(lower, at, i));
    whDistance.set(t.stem, Math.min(d, whDistance.get(t.stem) ?? 9));
    if (!verb && at >= 0 && i > at && t.stem !== focus && t.shape === 'x') verb = t.stem;
  });
  const words = tokens.filter((t) => t.shape !== 'p').map((t) => t.lower);
  const bigrams = new Set<string>();
  for (let i = 1; i < words.length; i++) bigrams.add(`${words[i - 1]} ${words[i]}`);
  const idf = new Map([...terms].map((t) => [t, idfOf(t)]));
  const idfTotal = [...idf.values()].reduce((a, b) => a + b, 0);
  const whPhrase = at >= 0 ? `${lower[at]} ${lower[at + 1] ?? '#'}` : 'none';
  return { tokens, type, focus, terms, words: new Set(lower), context, whDistance, whPath, bigrams, verb, whPhrase, idf, idfTotal };
}
