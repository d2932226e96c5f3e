import { ServiceNames, Subjects } from '@docintel/contracts';
import { runService, serviceModule } from '@docintel/runtime';
import { migrations } from './migrations';
import { ProviderEntity } from './providers/provider.entity';
import { ProvidersModule } from './providers/providers.module';
import { StorageEnv } from './storage.env';

void runService({
  service: ServiceNames.storage,
  env: StorageEnv,
  module: (env, logger) =>
    serviceModule(
      {
        service: ServiceNames.storage,
        pingSubject: Subjects.storage.ping,
        persistence: { schema: 'storage', entities: [ProviderEntity], migrations },
        imports: [ProvidersModule],
      },
      env,
      logger,
    ),
});
