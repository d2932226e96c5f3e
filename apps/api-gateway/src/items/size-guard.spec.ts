import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DomainError } from '@docintel/contracts';
import { guardSize } from './size-guard';

async function drain(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  await pipeline(stream, async function* (source: AsyncIterable<Buffer>) {
    for await (const chunk of source) chunks.push(chunk);
  });
  return Buffer.concat(chunks);
}

describe('guardSize', () => {
  it('passes a file within the limit through unchanged', async () => {
    const source = Readable.from([Buffer.from('abc'), Buffer.from('def')]);
    expect((await drain(guardSize(source, 6))).toString()).toBe('abcdef');
  });

  it('fails with 413 as soon as more than the limit arrives', async () => {
    const source = Readable.from([Buffer.alloc(4), Buffer.alloc(4)]);
    await expect(drain(guardSize(source, 6))).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
  });

  it('turns the clean end of a file the parser truncated at its limit into a 413', async () => {
    const source = Object.assign(new PassThrough(), { truncated: false });
    const guarded = guardSize(source, 100);
    source.write(Buffer.alloc(10));
    source.truncated = true;
    source.end();
    await expect(drain(guarded)).rejects.toBeInstanceOf(DomainError);
  });

  it('fails, instead of ending, when the source is closed before its end (the client went away)', async () => {
    const source = new PassThrough();
    const guarded = guardSize(source, 100);
    source.write(Buffer.alloc(10));
    source.destroy();
    await expect(drain(guarded)).rejects.toMatchObject({ message: expect.stringMatching(/broke off/) });
  });

  it('fails with a 400 naming file when the source was already closed before the guard came (a body cut short while storage was asked)', async () => {
    const source = new PassThrough();
    source.write(Buffer.from('hello'));
    source.destroy();
    await new Promise((r) => setImmediate(r));
    const guarded = guardSize(source, 100);
    const err = (await drain(guarded).catch((e: unknown) => e)) as DomainError;
    expect(err).toBeInstanceOf(DomainError);
    expect(err.code).toBe('VALIDATION_FAILED');
    expect(err.details[0].field).toBe('file');
  });

  it('turns a parser error on the file into a 400 naming file, not an internal error', async () => {
    const source = new PassThrough();
    const guarded = guardSize(source, 100);
    source.emit('error', new Error('Part terminated early due to unexpected end of multipart data'));
    const err = (await drain(guarded).catch((e: unknown) => e)) as DomainError;
    expect(err).toBeInstanceOf(DomainError);
    expect(err).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'file' }] });
  });

  it('does not leave an unhandled error behind when nobody reads the guard yet', async () => {
    const source = new PassThrough();
    const guarded = guardSize(source, 100);
    source.destroy();
    await new Promise((r) => setImmediate(r));
    expect(guarded.destroyed).toBe(true);
    expect(guarded.errored).toBeInstanceOf(DomainError);
  });
});
