import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ByteCounter } from './byte-limit';
import { StorageIncompleteError, StorageTooLargeError } from './driver';

function chunks(sizes: number[]): Readable {
  return Readable.from(sizes.map((n) => Buffer.alloc(n, 1)));
}

async function drain(source: Readable, counter: ByteCounter): Promise<number> {
  let received = 0;
  await pipeline(source, counter, new Writable({ write: (chunk: Buffer, _e, cb) => ((received += chunk.length), cb()) }));
  return received;
}

describe('ByteCounter', () => {
  it('passes every byte through when no limit is set', async () => {
    const counter = new ByteCounter();
    expect(await drain(chunks([10, 20, 30]), counter)).toBe(60);
    expect(counter.bytes).toBe(60);
  });

  it('accepts a stream of exactly maxBytes', async () => {
    expect(await drain(chunks([50, 50]), new ByteCounter({ maxBytes: 100 }))).toBe(100);
  });

  it('fails with StorageTooLargeError at the first byte past maxBytes, before the rest is read', async () => {
    const total = 64 * 1024 * 1024;
    let produced = 0;
    const source = new Readable({
      read() {
        produced += 64 * 1024;
        this.push(produced > total ? null : Buffer.alloc(64 * 1024));
      },
    });
    const err = await drain(source, new ByteCounter({ maxBytes: 100_000 })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StorageTooLargeError);
    expect((err as StorageTooLargeError).maxBytes).toBe(100_000);
    expect(produced).toBeLessThan(total);
  });

  it('fails with StorageIncompleteError when the stream ends short of the announced size', async () => {
    const err = await drain(chunks([10]), new ByteCounter({ size: 11 })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StorageIncompleteError);
    expect(err).toMatchObject({ expectedBytes: 11, receivedBytes: 10 });
  });

  it('fails with StorageIncompleteError when the stream runs past the announced size', async () => {
    const err = await drain(chunks([10, 10]), new ByteCounter({ size: 15 })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StorageIncompleteError);
  });
});
