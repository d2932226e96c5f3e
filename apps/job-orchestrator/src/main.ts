import { HealthPings, ServiceNames } from '@docintel/contracts';
import { runService, ServiceEnv, serviceModule } from '@docintel/runtime';

void runService({
  service: ServiceNames.jobs,
  env: ServiceEnv,
  module: (env, logger) =>
    serviceModule(
      {
        service: ServiceNames.jobs,
        ping: HealthPings.jobs,
        persistence: { schema: 'jobs', entities: [], migrations: [] },
      },
      env,
      logger,
    ),
});
