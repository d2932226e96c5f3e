import { Global, Module, type DynamicModule } from '@nestjs/common';
import type { Logger } from 'pino';
import { EventLoopMonitor, DEFAULT_EVENT_LOOP_LIVENESS, type EventLoopLivenessOptions } from './event-loop';
import { HealthRegistry, OperationsController } from './health';
import { Metrics } from './metrics';

export const LOGGER = Symbol('LOGGER');

@Global()
@Module({})
export class ObservabilityModule {
  static forRoot(opts: { service: string; logger: Logger; liveness?: EventLoopLivenessOptions }): DynamicModule {
    const health = new HealthRegistry(opts.service);
    const metrics = new Metrics(opts.service);
    const eventLoop = new EventLoopMonitor(opts.liveness ?? DEFAULT_EVENT_LOOP_LIVENESS);
    return {
      module: ObservabilityModule,
      controllers: [OperationsController],
      providers: [
        { provide: HealthRegistry, useValue: health },
        { provide: Metrics, useValue: metrics },
        { provide: EventLoopMonitor, useValue: eventLoop },
        { provide: LOGGER, useValue: opts.logger },
      ],
      exports: [HealthRegistry, Metrics, EventLoopMonitor, LOGGER],
    };
  }
}
