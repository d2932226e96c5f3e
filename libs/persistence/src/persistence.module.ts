import { Global, Inject, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { HealthRegistry } from '@docintel/observability';
import { createDataSource, initializeDataSource, type PersistenceOptions } from './data-source';

class DataSourceLifecycle implements OnApplicationShutdown {
  constructor(@Inject(DataSource) private readonly ds: DataSource) {}

  async onApplicationShutdown(): Promise<void> {
    if (this.ds.isInitialized) await this.ds.destroy();
  }
}

/** One TypeORM DataSource per service, on the service's own schema, migrated at start-up. */
@Global()
@Module({})
export class PersistenceModule {
  static forRoot(options: PersistenceOptions): DynamicModule {
    return {
      module: PersistenceModule,
      providers: [
        {
          provide: DataSource,
          inject: [HealthRegistry],
          useFactory: async (health: HealthRegistry) => {
            const ds = await initializeDataSource(createDataSource(options), options);
            health.register('postgres', async () => {
              await ds.query('SELECT 1');
            });
            return ds;
          },
        },
        DataSourceLifecycle,
      ],
      exports: [DataSource],
    };
  }
}
