import { ServiceNames, Subjects } from '@docintel/contracts';
import { runService, ServiceEnv, serviceModule } from '@docintel/runtime';

void runService({
  service: ServiceNames.indexing,
  env: ServiceEnv,
  module: (env, logger) =>
    serviceModule(
      {
        service: ServiceNames.indexing,
        pingSubject: Subjects.indexing.ping,
        persistence: { schema: 'indexing', entities: [], migrations: [] },
      },
      env,
      logger,
    ),
});
