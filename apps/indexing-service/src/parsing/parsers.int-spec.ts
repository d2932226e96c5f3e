import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Metrics } from '@docintel/observability';
import { ParsePool } from '@docintel/parsing';
import { IndexingEnv } from '../indexing.env';
import { Parsers } from './parsers';

/** Real parser threads (started from the TypeScript sources, so slowly): an integration test. */
describe('Parsers', () => {
  const dir = mkdtempSync(join(tmpdir(), 'parsers-spec-'));
  const textFile = (name: string, words: number): { path: string; size: number } => {
    const text = Array.from({ length: words }, (_, i) => `word${i}`).join(' ');
    writeFileSync(join(dir, name), `${text}\n`);
    return { path: join(dir, name), size: Buffer.byteLength(text) + 1 };
  };

  /** Counts the pools of parser threads alive at once: the service's pool, and one per large file being parsed. */
  function watchThreads() {
    const { parse, close } = ParsePool.prototype;
    const alive = new Set<ParsePool>();
    let most = 0;
    let ended = 0;
    const parseSpy = jest.spyOn(ParsePool.prototype, 'parse').mockImplementation(function (this: ParsePool, ...args) {
      alive.add(this);
      most = Math.max(most, alive.size);
      return parse.apply(this, args);
    });
    const closeSpy = jest.spyOn(ParsePool.prototype, 'close').mockImplementation(function (this: ParsePool) {
      if (alive.delete(this)) ended++;
      return close.apply(this);
    });
    return {
      most: () => most,
      ended: () => ended,
      restore: () => {
        parseSpy.mockRestore();
        closeSpy.mockRestore();
      },
    };
  }

  it('parses large files one at a time, each in a thread that ends with it, and small ones in the pool meanwhile', async () => {
    const env = Object.assign(new IndexingEnv(), { PARSE_POOL_SIZE: 1, PARSE_LARGE_FILE_BYTES: 1000, PARSE_OCR: false });
    const parsers = new Parsers(env, new Metrics('parsers-spec'));
    const threads = watchThreads();
    try {
      const large = [textFile('a.txt', 400), textFile('b.txt', 500), textFile('c.txt', 600)];
      const small = textFile('small.txt', 5);
      expect(large.every((f) => f.size >= 1000) && small.size < 1000).toBe(true);
      const docs = await Promise.all([
        ...large.map((f) => parsers.parse({ source: { path: f.path }, fileName: f.path }, f.size)),
        parsers.parse({ source: { path: small.path }, fileName: small.path }, small.size),
      ]);
      expect(docs.map((d) => d.format.family)).toEqual(['text', 'text', 'text', 'text']);
      // The pool (made with the service) plus at most one large file's thread at any time.
      expect(threads.most()).toBeLessThanOrEqual(2);
      // Every large file's thread was ended once its document was read; the pool lives on.
      expect(threads.ended()).toBe(3);
    } finally {
      threads.restore();
      await parsers.close();
    }
  }, 180_000);
});
