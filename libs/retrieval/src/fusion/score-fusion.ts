import type { RankedItem } from './rrf';

/** How each ranking's scores are made comparable before they are summed. */
export const SCORE_NORMALIZATIONS = ['zscore', 'minmax'] as const;
export type ScoreNormalization = (typeof SCORE_NORMALIZATIONS)[number];

export interface ScoreFusionOptions {
  /**
   * 'zscore' (default): (score − mean) / standard deviation over the ranking's items;
   * 'minmax': (score − min) / (max − min), so the ranking's best is 1 and its last 0.
   */
  normalization?: ScoreNormalization;
  /** One non-negative weight per ranking (default 1 each). */
  weights?: number[];
}

/**
 * Normalised score fusion (CombSUM, Fox & Shaw 1994): each ranking's scores are normalised over the
 * items that ranking returned, then summed with the rankings' weights. Unlike reciprocal rank
 * fusion it keeps how far apart the scores of one ranking are: a passage far ahead in BM25 stays
 * ahead. An id a ranking did not return counts one unit (one standard deviation for z-scores, the
 * whole range for min-max) below the lowest normalised score it returned: a ranking never lifts an
 * item by leaving it out, and what one leg found keeps an edge over what it did not (a passage
 * containing the query's words over a passage the dense leg alone returns, unless the dense leg
 * clearly prefers it). A ranking whose scores are all equal (one item, say) cannot be normalised:
 * its items count the same, still one unit above the ids it did not return.
 * An id listed twice in one ranking counts once, at its best score. Returns every id once, best
 * first; equal fused scores are ordered by best rank, then by id.
 */
export function fuseScores(rankings: RankedItem[][], options: ScoreFusionOptions = {}): RankedItem[] {
  const normalization = options.normalization ?? 'zscore';
  if (!SCORE_NORMALIZATIONS.includes(normalization))
    throw new RangeError(`normalization must be one of ${SCORE_NORMALIZATIONS.join(', ')}`);
  const weights = options.weights ?? rankings.map(() => 1);
  if (weights.length !== rankings.length) {
    throw new RangeError(`${weights.length} weights for ${rankings.length} rankings`);
  }
  if (weights.some((w) => !Number.isFinite(w) || w < 0)) throw new RangeError('weights must be finite numbers >= 0');

  const normalized = rankings.map((ranking) => normalize(ranking, normalization));
  const fused = new Map<string, { score: number; bestRank: number }>();
  normalized.forEach(({ ranks }) => {
    for (const [id, rank] of ranks) {
      const entry = fused.get(id) ?? { score: 0, bestRank: Infinity };
      entry.bestRank = Math.min(entry.bestRank, rank);
      fused.set(id, entry);
    }
  });
  for (const [id, entry] of fused) {
    normalized.forEach(({ scores, floor }, i) => {
      entry.score += weights[i] * (scores.get(id) ?? floor);
    });
  }
  return [...fused.entries()]
    .sort(([ida, a], [idb, b]) => b.score - a.score || a.bestRank - b.bestRank || (ida < idb ? -1 : ida > idb ? 1 : 0))
    .map(([id, { score }]) => ({ id, score }));
}

/** What an id a ranking did not return counts, below the lowest normalised score it returned. */
const ABSENT_PENALTY = 1;

/** The ranking's normalised score and rank (1-based) per id, and the score of an absent id. */
function normalize(
  ranking: RankedItem[],
  normalization: ScoreNormalization,
): { scores: Map<string, number>; ranks: Map<string, number>; floor: number } {
  const best = new Map<string, number>();
  for (const item of ranking) {
    if (!Number.isFinite(item.score)) throw new RangeError(`score of ${item.id} is not a finite number`);
    const seen = best.get(item.id);
    if (seen === undefined || item.score > seen) best.set(item.id, item.score);
  }
  const ordered = [...best.entries()].sort((a, b) => b[1] - a[1]);
  const ranks = new Map(ordered.map(([id], i) => [id, i + 1]));
  const values = ordered.map(([, s]) => s);
  if (!values.length) return { scores: new Map(), ranks, floor: 0 };
  let shift: number;
  let scale: number;
  if (normalization === 'minmax') {
    shift = values[values.length - 1];
    scale = values[0] - shift;
  } else {
    shift = values.reduce((a, b) => a + b, 0) / values.length;
    scale = Math.sqrt(values.reduce((a, b) => a + (b - shift) ** 2, 0) / values.length);
  }
  if (!(scale > 0)) {
    // All scores equal: nothing tells the items apart, but they were returned and the others not.
    const returned = normalization === 'minmax' ? 1 : 0;
    return { scores: new Map(ordered.map(([id]) => [id, returned])), ranks, floor: returned - ABSENT_PENALTY };
  }
  const scores = new Map(ordered.map(([id, s]) => [id, (s - shift) / scale]));
  return { scores, ranks, floor: (values[values.length - 1] - shift) / scale - ABSENT_PENALTY };
}
