import { foldLabel } from './text';

const TRUE_WORDS = new Set([
  'yes',
  'y',
  'true',
  't',
  '1',
  'correct',
  'right',
  'affirmative',
  'agreed',
  'present',
  'included',
  'applicable',
  'oui',
  'ja',
  'si',
  'x',
  '✓',
  '✔',
]);
const FALSE_WORDS = new Set([
  'no',
  'n',
  'false',
  'f',
  '0',
  'incorrect',
  'wrong',
  'negative',
  'none',
  'absent',
  'excluded',
  'not applicable',
  'n a',
  'non',
  'nein',
  '✗',
  '✘',
]);

/** A yes/no word as written ("Yes", "FALSE", "n/a" → false), or null when the text is not one. */
export function parseBoolean(raw: string): boolean | null {
  const trimmed = raw.trim();
  if (trimmed === '✓' || trimmed === '✔') return true;
  if (trimmed === '✗' || trimmed === '✘') return false;
  const folded = foldLabel(trimmed).replace(/^(answer|response)\s+/, '');
  if (TRUE_WORDS.has(folded)) return true;
  if (FALSE_WORDS.has(folded)) return false;
  const first = folded.split(' ')[0];
  if (first === 'yes' || first === 'true') return true;
  if (first === 'no' || first === 'false') return false;
  return null;
}

/**
 * Words that flip a statement. "no" and "none" are included: "no penalty applies" denies the
 * penalty. "nor" pairs with "neither" and is not counted again.
 */
export const NEGATION_WORDS: ReadonlySet<string> = new Set([
  'not',
  'no',
  'never',
  'without',
  'none',
  'neither',
  'nobody',
  'nothing',
  'nowhere',
  'cannot',
  'cant',
  'dont',
  'doesnt',
  'didnt',
  'isnt',
  'arent',
  'wasnt',
  'werent',
  'wont',
  'wouldnt',
  'shouldnt',
  'couldnt',
  'hasnt',
  'havent',
  'hadnt',
  'mustnt',
  'neednt',
  'lacks',
  'lack',
  'lacking',
  'absent',
  'excluded',
  'excludes',
  'prohibited',
  'forbidden',
  'fails',
  'failed',
  'unable',
  'nor',
]);

/** Words that are negation in form but close a negative question or double negation ("not only"). */
const NOT_NEGATING_AFTER: Record<string, string> = { not: 'only', no: 'longer' };

export interface Polarity {
  /** True when the statement affirms, false when a negation governs the matched words. */
  affirmative: boolean;
  /** The negation words counted, as written, with their offsets. */
  cues: { word: string; start: number; end: number }[];
}

/**
 * Whether a sentence affirms or denies. Only negations in the same clause as a focus word (a word
 * the question asked about) and at most `window` words before it, or two after, count, since "the
 * deposit, which is not refundable, is due" does not deny the deposit is due; with no focus words
 * every negation in the sentence counts. An even count cancels out ("not without reason").
 */
export function statementPolarity(sentence: string, focus?: (word: string) => boolean, window = 6): Polarity {
  const words: { raw: string; word: string; start: number; end: number; clause: number }[] = [];
  let clause = 0;
  for (const m of sentence.matchAll(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?|[,;:()\u2013\u2014]/gu)) {
    if (!/[\p{L}\p{N}]/u.test(m[0])) {
      clause++;
      continue;
    }
    words.push({ raw: m[0], word: m[0].toLowerCase().replace(/['’]/g, ''), start: m.index, end: m.index + m[0].length, clause });
  }
  const negations = words
    .map((w, i) => ({ ...w, i }))
    .filter((w, i) => NEGATION_WORDS.has(w.word) && w.word !== 'nor' && words[i + 1]?.word !== NOT_NEGATING_AFTER[w.word]);
  const focusAt = focus ? words.flatMap((w, i) => (focus(w.word) ? [i] : [])) : [];
  // "without" negates only what follows it: "can be reused without impairing it" affirms the reuse.
  const governs = (n: { i: number; clause: number; word: string }, f: number) =>
    words[f].clause === n.clause && ((f >= n.i && f - n.i <= window) || (n.i > f && n.i - f <= 2 && n.word !== 'without'));
  const counted = focusAt.length ? negations.filter((n) => focusAt.some((f) => governs(n, f))) : negations;
  return {
    affirmative: counted.length % 2 === 0,
    cues: counted.map((n) => ({ word: n.raw, start: n.start, end: n.end })),
  };
}
