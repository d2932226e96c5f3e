import { Readable } from 'node:stream';
import { coalesce } from './coalesce';

async function sizes(chunks: Buffer[], block: number): Promise<{ sizes: number[]; bytes: Buffer }> {
  const out: Buffer[] = [];
  for await (const chunk of Readable.from(chunks).pipe(coalesce(block))) out.push(chunk as Buffer);
  return { sizes: out.map((c) => c.length), bytes: Buffer.concat(out) };
}

describe('coalesce', () => {
  it('gathers small chunks into blocks of at least the block size, bytes unchanged', async () => {
    const chunks = Array.from({ length: 10 }, (_, i) => Buffer.alloc(3, i));
    const { sizes: s, bytes } = await sizes(chunks, 8);
    // A byte stream may hand several blocks over as one chunk; none is smaller than a block but the last.
    expect(s.length).toBeLessThan(chunks.length);
    for (const size of s.slice(0, -1)) expect(size).toBeGreaterThanOrEqual(8);
    expect(bytes.equals(Buffer.concat(chunks))).toBe(true);
  });

  it('passes nothing for an empty stream', async () => {
    expect((await sizes([], 8)).sizes).toEqual([]);
  });
});
