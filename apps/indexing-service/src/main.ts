import 'reflect-metadata';
import { EmbeddingsEnv } from '@docintel/ai';
import { loadConfig } from '@docintel/config';
import { HealthPings, ServiceNames } from '@docintel/contracts';
import { runService, serviceModule } from '@docintel/runtime';
import { CollectionEntity } from './collections/collection.entity';
import { CollectionsModule } from './collections/collections.module';
import { FilesModule } from './files/files.module';
import { IndexedFileEntity } from './files/indexed-file.entity';
import { IndexingEnv } from './indexing.env';
import { migrations } from './migrations';
import { NodesModule } from './nodes/nodes.module';
import { PipelineModule } from './pipeline/pipeline.module';

void runService({
  service: ServiceNames.indexing,
  env: IndexingEnv,
  module: (env, logger) =>
    serviceModule(
      {
        service: ServiceNames.indexing,
        ping: HealthPings.indexing,
        persistence: { schema: 'indexing', entities: [IndexedFileEntity, CollectionEntity], migrations },
        // EMBEDDINGS_* are validated here, at start-up, like the service's own variables.
        imports: [FilesModule, CollectionsModule, NodesModule, PipelineModule.forRoot(loadConfig(EmbeddingsEnv))],
      },
      env,
      logger,
    ),
});
