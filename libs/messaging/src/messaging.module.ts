import { Global, Inject, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import type { NatsConnection } from 'nats';
import { HealthRegistry, LOGGER, type Logger } from '@docintel/observability';
import { JetStream } from './jetstream';
import { connectNats } from './nats-connection';
import { NATS_CONNECTION, NATS_OPTIONS, type NatsOptions } from './nats.options';
import { RpcClient } from './rpc-client';
import { RpcServer } from './rpc-server';

class NatsLifecycle implements OnApplicationShutdown {
  constructor(
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    // drain() flushes what was published and closes once every subscription is done.
    if (!this.nc.isClosed()) await this.nc.drain().catch((err) => this.logger.warn({ err }, 'NATS drain failed'));
  }
}

/** NATS connection, RPC server (handlers in a queue group), RPC client and JetStream helpers. */
@Global()
@Module({})
export class MessagingModule {
  static forRoot(options: NatsOptions): DynamicModule {
    return {
      module: MessagingModule,
      imports: [DiscoveryModule],
      providers: [
        { provide: NATS_OPTIONS, useValue: options },
        {
          provide: NATS_CONNECTION,
          inject: [HealthRegistry],
          useFactory: async (health: HealthRegistry) => {
            const nc = await connectNats(options.url, options.service);
            health.register('nats', async () => {
              if (nc.isClosed()) throw new Error('connection closed');
              await nc.flush();
            });
            return nc;
          },
        },
        NatsLifecycle,
        RpcServer,
        RpcClient,
        JetStream,
      ],
      exports: [NATS_CONNECTION, NATS_OPTIONS, RpcClient, JetStream],
    };
  }
}
