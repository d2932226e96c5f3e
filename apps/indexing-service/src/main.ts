import { ServiceNames, Subjects } from '@docintel/contracts';
import { runService, ServiceEnv, serviceModule } from '@docintel/runtime';
import { CollectionEntity } from './collections/collection.entity';
import { CollectionsModule } from './collections/collections.module';
import { FilesModule } from './files/files.module';
import { IndexedFileEntity } from './files/indexed-file.entity';
import { migrations } from './migrations';
import { NodesModule } from './nodes/nodes.module';

void runService({
  service: ServiceNames.indexing,
  env: ServiceEnv,
  module: (env, logger) =>
    serviceModule(
      {
        service: ServiceNames.indexing,
        pingSubject: Subjects.indexing.ping,
        persistence: { schema: 'indexing', entities: [IndexedFileEntity, CollectionEntity], migrations },
        imports: [FilesModule, CollectionsModule, NodesModule],
      },
      env,
      logger,
    ),
});
