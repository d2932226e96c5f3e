import { Module, type DynamicModule } from '@nestjs/common';
import type { EmbeddingsEnv } from '@docintel/ai';
import { EmbeddingsModule } from '../embeddings/embeddings.module';
import { PipelineCoreModule } from '../pipeline/pipeline-core.module';
import { FileResolutionRepository } from './file-resolution.repository';
import { FilesResolveService } from './files-resolve.service';
import { LargeFilePassageIndexingConsumer, PassageIndexingConsumer } from './passage-indexing.consumer';
import { PassageIndexingProgressRecorder } from './passage-indexing-progress';
import { passageRetrieverProvider, RETRIEVAL_ENV } from './passage-retriever.provider';
import { PassageSearchService } from './passage-search.service';
import { PassagesHandler } from './passages.handler';
import { PassagesAroundService } from './passages-around.service';
import { PassagesRepository } from './passages.repository';
import { ReadingOrderRepository } from './reading-order.repository';
import { RetrievalEnv } from './retrieval.env';

@Module({})
export class PassagesModule {
  /**
   * Retrieval for the AI jobs: the passage_indexing step (node.batch.created → passages → lexical
   * index), indexing.passages.search (hybrid BM25 + vectors), indexing.passages.around (a node's
   * passage and its neighbours in reading order) and indexing.files.resolve. The query embedder is
   * node_embedding's (EmbeddingsModule with the same configuration is one instance).
   */
  static forRoot(embeddings: EmbeddingsEnv, retrieval: RetrievalEnv = new RetrievalEnv()): DynamicModule {
    return {
      module: PassagesModule,
      imports: [PipelineCoreModule, EmbeddingsModule.forRoot(embeddings)],
      providers: [
        { provide: RETRIEVAL_ENV, useValue: retrieval },
        passageRetrieverProvider,
        PassagesRepository,
        PassageIndexingProgressRecorder,
        PassageIndexingConsumer,
        LargeFilePassageIndexingConsumer,
        PassageSearchService,
        ReadingOrderRepository,
        PassagesAroundService,
        FileResolutionRepository,
        FilesResolveService,
        PassagesHandler,
      ],
    };
  }
}
