import 'reflect-metadata';
import { EmbeddingsEnv } from '@docintel/ai';
import { loadConfig } from '@docintel/config';
import { HealthPings, ServiceNames } from '@docintel/contracts';
import { runService, serviceModule } from '@docintel/runtime';
import { CollectionEntity } from './collections/collection.entity';
import { CollectionsModule } from './collections/collections.module';
import { FilesModule } from './files/files.module';
import { applyHeapGrowth } from './heap-growth';
import { IndexedFileEntity } from './indexation/indexed-file.entity';
import { IndexingEnv } from './indexing.env';
import { migrations } from './migrations';
import { NodesModule } from './nodes/nodes.module';
import { PassagesModule } from './passages/passages.module';
import { RetrievalEnv } from './passages/retrieval.env';
import { PipelineModule } from './pipeline.module';
import { SimilarModule } from './similar/similar.module';
import { TablesModule } from './tables/tables.module';

void runService({
  service: ServiceNames.indexing,
  env: IndexingEnv,
  module: (env, logger) => {
    applyHeapGrowth(env);
    // EMBEDDINGS_* and RETRIEVAL_* are validated here, at start-up, like the service's own variables.
    const embeddings = loadConfig(EmbeddingsEnv);
    const retrieval = loadConfig(RetrievalEnv);
    return serviceModule(
      {
        service: ServiceNames.indexing,
        ping: HealthPings.indexing,
        persistence: { schema: 'indexing', entities: [IndexedFileEntity, CollectionEntity], migrations },
        imports: [
          FilesModule,
          CollectionsModule,
          NodesModule,
          PipelineModule.forRoot(embeddings),
          PassagesModule.forRoot(embeddings, retrieval),
          SimilarModule.forRoot(embeddings),
          TablesModule,
        ],
      },
      env,
      logger,
    );
  },
});
