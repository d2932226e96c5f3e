import { Inject, Injectable } from '@nestjs/common';
import type { PassageReranker } from '@docintel/answering';
import type { PassageDto } from '@docintel/contracts';
import { RERANKER } from './reader.token';

/**
 * The passages a reader gets, best first: as retrieval fused them, or reordered by the configured
 * cross-encoder (RERANKER_MODEL_DIR), whose relevance then becomes the passage's score (a logistic
 * of its logit, so 0..1 like the reader expects of a score).
 */
@Injectable()
export class PassageRanking {
  constructor(@Inject(RERANKER) private readonly reranker: PassageReranker | null) {}

  async rank(query: string, passages: PassageDto[], signal?: AbortSignal): Promise<PassageDto[]> {
    if (!this.reranker || passages.length < 2) return passages;
    const scores = await this.reranker.rerank(
      query,
      passages.map((p) => p.text),
      signal,
    );
    return passages.map((p, i) => ({ ...p, score: 1 / (1 + Math.exp(-scores[i])) })).sort((a, b) => b.score - a.score);
  }
}
