import { Module, type DynamicModule } from '@nestjs/common';
import type { EmbeddingsEnv } from '@docintel/ai';
import { RulesClient } from '@docintel/rules';
import { EMBEDDINGS_ENV, Embeddings } from '../embeddings/embedder.provider';
import { EmbeddingTexts } from '../embeddings/embedding-texts';
import { NodeEmbeddingConsumer } from '../embeddings/node-embedding.consumer';
import { NodeVectorsRepository } from '../embeddings/node-vectors.repository';
import { FilesModule } from '../files/files.module';
import { FormulaAugmentationConsumer } from '../formulas/formula-augmentation.consumer';
import { NodesModule } from '../nodes/nodes.module';
import { CorpusParsingConsumer } from './corpus-parsing.consumer';
import { DurableWorkers } from './durable-workers';
import { IndexationDispatchModule } from './indexation-dispatch.module';
import { OntologiesConsumer } from './ontologies.consumer';
import { Parsers } from './parsers';
import { ReindexConsumer } from './reindex.consumer';
import { StepProgressRecorder } from './step-progress';
import { StorageBytes } from './storage-bytes';
import { Sweeper } from './sweeper';
import { TreeEvents } from './tree-events';

@Module({})
export class PipelineModule {
  /** The indexation pipeline: corpus_parsing, the steps after it, node_embedding, formula_augmentation and the sweeper. */
  static forRoot(embeddings: EmbeddingsEnv): DynamicModule {
    return {
      module: PipelineModule,
      imports: [FilesModule, NodesModule, IndexationDispatchModule],
      providers: [
        { provide: EMBEDDINGS_ENV, useValue: embeddings },
        RulesClient,
        DurableWorkers,
        Parsers,
        StorageBytes,
        TreeEvents,
        StepProgressRecorder,
        NodeVectorsRepository,
        EmbeddingTexts,
        Embeddings,
        CorpusParsingConsumer,
        ReindexConsumer,
        OntologiesConsumer,
        NodeEmbeddingConsumer,
        FormulaAugmentationConsumer,
        Sweeper,
      ],
    };
  }
}
