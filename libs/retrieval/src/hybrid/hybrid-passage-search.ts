import type { PassageRetriever } from '../passage-retriever';
import { fuseRrf } from '../fusion/rrf';
import { fuseScores } from '../fusion/score-fusion';

/** A node found by the vector search, as libs/ai's NodeVectorStore.search returns it. */
export interface DenseHit {
  nodeId: string;
  fileId: string;
  /** Cosine similarity, higher is closer. */
  score: number;
}

/** The dense leg: the k nodes of the namespace (restricted to fileIds) closest to the query vector, best first. */
export type VectorSearch = (
  namespaceId: string,
  vector: ArrayLike<number>,
  options: { k: number; fileIds?: string[] },
) => Promise<DenseHit[]>;

/** Turns the query into a vector with the same model the passages were embedded with. */
export type QueryEmbedder = (query: string) => Promise<ArrayLike<number>>;

/**
 * How the two rankings are combined: 'rrf', weighted reciprocal rank fusion (fuseRrf, ranks only);
 * 'zscore' or 'minmax', weighted sum of the scores normalised per ranking (fuseScores).
 */
export const HYBRID_FUSIONS = ['rrf', 'zscore', 'minmax'] as const;
export type HybridFusion = (typeof HYBRID_FUSIONS)[number];

export interface HybridParameters {
  /** How the rankings are fused. */
  fusion: HybridFusion;
  /** Weight of the BM25 ranking. */
  lexicalWeight: number;
  /** Weight of the vector ranking (its meaning depends on `fusion`: a weight of RRF terms or of normalised scores). */
  denseWeight: number;
  /** RRF rank constant (fusion 'rrf' only). */
  rrfK: number;
  /** Candidates taken from each ranking before fusion (at least the limit asked for, at most 1000). */
  candidates: number;
}

/**
 * Tuned on the SciFact *train* qrels only (bench/retrieval/run.js --tune: the fusion method, RRF k
 * and the dense weight over a grid, with BM25 k1 = 1.2, b = 0.75 and the built-in USE-lite
 * embedder); the test queries were never used to choose them. See docs/benchmarks.md. Score fusion
 * (z-scores) beat RRF on train: it keeps the gaps between BM25 scores, so a passage far ahead
 * lexically is not overtaken on the weak dense leg's word alone. USE-lite alone is weak on SciFact
 * (nDCG@10 about 0.2 against 0.69 for BM25), hence the low dense weight. A stronger embedder
 * deserves a higher weight; re-tune with the bench when changing it. `rrfK` only serves
 * fusion 'rrf' (its tuned value for that method).
 */
export const DEFAULT_HYBRID: HybridParameters = { fusion: 'zscore', lexicalWeight: 1, denseWeight: 0.25, rrfK: 10, candidates: 100 };

export interface HybridSearchOptions {
  /** Passages to return at most (1..1000). */
  limit: number;
  /** Only passages of these files; every file of the namespace when absent. */
  fileIds?: string[];
  /**
   * Also return passages the lexical ranking did not find (none of the query's terms), found by the
   * vector search alone. Default true. When false the vector ranking still reorders the lexical hits.
   */
  dense?: boolean;
}

/** A fused hit, with where each ranking placed it (1-based) and its score there. */
export interface HybridHit {
  nodeId: string;
  fileId: string;
  /** The fused score (RRF or normalised scores), higher is better; comparable only within one result list. */
  score: number;
  lexical?: { rank: number; score: number };
  dense?: { rank: number; score: number };
}

export interface HybridSearchResult {
  hits: HybridHit[];
  /** Set when the dense leg failed and the search went on with the lexical ranking alone. */
  denseError?: Error;
}

export interface HybridPassageSearchDeps {
  /** The lexical engine (BM25 in PostgreSQL today, any PassageRetriever later). */
  retriever: PassageRetriever;
  /** The dense leg; absent: lexical only. */
  vectors?: VectorSearch;
  embedQuery?: QueryEmbedder;
  parameters?: Partial<HybridParameters>;
  /**
   * 'degrade' (default): a failing dense leg (embedder down, model not loadable) leaves the lexical
   * ranking alone and is reported in `denseError`; 'throw': the search fails.
   */
  onDenseFailure?: 'degrade' | 'throw';
}

const MAX_CANDIDATES = 1000;

/**
 * Hybrid passage retrieval: the lexical ranking of a PassageRetriever and the dense ranking of a
 * vector search over the same namespace and files, fused by normalised score fusion (fuseScores)
 * or weighted reciprocal rank fusion (fuseRrf). One class, so that the service answering jobs and the retrieval benchmark run the same
 * code. Both legs run concurrently; tenancy is the caller's namespace, passed to both.
 */
export class HybridPassageSearch {
  readonly parameters: HybridParameters;
  private readonly retriever: PassageRetriever;
  private readonly vectors?: VectorSearch;
  private readonly embedQuery?: QueryEmbedder;
  private readonly onDenseFailure: 'degrade' | 'throw';

  constructor(deps: HybridPassageSearchDeps) {
    this.retriever = deps.retriever;
    this.vectors = deps.vectors;
    this.embedQuery = deps.embedQuery;
    this.onDenseFailure = deps.onDenseFailure ?? 'degrade';
    this.parameters = { ...DEFAULT_HYBRID, ...deps.parameters };
    const { fusion, lexicalWeight, denseWeight, rrfK, candidates } = this.parameters;
    if (!HYBRID_FUSIONS.includes(fusion)) throw new RangeError(`fusion must be one of ${HYBRID_FUSIONS.join(', ')}`);
    if (!(lexicalWeight >= 0 && denseWeight >= 0 && Number.isFinite(lexicalWeight + denseWeight))) {
      throw new RangeError('weights must be finite numbers >= 0');
    }
    if (!(rrfK >= 0 && Number.isFinite(rrfK))) throw new RangeError('rrfK must be a finite number >= 0');
    if (!Number.isInteger(candidates) || candidates < 1 || candidates > MAX_CANDIDATES) {
      throw new RangeError(`candidates must be an integer from 1 to ${MAX_CANDIDATES}`);
    }
  }

  /** Whether a dense leg is configured. */
  get hasDense(): boolean {
    return !!(this.vectors && this.embedQuery);
  }

  async search(namespaceId: string, query: string, options: HybridSearchOptions): Promise<HybridSearchResult> {
    const { limit, fileIds } = options;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_CANDIDATES) {
      throw new RangeError(`limit must be an integer from 1 to ${MAX_CANDIDATES}`);
    }
    if (fileIds?.length === 0) return { hits: [] };
    const depth = Math.min(MAX_CANDIDATES, Math.max(limit, this.parameters.candidates));
    const [lexical, dense] = await Promise.all([
      this.retriever.search(namespaceId, query, { limit: depth, fileIds }),
      this.denseLeg(namespaceId, query, depth, fileIds),
    ]);
    const denseHits = 'hits' in dense ? dense.hits : [];

    const files = new Map<string, string>();
    const lexicalRank = new Map<string, { rank: number; score: number }>();
    lexical.forEach((h, i) => {
      files.set(h.nodeId, h.fileId);
      if (!lexicalRank.has(h.nodeId)) lexicalRank.set(h.nodeId, { rank: i + 1, score: h.score });
    });
    const denseRank = new Map<string, { rank: number; score: number }>();
    denseHits.forEach((h, i) => {
      if (!files.has(h.nodeId)) files.set(h.nodeId, h.fileId);
      if (!denseRank.has(h.nodeId)) denseRank.set(h.nodeId, { rank: i + 1, score: h.score });
    });

    const rankings = [lexical.map((h) => ({ id: h.nodeId, score: h.score }))];
    const weights = [this.parameters.lexicalWeight];
    if (denseHits.length) {
      rankings.push(denseHits.map((h) => ({ id: h.nodeId, score: h.score })));
      weights.push(this.parameters.denseWeight);
    }
    const { fusion, rrfK } = this.parameters;
    let fused = fusion === 'rrf' ? fuseRrf(rankings, { k: rrfK, weights }) : fuseScores(rankings, { normalization: fusion, weights });
    if (options.dense === false) fused = fused.filter((f) => lexicalRank.has(f.id));
    const hits = fused.slice(0, limit).map((f) => ({
      nodeId: f.id,
      fileId: files.get(f.id) as string,
      score: f.score,
      ...(lexicalRank.has(f.id) ? { lexical: lexicalRank.get(f.id) } : {}),
      ...(denseRank.has(f.id) ? { dense: denseRank.get(f.id) } : {}),
    }));
    return 'error' in dense ? { hits, denseError: dense.error } : { hits };
  }

  private async denseLeg(
    namespaceId: string,
    query: string,
    k: number,
    fileIds?: string[],
  ): Promise<{ hits: DenseHit[] } | { error: Error }> {
    if (!this.vectors || !this.embedQuery || this.parameters.denseWeight === 0) return { hits: [] };
    try {
      const vector = await this.embedQuery(query);
      return { hits: await this.vectors(namespaceId, vector, { k, fileIds }) };
    } catch (err) {
      if (this.onDenseFailure === 'throw') throw err;
      return { error: err instanceof Error ? err : new Error(String(err)) };
    }
  }
}
