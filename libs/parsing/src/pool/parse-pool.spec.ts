import { ParsePool } from './parse-pool';
import { makePdf } from '../testing/fixtures';

// Parser threads compile their TypeScript sources on start when run from the sources.
jest.setTimeout(60_000);

describe('ParsePool resource guards', () => {
  it('rejects documents over the byte, page and time limits and keeps serving', async () => {
    const pool = new ParsePool({ size: 1 });
    try {
      const big = Buffer.from('x'.repeat(2048));
      await expect(pool.parse({ source: big, fileName: 'a.txt' }, { maxBytes: 1024 })).rejects.toMatchObject({
        code: 'LIMIT_EXCEEDED',
        message: expect.stringMatching(/more than the limit of/),
      });

      const pdf = makePdf([[{ text: 'one', x: 72, y: 700 }], [{ text: 'two', x: 72, y: 700 }], [{ text: 'three', x: 72, y: 700 }]]);
      await expect(pool.parse({ source: pdf, fileName: 'p.pdf' }, { maxPages: 2 })).rejects.toMatchObject({
        code: 'LIMIT_EXCEEDED',
        message: 'The PDF has 3 pages, more than the limit of 2.',
      });

      const csv = Buffer.from(Array.from({ length: 200_000 }, (_, i) => `${i},value ${i},"quoted, ${i}"`).join('\n'));
      await expect(pool.parse({ source: csv, fileName: 'huge.csv' }, { timeoutMs: 1 })).rejects.toMatchObject({ code: 'TIMEOUT' });

      await expect(pool.parse({ source: Buffer.from('still here'), fileName: 'ok.txt' })).resolves.toMatchObject({
        format: { family: 'text' },
      });
    } finally {
      await pool.close();
    }
  });

  it('stops a document that exhausts the thread memory and replaces the thread', async () => {
    const pool = new ParsePool({ size: 1, limits: { maxMemoryMb: 48 } });
    try {
      const rows = Array.from({ length: 300_000 }, (_, i) => `{"id":${i},"name":"item number ${i}","tags":["a","b","c"]}`);
      const json = Buffer.from(`[${rows.join(',')}]`);
      await expect(pool.parse({ source: json, fileName: 'big.json' })).rejects.toMatchObject({
        code: 'OUT_OF_MEMORY',
        message: expect.stringMatching(/more than 48 MiB/),
      });
      await expect(pool.parse({ source: Buffer.from('{"ok":true}'), fileName: 'small.json' })).resolves.toMatchObject({
        format: { family: 'json' },
      });
    } finally {
      await pool.close();
    }
  });
});
