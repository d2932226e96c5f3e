import { Module, type DynamicModule } from '@nestjs/common';
import type { EmbeddingsEnv } from '@docintel/ai';
import { PipelineCoreModule } from '../pipeline/pipeline-core.module';
import { EMBEDDINGS_ENV, Embeddings } from './embedder.provider';
import { EmbeddingTexts } from './embedding-texts';
import { NodeEmbeddingConsumer } from './node-embedding.consumer';
import { NodeVectorsRepository } from './node-vectors.repository';

@Module({})
export class EmbeddingsModule {
  /** node_embedding: node.batch.created → rule → pick nodes → embed (EMBEDDINGS_*) → store vectors. */
  static forRoot(embeddings: EmbeddingsEnv): DynamicModule {
    return {
      module: EmbeddingsModule,
      imports: [PipelineCoreModule],
      providers: [
        { provide: EMBEDDINGS_ENV, useValue: embeddings },
        Embeddings,
        EmbeddingTexts,
        NodeVectorsRepository,
        NodeEmbeddingConsumer,
      ],
      // The same embedder embeds the queries of passage search (passages/).
      exports: [Embeddings],
    };
  }
}
