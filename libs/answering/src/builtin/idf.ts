import { RARE_IDF, STEMS_BY_IDF } from './word-idf';

let table: Map<string, number> | undefined;

/**
 * How rare a word stem is, as the inverse document frequency over the paragraphs of the learning
 * half of SQuAD v1.1 dev (word-idf.ts): a question word as rare as "Tesla" says more about where the
 * answer is than "year" does. Unlisted stems count as rare.
 */
export function idfOf(stem: string): number {
  if (!table) {
    table = new Map();
    for (const [bucket, stems] of Object.entries(STEMS_BY_IDF)) for (const s of stems.split(' ')) table.set(s, Number(bucket));
  }
  return table.get(stem) ?? RARE_IDF;
}
