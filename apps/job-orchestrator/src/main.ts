import 'reflect-metadata';
import { HealthPings, ServiceNames } from '@docintel/contracts';
import { runService, serviceModule } from '@docintel/runtime';
import { readerProviders } from './reading/reader.provider';
import { JobsModule } from './jobs.module';
import { JobsEnv } from './jobs.env';
import { migrations } from './migrations';

void runService({
  service: ServiceNames.jobs,
  env: JobsEnv,
  module: (env, logger) =>
    serviceModule(
      {
        service: ServiceNames.jobs,
        ping: HealthPings.jobs,
        persistence: { schema: 'jobs', entities: [], migrations },
        imports: [JobsModule.forRoot(readerProviders(env))],
      },
      env,
      logger,
    ),
});
