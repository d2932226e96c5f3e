import { HealthPings, ServiceNames } from '@docintel/contracts';
import { runService, ServiceEnv, serviceModule } from '@docintel/runtime';

void runService({
  service: ServiceNames.agent,
  env: ServiceEnv,
  module: (env, logger) =>
    serviceModule(
      {
        service: ServiceNames.agent,
        ping: HealthPings.agent,
        persistence: { schema: 'agent', entities: [], migrations: [] },
      },
      env,
      logger,
    ),
});
