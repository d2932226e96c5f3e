import { Global, Module, type DynamicModule } from '@nestjs/common';
import type { Logger } from 'pino';
import { HealthRegistry, OperationsController } from './health';
import { Metrics } from './metrics';

export const LOGGER = Symbol('LOGGER');

@Global()
@Module({})
export class ObservabilityModule {
  static forRoot(opts: { service: string; logger: Logger }): DynamicModule {
    const health = new HealthRegistry(opts.service);
    const metrics = new Metrics(opts.service);
    return {
      module: ObservabilityModule,
      controllers: [OperationsController],
      providers: [
        { provide: HealthRegistry, useValue: health },
        { provide: Metrics, useValue: metrics },
        { provide: LOGGER, useValue: opts.logger },
      ],
      exports: [HealthRegistry, Metrics, LOGGER],
    };
  }
}
