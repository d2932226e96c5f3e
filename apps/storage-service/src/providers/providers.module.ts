import { Inject, Module, type OnModuleInit } from '@nestjs/common';
import { LOGGER, type Logger } from '@docintel/observability';
import { ProvidersHandler } from './providers.handler';
import { ProvidersRepository } from './providers.repository';
import { ProvidersService } from './providers.service';
import { loadProviderCatalog } from './provider-config';
import { STORAGE_ENV, type StorageEnv } from '../storage.env';

@Module({
  providers: [ProvidersRepository, ProvidersService, ProvidersHandler],
  exports: [ProvidersService],
})
export class ProvidersModule implements OnModuleInit {
  constructor(
    private readonly repository: ProvidersRepository,
    @Inject(STORAGE_ENV) private readonly env: StorageEnv,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Seeds the operator's catalogue before any request is served. */
  async onModuleInit(): Promise<void> {
    const catalog = loadProviderCatalog(this.env.PROVIDERS_FILE, this.env.STORAGE_ROOT);
    await this.repository.replaceCatalog(catalog);
    this.logger.info({ providers: catalog.map((p) => `${p.name} (${p.type})`) }, 'provider catalogue loaded');
  }
}
