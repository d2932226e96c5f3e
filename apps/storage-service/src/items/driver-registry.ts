import { Injectable } from '@nestjs/common';
import { createDriver, type StorageDriver } from '@docintel/storage';
import type { ProviderAccess } from '../providers/providers.service';

/**
 * One driver per provider and namespace, rooted at that namespace's part of the provider (its
 * directory or key prefix), built on first use and rebuilt if the provider's settings change.
 */
@Injectable()
export class DriverRegistry {
  private readonly drivers = new Map<string, { fingerprint: string; driver: StorageDriver }>();

  for(access: Pick<ProviderAccess, 'provider' | 'namespace' | 'driverSettings'>): StorageDriver {
    const id = `${access.provider.id}\u0000${access.namespace}`;
    const fingerprint = JSON.stringify([access.provider.type, access.driverSettings]);
    const known = this.drivers.get(id);
    if (known?.fingerprint === fingerprint) return known.driver;
    const driver = createDriver(access.provider.type, access.driverSettings);
    this.drivers.set(id, { fingerprint, driver });
    return driver;
  }
}
