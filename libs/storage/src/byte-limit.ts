import { Transform, type TransformCallback } from 'node:stream';
import { StorageIncompleteError, StorageTooLargeError } from './driver';

/**
 * A pass-through that counts bytes: it errors with StorageTooLargeError as soon as more than
 * `maxBytes` pass (so the upload stops at the limit, not after reading everything), and, when
 * the caller announced a size, with StorageIncompleteError if the stream ends early or runs long.
 */
export class ByteCounter extends Transform {
  bytes = 0;

  constructor(private readonly limits: { maxBytes?: number; size?: number } = {}) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    const { maxBytes, size } = this.limits;
    if (maxBytes !== undefined && this.bytes > maxBytes) return callback(new StorageTooLargeError(maxBytes));
    if (size !== undefined && this.bytes > size) return callback(new StorageIncompleteError(size, this.bytes));
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    const { size } = this.limits;
    if (size !== undefined && this.bytes !== size) return callback(new StorageIncompleteError(size, this.bytes));
    callback();
  }
}
