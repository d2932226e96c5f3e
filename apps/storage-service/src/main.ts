import { HealthPings, ServiceNames } from '@docintel/contracts';
import { LOGGER } from '@docintel/observability';
import { runService, serviceModule } from '@docintel/runtime';
import { ItemsModule } from './items/items.module';
import { ItemsService } from './items/items.service';
import { registerTransferRoutes } from './items/transfer-routes';
import { migrations } from './migrations';
import { ProviderEntity } from './providers/provider.entity';
import { ProvidersModule } from './providers/providers.module';
import { StorageEnv } from './storage.env';

void runService({
  service: ServiceNames.storage,
  env: StorageEnv,
  // Transfer grants are path parameters of up to a few kilobytes.
  fastify: { maxParamLength: 8192 },
  module: (env, logger) =>
    serviceModule(
      {
        service: ServiceNames.storage,
        ping: HealthPings.storage,
        persistence: { schema: 'storage', entities: [ProviderEntity], migrations },
        imports: [ProvidersModule, ItemsModule],
      },
      env,
      logger,
    ),
  configure: (app) => {
    registerTransferRoutes(app.getHttpAdapter().getInstance(), app.get(ItemsService), app.get(LOGGER));
  },
});
