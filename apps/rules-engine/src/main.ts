import { ServiceNames, Subjects } from '@docintel/contracts';
import { runService, ServiceEnv, serviceModule } from '@docintel/runtime';

void runService({
  service: ServiceNames.rules,
  env: ServiceEnv,
  module: (env, logger) =>
    serviceModule(
      {
        service: ServiceNames.rules,
        pingSubject: Subjects.rules.ping,
        persistence: { schema: 'rules', entities: [], migrations: [] },
      },
      env,
      logger,
    ),
});
