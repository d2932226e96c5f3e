import { Module, type DynamicModule } from '@nestjs/common';
import type { EmbeddingsEnv } from '@docintel/ai';
import { PipelineCoreModule } from '../pipeline/pipeline-core.module';
import { EMBEDDINGS_ENV, Embeddings } from './embedder.provider';
import { EmbeddingTexts } from './embedding-texts';
import { LargeFileNodeEmbeddingConsumer, NodeEmbeddingConsumer } from './node-embedding.consumer';
import { NodeVectorsRepository } from './node-vectors.repository';

/**
 * Nest makes one module instance per DynamicModule object it is given, so three forRoot() calls
 * returning three objects would hold three embedders (each with its model worker and its memory)
 * and start node_embedding three times. The object is therefore made once per configuration.
 */
const byConfiguration = new Map<string, DynamicModule>();

@Module({})
export class EmbeddingsModule {
  /**
   * node_embedding: node.batch.created → rule → pick nodes → embed (EMBEDDINGS_*) → store vectors.
   * Every module that imports it with the same configuration shares one instance, so the process
   * has one embedder and one set of node_embedding consumers.
   */
  static forRoot(embeddings: EmbeddingsEnv): DynamicModule {
    const key = JSON.stringify(embeddings);
    let module = byConfiguration.get(key);
    if (!module) {
      module = {
        module: EmbeddingsModule,
        imports: [PipelineCoreModule],
        providers: [
          { provide: EMBEDDINGS_ENV, useValue: embeddings },
          Embeddings,
          EmbeddingTexts,
          NodeVectorsRepository,
          NodeEmbeddingConsumer,
          LargeFileNodeEmbeddingConsumer,
        ],
        // The same embedder embeds the queries of passage search (passages/) and find-similar's works.
        exports: [Embeddings],
      };
      byConfiguration.set(key, module);
    }
    return module;
  }
}
