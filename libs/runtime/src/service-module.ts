import { Module, type DynamicModule, type Provider, type Type } from '@nestjs/common';
import type { PingCall } from '@docintel/contracts';
import type { Logger } from '@docintel/observability';
import type { PersistenceOptions } from '@docintel/persistence';
import { pingHandler } from './ping.handler';
import { infrastructure } from './run-service';
import type { ServiceEnv } from './service-env';

/** The validated environment of the running service, injectable anywhere. */
export const SERVICE_ENV = Symbol('SERVICE_ENV');

export interface ServiceModuleDefinition {
  service: string;
  /** The service's health ping (contracts `HealthPings`). */
  ping: PingCall;
  persistence: Omit<PersistenceOptions, 'url' | 'poolSize'>;
  imports?: Array<Type<unknown> | DynamicModule>;
  providers?: Provider[];
  controllers?: Type<unknown>[];
}

@Module({})
class ServiceRootModule {}

@Module({})
class EnvModule {}

/** A service's root module: its environment, observability, NATS, Postgres, a ping handler and its features. */
export function serviceModule(def: ServiceModuleDefinition, env: ServiceEnv, logger: Logger): DynamicModule {
  return {
    module: ServiceRootModule,
    imports: [
      { module: EnvModule, global: true, providers: [{ provide: SERVICE_ENV, useValue: env }], exports: [SERVICE_ENV] },
      ...infrastructure(def.service, env, logger, def.persistence),
      ...(def.imports ?? []),
    ],
    controllers: def.controllers ?? [],
    providers: [pingHandler(def.service, def.ping), ...(def.providers ?? [])],
  };
}
