import { HealthPings, ServiceNames } from '@docintel/contracts';
import { runService, ServiceEnv, serviceModule } from '@docintel/runtime';
import { migrations } from './migrations';
import { RuleEntity } from './rules/rule.entity';
import { RulesHandler } from './rules/rules.handler';
import { RulesRepository } from './rules/rules.repository';
import { RulesService } from './rules/rules.service';

void runService({
  service: ServiceNames.rules,
  env: ServiceEnv,
  module: (env, logger) =>
    serviceModule(
      {
        service: ServiceNames.rules,
        ping: HealthPings.rules,
        persistence: { schema: 'rules', entities: [RuleEntity], migrations },
        providers: [RulesRepository, RulesService, RulesHandler],
      },
      env,
      logger,
    ),
});
