import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { BlockFileWriter } from './block-file-writer';

describe('BlockFileWriter', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'block-writer-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes every byte in order whatever the chunk sizes, in whole blocks but the last, and fsyncs before it finishes', async () => {
    const path = join(dir, 'out.bin');
    const handle = await open(path, 'wx');
    const writes: number[] = [];
    const write = handle.write.bind(handle);
    handle.write = ((buffer: Buffer, offset: number, length: number) => {
      writes.push(length);
      return write(buffer, offset, length);
    }) as typeof handle.write;
    const sync = jest.spyOn(handle, 'sync');
    // Chunks smaller than, equal to and larger than a block, spanning block boundaries.
    const chunks = [3, 8, 1, 20, 5, 0, 7].map((n, i) => Buffer.alloc(n, 65 + i));
    await pipeline(Readable.from(chunks), new BlockFileWriter(handle, { fsync: true, blockBytes: 8 }));
    expect(readFileSync(path).equals(Buffer.concat(chunks))).toBe(true);
    expect(writes.slice(0, -1).every((n) => n === 8)).toBe(true);
    expect(writes.reduce((a, b) => a + b, 0)).toBe(44);
    expect(sync).toHaveBeenCalledTimes(1);
    // The handle is closed once the stream is done.
    await expect(handle.stat()).rejects.toThrow();
  });

  it('does not fsync when asked not to, and writes nothing for an empty stream', async () => {
    const path = join(dir, 'empty.bin');
    const handle = await open(path, 'wx');
    const sync = jest.spyOn(handle, 'sync');
    await pipeline(Readable.from([]), new BlockFileWriter(handle, { fsync: false, blockBytes: 8 }));
    expect(readFileSync(path).length).toBe(0);
    expect(sync).not.toHaveBeenCalled();
  });

  it('fails the pipeline when the source fails, and closes the file', async () => {
    const handle = await open(join(dir, 'broken.bin'), 'wx');
    const source = new Readable({ read() {} });
    const writer = new BlockFileWriter(handle, { fsync: true, blockBytes: 8 });
    const done = pipeline(source, writer);
    source.push(Buffer.alloc(20, 1));
    source.destroy(new Error('the client went away'));
    await expect(done).rejects.toThrow('the client went away');
    if (!writer.closed) await once(writer, 'close').catch(() => undefined);
    await expect(handle.stat()).rejects.toThrow();
  });

  it('fails when the file cannot be written', async () => {
    const handle = await open(join(dir, 'readonly.bin'), 'wx');
    await handle.close();
    const reopened = await open(join(dir, 'readonly.bin'), 'r');
    await expect(
      pipeline(Readable.from([Buffer.alloc(20, 1)]), new BlockFileWriter(reopened, { fsync: false, blockBytes: 8 })),
    ).rejects.toMatchObject({ code: 'EBADF' });
  });
});
