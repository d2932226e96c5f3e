/**
 * The BM25 parameters an impact is computed with, whatever the searching instance's: impacts only
 * order a term's postings (which are read first), and fixing them keeps the stored index the same
 * whoever wrote it. They are RECOMMENDED_BM25's, what the services search with.
 */
export const IMPACT_BM25 = { k1: 1.2, b: 0.75 } as const;

/** Impacts are stored as smallint: the tf-part, which lies in (0, 1) once divided by k1 + 1, times this. */
export const IMPACT_SCALE = 32767;

/** Frequencies are stored as smallint; BM25 saturates long before, so clamping changes no ranking. */
export const MAX_STORED_TF = 32767;

/** The impact of a term occurring tf times in a passage of this length, given the namespace's average length. */
export function impactOf(tf: number, length: number, avglen: number): number {
  const { k1, b } = IMPACT_BM25;
  return Math.max(1, Math.round((IMPACT_SCALE * tf) / (tf + k1 * (1 - b + (b * length) / avglen))));
}
