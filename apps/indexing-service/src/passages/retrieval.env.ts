import { Type } from 'class-transformer';
import { IsIn, IsNumber, Max, Min } from 'class-validator';
import { IsIntegerVar } from '@docintel/config';
import { DEFAULT_HYBRID, HYBRID_FUSIONS, RECOMMENDED_BM25, type HybridFusion } from '@docintel/retrieval';

/**
 * Passage search settings (RETRIEVAL_*), validated at start-up. The defaults were tuned on SciFact
 * train with the built-in embedder (docs/benchmarks.md, section retrieval); with another embedder,
 * re-tune with `node bench/retrieval/run.js --tune` and set them here.
 */
export class RetrievalEnv {
  /** BM25 term-frequency saturation. */
  @Type(() => Number)
  @IsNumber({}, { message: 'must be a number' })
  @Min(0)
  @Max(10)
  RETRIEVAL_BM25_K1 = RECOMMENDED_BM25.k1;

  /** BM25 length normalisation, 0..1. */
  @Type(() => Number)
  @IsNumber({}, { message: 'must be a number' })
  @Min(0)
  @Max(1)
  RETRIEVAL_BM25_B = RECOMMENDED_BM25.b;

  /**
   * How the BM25 and vector rankings are fused: zscore (sum of z-normalised scores), minmax (sum of
   * min-max-normalised scores) or rrf (reciprocal rank fusion). The weights below are per method:
   * re-tune them when changing it.
   */
  @IsIn(HYBRID_FUSIONS, { message: `must be one of ${HYBRID_FUSIONS.join(', ')}` })
  RETRIEVAL_FUSION: HybridFusion = DEFAULT_HYBRID.fusion;

  /** Fusion weight of the BM25 ranking. */
  @Type(() => Number)
  @IsNumber({}, { message: 'must be a number' })
  @Min(0)
  @Max(100)
  RETRIEVAL_LEXICAL_WEIGHT = DEFAULT_HYBRID.lexicalWeight;

  /** Fusion weight of the vector ranking (0: BM25 only, the query is not embedded). */
  @Type(() => Number)
  @IsNumber({}, { message: 'must be a number' })
  @Min(0)
  @Max(100)
  RETRIEVAL_DENSE_WEIGHT = DEFAULT_HYBRID.denseWeight;

  /** RRF rank constant (RETRIEVAL_FUSION=rrf only). */
  @IsIntegerVar(0, 1000, 'must be an integer')
  RETRIEVAL_RRF_K = DEFAULT_HYBRID.rrfK;

  /** Candidates taken from each ranking before fusion. */
  @IsIntegerVar(1, 1000, 'must be an integer')
  RETRIEVAL_CANDIDATES = DEFAULT_HYBRID.candidates;
}
