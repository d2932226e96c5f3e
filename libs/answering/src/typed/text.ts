/** Text helpers shared by the typed-value parsers. */

// Combining marks after canonical decomposition: removing them folds "Café" to "Cafe".
const DIACRITICS = /[\u0300-\u036f]/g;

/** Lower case, accents folded, every run of non-alphanumerics one space: the form labels are compared in. */
export function foldLabel(text: string): string {
  return text
    .normalize('NFKD')
    .replace(DIACRITICS, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** A span of a text: `start` inclusive, `end` exclusive, in UTF-16 code units. */
export interface TextSpan {
  start: number;
  end: number;
  text: string;
}
