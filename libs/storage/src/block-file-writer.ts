import type { FileHandle } from 'node:fs/promises';
import { Writable } from 'node:stream';

export const TRANSFER_BLOCK_BYTES = 256 * 1024;

/**
 * Writes a byte stream into an open file in blocks of `blockBytes`, gathered in one buffer that is
 * reused for the whole file, then fsyncs it (when asked) before it finishes and closes the handle
 * when it is destroyed. Small socket chunks become few file writes, and a transfer allocates no
 * buffer of its own per block: fresh blocks would outlive the young generation while their writes
 * wait on the thread pool, and a gigabyte of them makes V8 run dozens of full collections.
 */
export class BlockFileWriter extends Writable {
  private readonly block: Buffer;
  private filled = 0;

  constructor(
    private readonly handle: FileHandle,
    private readonly options: { fsync: boolean; blockBytes?: number },
  ) {
    super({ highWaterMark: options.blockBytes ?? TRANSFER_BLOCK_BYTES });
    this.block = Buffer.allocUnsafe(options.blockBytes ?? TRANSFER_BLOCK_BYTES);
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (err?: Error | null) => void): void {
    let offset = 0;
    const fill = (): void => {
      while (offset < chunk.length) {
        const copied = chunk.copy(this.block, this.filled, offset);
        this.filled += copied;
        offset += copied;
        if (this.filled === this.block.length) {
          this.flushBlock().then(fill, done);
          return;
        }
      }
      done();
    };
    fill();
  }

  override _final(done: (err?: Error | null) => void): void {
    const finish = async () => {
      if (this.filled) await this.flushBlock();
      if (this.options.fsync) await this.handle.sync();
    };
    finish().then(() => done(), done);
  }

  override _destroy(err: Error | null, done: (err?: Error | null) => void): void {
    this.handle.close().then(
      () => done(err),
      (closeErr: Error) => done(err ?? closeErr),
    );
  }

  private async flushBlock(): Promise<void> {
    let written = 0;
    while (written < this.filled) {
      const { bytesWritten } = await this.handle.write(this.block, written, this.filled - written);
      written += bytesWritten;
    }
    this.filled = 0;
  }
}
