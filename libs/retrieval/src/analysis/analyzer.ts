import { porterStem } from './porter-stemmer';

/**
 * Lucene's English stop words (EnglishAnalyzer.ENGLISH_STOP_WORDS_SET), kept short on purpose: words
 * such as "before", "after", "within" or "without" carry meaning in contracts and reports.
 */
const STOP_WORDS_TEXT =
  'a an and are as at be but by for if in into is it no not of on or such that the their then there these they this to was will with';
export const ENGLISH_STOP_WORDS: ReadonlySet<string> = new Set(STOP_WORDS_TEXT.split(' '));

/** Longer tokens (base64, hashes, run-together garbage) are dropped rather than indexed. */
export const MAX_TERM_LENGTH = 64;

// Unicode word boundaries (UAX #29), which also split Chinese and Japanese text into words by
// dictionary, unlike a regular expression over letters. One segmenter serves every call.
const segmenter = new Intl.Segmenter('en', { granularity: 'word' });

// Combining diacritical marks (U+0300–U+036F) after canonical decomposition: removing them folds
// "résumé" to "resume". Marks of other blocks (Devanagari vowel signs, …) are part of the word.
const DIACRITICS = /[\u0300-\u036f]/g;
const APOSTROPHES = /['’‘ʼ]/g;
const POSSESSIVE = /['’ʼ]s$/;

/**
 * The analysis applied to passages and queries alike: NFKC normalisation, lower case, Unicode word
 * segmentation, Latin diacritics folded, possessive 's and apostrophes removed, English stop words
 * dropped, and ASCII words stemmed with the Porter stemmer. Returns the terms in text order,
 * repeated as often as they occur.
 */
export function analyze(text: string): string[] {
  const terms: string[] = [];
  const normalized = text.normalize('NFKC').toLowerCase();
  for (const piece of pieces(normalized)) {
    for (const segment of segmenter.segment(piece)) {
      if (!segment.isWordLike) continue;
      const term = termOf(segment.segment);
      if (term !== null) terms.push(term);
    }
  }
  return terms;
}

/** Words seen recently and their terms (null: not indexed); a word's term depends on the word alone. */
const TERM_CACHE_SIZE = 100_000;
let termCache = new Map<string, string | null>();

/** The term of one lower-cased word from the segmenter, or null when it is not indexed. */
function termOf(segment: string): string | null {
  const cached = termCache.get(segment);
  if (cached !== undefined) return cached;
  let word = segment.normalize('NFD').replace(DIACRITICS, '').normalize('NFC');
  word = word.replace(POSSESSIVE, '').replace(APOSTROPHES, '');
  const term = !word || word.length > MAX_TERM_LENGTH || ENGLISH_STOP_WORDS.has(word) ? null : porterStem(word);
  // Folding and stemming cost more than the lookup; vocabularies follow Zipf's law, so most words
  // of a text were seen recently. Emptied when full rather than evicting one by one.
  if (termCache.size >= TERM_CACHE_SIZE) termCache = new Map();
  termCache.set(segment, term);
  return term;
}

/** Characters given to the segmenter at once. */
export const SEGMENT_PIECE_CHARS = 2048;

/**
 * The text in pieces of at most SEGMENT_PIECE_CHARS, cut at whitespace where there is some (no word
 * spans whitespace). V8's segmenter slows down more than linearly with the length of the text it
 * walks (measured: 7.6k characters 41 ms, 76k characters 880 ms, 300k over a minute), so a long
 * paragraph would stall the process; in pieces the cost is linear.
 */
function* pieces(text: string): Generator<string> {
  let start = 0;
  while (text.length - start > SEGMENT_PIECE_CHARS) {
    let end = start + SEGMENT_PIECE_CHARS;
    const space = text.lastIndexOf(' ', end);
    const newline = text.lastIndexOf('\n', end);
    const cut = Math.max(space, newline);
    if (cut > start + SEGMENT_PIECE_CHARS / 2) end = cut;
    yield text.slice(start, end);
    start = end;
  }
  yield text.slice(start);
}

/** Term frequencies of an analysed text, and its length in terms (the BM25 document length). */
export function termFrequencies(text: string): { length: number; tf: Map<string, number> } {
  const terms = analyze(text);
  const tf = new Map<string, number>();
  for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
  return { length: terms.length, tf };
}
