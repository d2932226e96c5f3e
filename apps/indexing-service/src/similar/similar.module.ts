import { Module, type DynamicModule } from '@nestjs/common';
import type { EmbeddingsEnv } from '@docintel/ai';
import { EmbeddingsModule } from '../embeddings/embeddings.module';
import { SimilarFilesHandler } from './similar-files.handler';
import { SimilarFilesRepository } from './similar-files.repository';
import { SimilarFilesService } from './similar-files.service';

@Module({})
export class SimilarModule {
  /**
   * Find-similar for the job orchestrator: indexing.similar.by-source and indexing.similar.by-work.
   * Works are embedded with node_embedding's embedder (EmbeddingsModule with the same configuration
   * is one instance), so their vectors compare with the files' node vectors.
   */
  static forRoot(embeddings: EmbeddingsEnv): DynamicModule {
    return {
      module: SimilarModule,
      imports: [EmbeddingsModule.forRoot(embeddings)],
      providers: [SimilarFilesRepository, SimilarFilesService, SimilarFilesHandler],
    };
  }
}
