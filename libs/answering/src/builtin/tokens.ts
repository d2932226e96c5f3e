import { ENGLISH_STOP_WORDS, porterStem } from '@docintel/retrieval';

/** Token shapes the features use: Capitalised, lower, UPPER, digits, punctuation. */
export type Shape = 'Xx' | 'x' | 'X' | 'd' | 'p';

export interface Token {
  text: string;
  lower: string;
  /** Porter stem of the folded word; '' for punctuation. */
  stem: string;
  start: number;
  end: number;
  shape: Shape;
  /** A function word (the retrieval stop words and the question words): never a match on its own. */
  stop: boolean;
}

/** Words that carry no topic: the retrieval stop words plus auxiliaries and question words. */
const FUNCTION_WORDS: ReadonlySet<string> = new Set([
  ...ENGLISH_STOP_WORDS,
  ..."what which who whom whose when where why how did do does done has have had been being were am its it's from than can could would should may might must shall about also other some any all one most more much many".split(
    ' ',
  ),
]);

// Words keep inner dots, commas between digits, apostrophes and hyphens (U.S, 1,234, don't,
// well-known); every other non-space character is a token of its own.
const TOKEN = /[\p{L}\p{N}\p{M}]+(?:[.,'’\-][\p{L}\p{N}\p{M}]+)*|\S/gu;
const DIACRITICS = /[\u0300-\u036f]/g;

// The stemmer is the costliest step and texts repeat words; a bounded cache keeps it cheap.
const stems = new Map<string, string>();
function stem(folded: string): string {
  let s = stems.get(folded);
  if (s === undefined) {
    s = porterStem(folded);
    if (stems.size > 50_000) stems.clear();
    stems.set(folded, s);
  }
  return s;
}

function shapeOf(text: string): Shape {
  if (/\p{N}/u.test(text)) return 'd';
  if (!/\p{L}/u.test(text)) return 'p';
  if (text === text.toLowerCase()) return 'x';
  return text.length > 1 && text === text.toUpperCase() ? 'X' : 'Xx';
}

/** Tokens of `text[from, to)`, with offsets into `text`. */
export function tokenize(text: string, from = 0, to = text.length): Token[] {
  const tokens: Token[] = [];
  const re = new RegExp(TOKEN.source, 'gu');
  re.lastIndex = from;
  for (let m = re.exec(text); m && m.index < to; m = re.exec(text)) {
    const raw = m[0];
    const lower = raw.toLowerCase();
    const shape = shapeOf(raw);
    const folded = lower
      .normalize('NFD')
      .replace(DIACRITICS, '')
      .replace(/['’]s$/, '')
      .replace(/['’]/g, '');
    tokens.push({
      text: raw,
      lower,
      stem: shape === 'p' ? '' : stem(folded),
      start: m.index,
      end: m.index + raw.length,
      shape,
      stop: shape === 'p' || FUNCTION_WORDS.has(lower),
    });
  }
  return tokens;
}
