import { Transform, Type } from 'class-transformer';
import { IsBoolean, IsInt, IsUrl, Max, Min } from 'class-validator';

/**
 * The validators environment classes share, each written once: a variable's rule and its message
 * are the same in every process that reads it.
 */

/** Several decorators as one, applied as if stacked in this order (the last first, as TypeScript does). */
function all(...decorators: PropertyDecorator[]): PropertyDecorator {
  return (target, key) => [...decorators].reverse().forEach((d) => d(target, key));
}

/** An integer from `min` to `max`, converted from the variable's text; `message` says what kind of integer. */
export function IsIntegerVar(min: number, max: number, message?: string): PropertyDecorator {
  return all(
    Type(() => Number),
    IsInt(message === undefined ? undefined : { message }),
    Min(min),
    Max(max),
  );
}

/** A TCP port number (0: any free port). */
export const IsPortVar = (): PropertyDecorator => IsIntegerVar(0, 65535, 'must be a TCP port number');

/** A size in bytes, at least 1. */
export const IsByteCountVar = (): PropertyDecorator => IsIntegerVar(1, Number.MAX_SAFE_INTEGER, 'must be a whole number of bytes');

/** An http:// or https:// URL (a host without a top-level domain, such as a service name, is fine). */
export function IsHttpUrlVar(example?: string): PropertyDecorator {
  return IsUrl(
    { require_tld: false, require_protocol: true, protocols: ['http', 'https'] },
    { message: example ? `must be an http(s) URL such as ${example}` : 'must be an http(s) URL' },
  );
}

/** true for 1, true or yes (any case), false for any other text. */
export function IsBooleanVar(): PropertyDecorator {
  return all(
    Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? ['1', 'true', 'yes'].includes(value.toLowerCase()) : value)),
    IsBoolean({ message: 'must be true or false' }),
  );
}

// Variables more than one process reads: one rule and one default each.

/** STORAGE_SERVICE_URL's default: the storage service's HTTP port when `npm start` runs it. */
export const DEFAULT_STORAGE_SERVICE_URL = 'http://127.0.0.1:8081';

/** STORAGE_SERVICE_URL (api-gateway, indexing-service): where the storage service's HTTP port is reachable. */
export const IsStorageServiceUrlVar = (): PropertyDecorator => IsHttpUrlVar(DEFAULT_STORAGE_SERVICE_URL);

/** MAX_UPLOAD_BYTES's default (api-gateway, storage-service): 5 GiB. */
export const DEFAULT_MAX_UPLOAD_BYTES = 5 * 1024 ** 3;
