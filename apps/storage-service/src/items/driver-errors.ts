import { DomainError, ErrorCode } from '@docintel/contracts';
import {
  StorageConflictError,
  StorageIncompleteError,
  StorageInvalidKeyError,
  StorageNotFoundError,
  StorageTooLargeError,
} from '@docintel/storage';

/** Runs a driver call, turning the driver's expected failures into domain errors (400, 404, 409, 413). */
export async function driverCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw asDomainError(err);
  }
}

export function asDomainError(err: unknown): unknown {
  if (err instanceof StorageNotFoundError) return DomainError.notFound('Item', err.key);
  if (err instanceof StorageConflictError) return DomainError.conflict(`An item already exists at ${err.key}`);
  if (err instanceof StorageTooLargeError) {
    return new DomainError(ErrorCode.PAYLOAD_TOO_LARGE, `The file is larger than the upload limit of ${err.maxBytes} bytes`);
  }
  if (err instanceof StorageIncompleteError) {
    return DomainError.invalid([{ field: '(body)', problem: err.message }], 'The upload did not deliver the announced number of bytes');
  }
  if (err instanceof StorageInvalidKeyError) return DomainError.invalid([{ field: 'key', problem: err.problem }], `key ${err.problem}`);
  return err;
}
