import { Inject, Injectable } from '@nestjs/common';
import type { PassageDto, PassageSearchReply, PassageSearchRequest } from '@docintel/contracts';
import { LOGGER, type Logger } from '@docintel/observability';
import { HybridPassageSearch, type PassageRetriever } from '@docintel/retrieval';
import { Embeddings } from '../embeddings/embedder.provider';
import { PASSAGE_RETRIEVER, RETRIEVAL_ENV } from './passage-retriever.provider';
import { RetrievalEnv } from './retrieval.env';
import { PassagesRepository, toPassageDto } from './passages.repository';

/** Hits asked of the fusion beyond the limit: some may not hydrate (a dense hit on a node that is not a passage, a replaced tree). */
const HEADROOM = 20;

/**
 * indexing.passages.search: HybridPassageSearch (libs/retrieval) over the namespace's passages of
 * the given files, BM25 from the PassageRetriever and the node vectors of node_embedding with the
 * query embedded by the same embedder, fused as RETRIEVAL_FUSION says (normalised scores by default); then each hit is read from the
 * passages table (text, headings, segments with positions), current trees only. When the dense leg
 * fails (embedder down) the search answers from BM25 alone and logs why.
 */
@Injectable()
export class PassageSearchService {
  private readonly hybrid: HybridPassageSearch;

  constructor(
    @Inject(PASSAGE_RETRIEVER) retriever: PassageRetriever,
    embeddings: Embeddings,
    private readonly passages: PassagesRepository,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(RETRIEVAL_ENV) env: RetrievalEnv,
  ) {
    this.hybrid = new HybridPassageSearch({
      retriever,
      parameters: {
        fusion: env.RETRIEVAL_FUSION,
        lexicalWeight: env.RETRIEVAL_LEXICAL_WEIGHT,
        denseWeight: env.RETRIEVAL_DENSE_WEIGHT,
        rrfK: env.RETRIEVAL_RRF_K,
        candidates: env.RETRIEVAL_CANDIDATES,
      },
      vectors: (namespaceId, vector, options) => embeddings.store.search(namespaceId, vector, options),
      embedQuery: async (query) => (await embeddings.embedder.embed([query.slice(0, embeddings.maxChars)]))[0],
    });
  }

  /** Over the files named, or over every file of the namespace when none is. */
  async search(namespaceId: string, req: PassageSearchRequest): Promise<PassageSearchReply> {
    const fileIds = req.fileIds ? [...new Set(req.fileIds)] : undefined;
    const { hits, denseError } = await this.hybrid.search(namespaceId, req.query, {
      limit: Math.min(1000, req.limit + HEADROOM),
      fileIds,
      dense: req.dense ?? true,
    });
    if (denseError) this.logger.warn({ err: denseError }, 'passage search: the dense leg failed, answering from BM25 alone');
    const stored = await this.passages.read(
      namespaceId,
      fileIds,
      hits.map((h) => h.nodeId),
    );
    const passages: PassageDto[] = [];
    for (const hit of hits) {
      const p = stored.get(hit.nodeId);
      if (!p) continue;
      passages.push(toPassageDto(p, hit.score));
      if (passages.length === req.limit) break;
    }
    return { passages };
  }
}
