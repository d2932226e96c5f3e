import { Module, type OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Streams } from '@docintel/contracts';
import { JetStream } from '@docintel/messaging';
import { LOGGER, type Logger } from '@docintel/observability';
import { ProvidersModule } from '../providers/providers.module';
import { STORAGE_ENV, type StorageEnv } from '../storage.env';
import { DriverRegistry } from './driver-registry';
import { ItemEvents } from './item-events';
import { ItemSigning } from './item-signing';
import { ItemsHandler } from './items.handler';
import { ItemsService } from './items.service';

@Module({
  imports: [ProvidersModule],
  providers: [
    DriverRegistry,
    ItemEvents,
    ItemsService,
    ItemsHandler,
    {
      provide: ItemSigning,
      inject: [STORAGE_ENV, LOGGER, DataSource],
      useFactory: (env: StorageEnv, logger: Logger, ds: DataSource) => ItemSigning.create(env, logger, ds),
    },
  ],
})
export class ItemsModule implements OnModuleInit {
  constructor(private readonly jetstream: JetStream) {}

  /** Item events are durable: their stream exists before the first change is made. */
  async onModuleInit(): Promise<void> {
    await this.jetstream.ensureStream(Streams.domainEvents);
  }
}
