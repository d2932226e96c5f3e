import type { ProviderType } from '@docintel/contracts';
import type { StorageDriver } from './driver';
import { LocalDriver } from './local-driver';
import { S3Driver } from './s3-driver';

/**
 * Builds a driver from a provider's stored settings (the field names of the providers file).
 * Adding a backend means adding its driver file and one line here; the Record type makes the
 * compiler ask for it when a provider type is added to the contracts.
 */
const FACTORIES: Record<ProviderType, (settings: Record<string, unknown>) => StorageDriver> = {
  LOCAL: (s) => new LocalDriver({ root: requiredString(s, 'root', 'LOCAL') }),
  S3: (s) =>
    new S3Driver({
      bucketName: requiredString(s, 'bucketName', 'S3'),
      region: optionalString(s, 'region'),
      endpoint: optionalString(s, 'endpoint'),
      pathStyle: typeof s.pathStyle === 'boolean' ? s.pathStyle : undefined,
      accessKey: optionalString(s, 'accessKey'),
      secretKey: optionalString(s, 'secretKey'),
      sessionToken: optionalString(s, 'sessionToken'),
      prefix: optionalString(s, 'prefix'),
    }),
};

export function createDriver(type: ProviderType, settings: Record<string, unknown>): StorageDriver {
  const factory = (FACTORIES as Record<string, ((s: Record<string, unknown>) => StorageDriver) | undefined>)[type];
  if (!factory) throw new Error(`No storage driver for provider type ${String(type)}`);
  return factory(settings);
}

function requiredString(settings: Record<string, unknown>, key: string, type: string): string {
  const value = settings[key];
  if (typeof value !== 'string' || value === '') throw new Error(`A ${type} provider needs the setting "${key}"`);
  return value;
}

function optionalString(settings: Record<string, unknown>, key: string): string | undefined {
  const value = settings[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}
