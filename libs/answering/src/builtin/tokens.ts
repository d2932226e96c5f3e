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

// A URL or an e-mail address is one token (a reader answering "http" from "http://example.com"
// helps nobody); it ends before trailing punctuation. Words keep inner dots, commas between
// digits, apostrophes and hyphens (U.S, 1,234, don't, well-known); an initial keeps its period
// ("Todd P. Cravens" is one name, not a sentence ending after "P"); every other non-space
// character is a token of its own.
const TOKEN =
  /(?:https?:\/\/|www\.)[^\s<>"'()[\]{}|]*[^\s<>"'()[\]{}|.,;:!?]|[\p{L}\p{N}._%+-]*[\p{L}\p{N}]@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+|(?<![\p{L}\p{N}.])\p{Lu}\.(?=[ \u00a0]\p{Lu}(?:\p{Ll}|\.))|[\p{L}\p{N}\p{M}]+(?:[.,'’\-][\p{L}\p{N}\p{M}]+)*|\S/gu;
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
  if (/^\p{Lu}\.$/u.test(text)) return 'Xx'; // an initial is part of a name
  return text.length > 1 && text === text.toUpperCase() ? 'X' : 'Xx';
}

// CamelCase names ("EarningsPerShareDiluted", an XBRL fact in a table row) are read as their words
// when every part has at least three letters ("McDonald" and "iPhone" stay whole).
const CAMEL_PART = /\p{Lu}?\p{Ll}+|\p{Lu}+(?!\p{Ll})/gu;

function camelParts(raw: string, at: number): { text: string; start: number }[] | null {
  if (!/\p{Ll}\p{Lu}/u.test(raw) || !/^[\p{L}]+$/u.test(raw)) return null;
  const parts: { text: string; start: number }[] = [];
  for (const m of raw.matchAll(CAMEL_PART)) parts.push({ text: m[0], start: at + m.index });
  const whole = parts.reduce((n, p) => n + p.text.length, 0) === raw.length;
  return whole && parts.length > 1 && parts.every((p) => p.text.length >= 3) ? parts : null;
}

function token(raw: string, start: number): Token {
  const lower = raw.toLowerCase();
  const shape = shapeOf(raw);
  const folded = lower
    .normalize('NFD')
    .replace(DIACRITICS, '')
    .replace(/^(\p{L})\.$/u, '$1')
    .replace(/['’]s$/, '')
    .replace(/['’]/g, '');
  return {
    text: raw,
    lower,
    stem: shape === 'p' ? '' : stem(folded),
    start,
    end: start + raw.length,
    shape,
    stop: shape === 'p' || FUNCTION_WORDS.has(lower),
  };
}

/** Tokens of `text[from, to)`, with offsets into `text`. */
export function tokenize(text: string, from = 0, to = text.length): Token[] {
  const tokens: Token[] = [];
  const re = new RegExp(TOKEN.source, 'gu');
  re.lastIndex = from;
  for (let m = re.exec(text); m && m.index < to; m = re.exec(text)) {
    const parts = camelParts(m[0], m.index);
    if (parts) for (const p of parts) tokens.push(token(p.text, p.start));
    else tokens.push(token(m[0], m.index));
  }
  return tokens;
}
