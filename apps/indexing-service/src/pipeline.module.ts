import { Module, type DynamicModule } from '@nestjs/common';
import type { EmbeddingsEnv } from '@docintel/ai';
import { EmbeddingsModule } from './embeddings/embeddings.module';
import { FormulasModule } from './formulas/formulas.module';
import { OntologiesModule } from './ontologies/ontologies.module';
import { ParsingModule } from './parsing/parsing.module';
import { ReindexModule } from './reindex/reindex.module';
import { PipelineCoreModule } from './pipeline/pipeline-core.module';
import { Sweeper } from './pipeline/sweeper';

@Module({})
export class PipelineModule {
  /**
   * The indexation pipeline: one module per step (corpus_parsing, reindex, ontologies,
   * node_embedding, formula_augmentation), each declaring its @DurableWorker, and the sweeper.
   */
  static forRoot(embeddings: EmbeddingsEnv): DynamicModule {
    return {
      module: PipelineModule,
      imports: [PipelineCoreModule, ParsingModule, ReindexModule, OntologiesModule, EmbeddingsModule.forRoot(embeddings), FormulasModule],
      providers: [Sweeper],
    };
  }
}
