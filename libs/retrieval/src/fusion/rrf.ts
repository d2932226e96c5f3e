/** One ranked item: any id, and the score its ranking gave it (higher is better). */
export interface RankedItem {
  id: string;
  score: number;
}

export interface RrfOptions {
  /** The rank constant of Cormack et al. (2009); larger values flatten the head of each list. */
  k?: number;
  /** One non-negative weight per ranking (default 1 each). */
  weights?: number[];
}

/**
 * Reciprocal rank fusion: score(d) = Σ_i w_i / (k + rank_i(d)), rank_i starting at 1, summed over
 * the rankings that contain d. Each ranking is ordered by its own score, highest first (ties keep
 * their given order); only ranks matter, so BM25 scores and cosine similarities can be fused
 * without calibrating them. An id listed twice in one ranking counts at its best rank.
 * Returns every id once, best first; equal fused scores are ordered by best rank, then by id.
 */
export function fuseRrf(rankings: RankedItem[][], options: RrfOptions = {}): RankedItem[] {
  const k = options.k ?? 60;
  if (!Number.isFinite(k) || k < 0) throw new RangeError('k must be a finite number >= 0');
  const weights = options.weights ?? rankings.map(() => 1);
  if (weights.length !== rankings.length) {
    throw new RangeError(`${weights.length} weights for ${rankings.length} rankings`);
  }
  if (weights.some((w) => !Number.isFinite(w) || w < 0)) throw new RangeError('weights must be finite numbers >= 0');

  const fused = new Map<string, { score: number; bestRank: number }>();
  rankings.forEach((ranking, i) => {
    const ordered = ranking.map((item, position) => ({ item, position }));
    ordered.sort((a, b) => b.item.score - a.item.score || a.position - b.position);
    const seen = new Set<string>();
    let rank = 0;
    for (const { item } of ordered) {
      if (seen.has(item.id)) continue;
      seen.add(item.id);
      rank++;
      const entry = fused.get(item.id) ?? { score: 0, bestRank: Infinity };
      entry.score += weights[i] / (k + rank);
      entry.bestRank = Math.min(entry.bestRank, rank);
      fused.set(item.id, entry);
    }
  });

  return [...fused.entries()]
    .sort(([ida, a], [idb, b]) => b.score - a.score || a.bestRank - b.bestRank || (ida < idb ? -1 : ida > idb ? 1 : 0))
    .map(([id, { score }]) => ({ id, score }));
}
