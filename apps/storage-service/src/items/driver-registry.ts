import { Injectable } from '@nestjs/common';
import { createDriver, type StorageDriver } from '@docintel/storage';
import type { ProviderEntity } from '../providers/provider.entity';

/** One driver per provider, built on first use and rebuilt if the provider's settings change. */
@Injectable()
export class DriverRegistry {
  private readonly drivers = new Map<string, { fingerprint: string; driver: StorageDriver }>();

  for(provider: ProviderEntity): StorageDriver {
    const fingerprint = JSON.stringify([provider.type, provider.settings]);
    const known = this.drivers.get(provider.id);
    if (known?.fingerprint === fingerprint) return known.driver;
    const driver = createDriver(provider.type, provider.settings);
    this.drivers.set(provider.id, { fingerprint, driver });
    return driver;
  }
}
