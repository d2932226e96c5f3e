import { detectAll } from 'tinyld';
import { embeddedMetadataLabel } from './metadata-source';
import type { Found, OntologyInput } from './types';

/** Characters given to the detector: plenty for a stable answer, cheap on long documents. */
const SAMPLE_CHARS = 20_000;
/** Fewer letters than this and the detector guesses. */
const MIN_LETTERS = 40;
const MIN_ACCURACY = 0.1;
/** Paragraphs shorter than this are headings, captions or table cells: too short to vote. */
const MIN_BLOCK_LETTERS = 80;

/**
 * Each paragraph votes for its language with its number of letters, so that a list of language
 * names or a quotation does not outvote the prose; short texts are judged whole.
 */
function detect(sample: string): { lang: string; share: number } | undefined {
  const letters = (s: string) => s.match(/\p{L}/gu)?.length ?? 0;
  const total = letters(sample);
  if (total < MIN_LETTERS) return undefined;
  const votes = new Map<string, number>();
  for (const block of sample.split(/\n\s*\n/)) {
    const n = letters(block);
    if (n < MIN_BLOCK_LETTERS) continue;
    const top = detectAll(block)[0];
    if (top && top.accuracy >= MIN_ACCURACY) votes.set(top.lang, (votes.get(top.lang) ?? 0) + n);
  }
  if (!votes.size) {
    const top = detectAll(sample)[0];
    return top && top.accuracy >= MIN_ACCURACY ? { lang: top.lang, share: top.accuracy } : undefined;
  }
  const [lang, n] = [...votes.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0];
  return { lang, share: n / [...votes.values()].reduce((a, b) => a + b, 0) };
}

/**
 * Language of the text with tinyld (ISO 639-1), else the language the document declares.
 * Digits, symbols, URLs, e-mail addresses and acronyms are left out of the sample: they only add noise.
 */
export function findLanguage(input: OntologyInput, text: string): Found<string> | undefined {
  const sample = text
    .slice(0, SAMPLE_CHARS)
    .replace(/\S+@\S+|https?:\/\/\S+|www\.\S+/g, ' ')
    // Table rules and symbols ("| - |") read as Devanagari to the detector: keep letters and sentence punctuation.
    .replace(/[^\p{L}\p{M}\s'’.,!?;:()-]/gu, ' ')
    // Acronyms and CamelCase names (OTSL, PubTabNet) read as rare n-grams of some other language.
    .replace(/(?<!\p{L})\p{L}*\p{Lu}\p{L}*\p{Lu}\p{L}*(?!\p{L})/gu, ' ');
  const best = detect(sample);
  if (best) {
    return {
      value: best.lang,
      explanation: `tinyld language detection on the first ${Math.min(text.length, SAMPLE_CHARS)} characters, ${Math.round(best.share * 100)}% of the paragraphs' letters vote for it`,
    };
  }
  const declared = input.embeddedMetadata?.language?.trim().toLowerCase().split(/[-_]/)[0];
  if (declared && /^[a-z]{2,3}$/.test(declared)) {
    return { value: declared, explanation: `${embeddedMetadataLabel(input.mediaType)} Language` };
  }
  return undefined;
}
