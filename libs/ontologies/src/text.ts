/** Small text utilities shared by the extractors. */

/** Collapses runs of whitespace (including line breaks) to one space and trims. */
export function squash(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Key for comparing two strings loosely: lower case, letters and digits only. */
export function looseKey(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

export interface Block {
  text: string;
  /** Offset of the block's first character in the source text. */
  offset: number;
}

/** Splits text into blocks separated by blank lines, keeping their offsets. */
export function splitBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  const re = /\n[ \t\r\f\v]*\n/g;
  let start = 0;
  const push = (end: number) => {
    const raw = text.slice(start, end);
    const lead = raw.length - raw.trimStart().length;
    const trimmed = raw.trim();
    if (trimmed) blocks.push({ text: trimmed, offset: start + lead });
  };
  for (let m = re.exec(text); m; m = re.exec(text)) {
    push(m.index);
    start = m.index + m[0].length;
  }
  push(text.length);
  return blocks;
}

/** Non-empty trimmed lines. */
export function nonEmptyLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l.length > 0);
}

/** Share of letters among the non-space characters. */
export function letterRatio(text: string): number {
  const chars = text.replace(/\s+/g, '');
  if (!chars.length) return 0;
  const letters = chars.match(/\p{L}/gu)?.length ?? 0;
  return letters / chars.length;
}

// A period after these is not the end of a sentence.
const ABBREVIATIONS = new Set([
  'al',
  'e.g',
  'i.e',
  'etc',
  'fig',
  'figs',
  'eq',
  'eqs',
  'ref',
  'refs',
  'sec',
  'no',
  'vol',
  'pp',
  'cf',
  'vs',
  'dr',
  'mr',
  'mrs',
  'ms',
  'prof',
  'st',
  'inc',
  'ltd',
  'co',
  'jr',
  'sr',
  'approx',
  'resp',
  'tab',
]);

/** Sentences of a squashed text, each with its trailing punctuation. */
export function splitSentences(text: string): string[] {
  const sentences: string[] = [];
  const re = /[.!?]+["')\]]*\s+(?=["'(\[]?[\p{Lu}\p{N}])/gu;
  let start = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const before = text.slice(start, m.index);
    const lastWord = (before.match(/(\S+)$/)?.[1] ?? '').toLowerCase().replace(/^[("'[]+/, '');
    // "J. Smith" and "et al. (2020)" are not sentence ends.
    if (ABBREVIATIONS.has(lastWord) || /^\p{L}$/u.test(lastWord)) continue;
    const end = m.index + m[0].length;
    sentences.push(text.slice(start, end).trim());
    start = end;
  }
  const rest = text.slice(start).trim();
  if (rest) sentences.push(rest);
  return sentences;
}

/**
 * Shortens text to at most `max` characters at a sentence boundary; when even the first sentence is
 * longer, cuts at a word boundary and ends with an ellipsis.
 */
export function truncateAtSentence(text: string, max: number): string {
  const squashed = squash(text);
  if (squashed.length <= max) return squashed;
  let out = '';
  for (const sentence of splitSentences(squashed)) {
    const next = out ? `${out} ${sentence}` : sentence;
    if (next.length > max) break;
    out = next;
  }
  if (out) return out;
  const cut = squashed.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:]+$/, '')}…`;
}
