import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import {
  StorageConflictError,
  StorageIncompleteError,
  StorageInvalidKeyError,
  StorageNotFoundError,
  StorageTooLargeError,
  type StoredEntry,
} from './driver';
import { LOCAL_STAGING_DIR, LocalDriver } from './local-driver';

// Factories: every test gets its own directory on the real disk.
async function tempDir(label: string): Promise<string> {
  return mkdtemp(join(tmpdir(), `docintel-local-${label}-`));
}

function streamOf(data: Buffer | string, chunkSize = 1024): Readable {
  const buf = Buffer.isBuffer(data) ? data : Buffer.from(data);
  const parts: Buffer[] = [];
  for (let i = 0; i < buf.length; i += chunkSize) parts.push(buf.subarray(i, i + chunkSize));
  return Readable.from(parts);
}

/** A client that sends `before` bytes and then breaks off. */
function brokenStream(before: number): Readable {
  let sent = false;
  return new Readable({
    read() {
      if (!sent) {
        sent = true;
        this.push(randomBytes(before));
      } else {
        this.destroy(new Error('connection reset by peer'));
      }
    },
  });
}

async function readAll(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of stream) parts.push(chunk as Buffer);
  return Buffer.concat(parts);
}

/** Lets the event loop run until a condition holds (bounded by iterations, not by time). */
async function until(condition: () => Promise<boolean> | boolean): Promise<void> {
  for (let i = 0; i < 10_000; i++) {
    if (await condition()) return;
    await new Promise((r) => setImmediate(r));
  }
  throw new Error('condition never held');
}

async function listAll(driver: LocalDriver, directory: string, limit = 1000): Promise<StoredEntry[]> {
  const all: StoredEntry[] = [];
  let startAfter: string | undefined;
  for (;;) {
    const page = await driver.list(directory, { limit, startAfter });
    all.push(...page.entries);
    if (!page.more) return all;
    startAfter = page.entries[page.entries.length - 1].key;
  }
}

describe('LocalDriver (real disk)', () => {
  let base: string;
  let root: string;
  let driver: LocalDriver;

  beforeEach(async () => {
    base = await tempDir('case');
    root = join(base, 'root');
    driver = new LocalDriver({ root });
  });

  afterEach(async () => {
    await rm(base, { recursive: true, force: true });
  });

  const stagingFiles = async (): Promise<string[]> => readdir(join(root, LOCAL_STAGING_DIR)).catch(() => []);

  describe('write, read and stat', () => {
    it('writes a file under implied parent folders and reads it back', async () => {
      const data = randomBytes(300_000);
      const entry = await driver.write('reports/2024/q1.pdf', streamOf(data, 65_536), { contentType: 'application/pdf' });
      expect(entry).toMatchObject({ key: 'reports/2024/q1.pdf', type: 'FILE', size: data.length });
      expect(entry.lastModified).toBeGreaterThan(Date.now() - 60_000);
      expect(await readAll(await driver.read('reports/2024/q1.pdf'))).toEqual(data);
      expect(await readFile(join(root, 'reports', '2024', 'q1.pdf'))).toEqual(data);
      expect(await driver.stat('reports/')).toMatchObject({ key: 'reports/', type: 'FOLDER', size: null });
      expect(await stagingFiles()).toEqual([]);
    });

    it('overwrites an existing file', async () => {
      await driver.write('a.txt', streamOf('first version'), {});
      await driver.write('a.txt', streamOf('second'), {});
      expect((await readAll(await driver.read('a.txt'))).toString()).toBe('second');
      expect(await driver.stat('a.txt')).toMatchObject({ size: 6 });
    });

    it('writes an empty file', async () => {
      expect(await driver.write('empty.txt', Readable.from([]), { size: 0 })).toMatchObject({ size: 0, type: 'FILE' });
      expect(await readAll(await driver.read('empty.txt'))).toEqual(Buffer.alloc(0));
    });

    it('reads byte ranges with an inclusive end, or to the end of the file', async () => {
      await driver.write('digits.txt', streamOf('0123456789'), {});
      expect((await readAll(await driver.read('digits.txt', { start: 2, end: 5 }))).toString()).toBe('2345');
      expect((await readAll(await driver.read('digits.txt', { start: 7 }))).toString()).toBe('789');
      expect((await readAll(await driver.read('digits.txt', { start: 0, end: 0 }))).toString()).toBe('0');
      expect((await readAll(await driver.read('digits.txt', { start: 9, end: 9 }))).toString()).toBe('9');
    });

    it('rejects reading a missing file or a folder with StorageNotFoundError', async () => {
      await driver.createFolder('docs/');
      await expect(driver.read('missing.txt')).rejects.toBeInstanceOf(StorageNotFoundError);
      await expect(driver.read('nowhere/missing.txt')).rejects.toBeInstanceOf(StorageNotFoundError);
      await expect(driver.read('docs')).rejects.toBeInstanceOf(StorageNotFoundError);
    });

    it('stat tells files from folders by the key', async () => {
      await driver.write('x/file.txt', streamOf('x'), {});
      expect(await driver.stat('x/file.txt')).toMatchObject({ type: 'FILE', size: 1 });
      expect(await driver.stat('x/file.txt/')).toBeNull();
      expect(await driver.stat('x')).toBeNull();
      expect(await driver.stat('x/')).toMatchObject({ type: 'FOLDER' });
      expect(await driver.stat('y/')).toBeNull();
    });

    it('refuses a write where a folder occupies the key or a file occupies a parent', async () => {
      await driver.createFolder('taken/');
      await driver.write('plain.txt', streamOf('p'), {});
      await expect(driver.write('taken', streamOf('data'), {})).rejects.toBeInstanceOf(StorageConflictError);
      await expect(driver.write('plain.txt/inner.txt', streamOf('data'), {})).rejects.toBeInstanceOf(StorageConflictError);
      expect(await stagingFiles()).toEqual([]);
    });
  });

  describe('atomic writes', () => {
    it('leaves nothing visible and no staged file when the stream breaks off midway', async () => {
      const err = await driver.write('uploads/big.bin', brokenStream(200_000), {}).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(Error);
      expect((err as Error).message).toContain('connection reset');
      expect(await driver.stat('uploads/big.bin')).toBeNull();
      expect((await driver.list('uploads/', { limit: 10 })).entries).toEqual([]);
      expect(await stagingFiles()).toEqual([]);
    });

    it('keeps the previous version when a replacement upload breaks off', async () => {
      await driver.write('contract.pdf', streamOf('signed original'), {});
      await expect(driver.write('contract.pdf', brokenStream(50_000), {})).rejects.toThrow('connection reset');
      expect((await readAll(await driver.read('contract.pdf'))).toString()).toBe('signed original');
      expect(await stagingFiles()).toEqual([]);
    });

    it('shows a file only once its stream has ended', async () => {
      const body = new PassThrough();
      const done = driver.write('slow.txt', body, {});
      body.write('part one, ');
      await until(async () => (await stagingFiles()).length === 1);
      expect(await driver.stat('slow.txt')).toBeNull();
      expect((await driver.list('', { limit: 10 })).entries).toEqual([]);
      body.end('part two');
      await expect(done).resolves.toMatchObject({ key: 'slow.txt', size: 18 });
      expect((await readAll(await driver.read('slow.txt'))).toString()).toBe('part one, part two');
    });

    it('stops at maxBytes with StorageTooLargeError and keeps nothing', async () => {
      const err = await driver.write('too-big.bin', streamOf(randomBytes(10_000), 1000), { maxBytes: 4096 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StorageTooLargeError);
      expect(await driver.stat('too-big.bin')).toBeNull();
      expect(await stagingFiles()).toEqual([]);
      await expect(driver.write('fits.bin', streamOf(randomBytes(4096)), { maxBytes: 4096 })).resolves.toMatchObject({ size: 4096 });
    });

    it('rejects a stream shorter than its announced size with StorageIncompleteError', async () => {
      await expect(driver.write('short.bin', streamOf(randomBytes(100)), { size: 200 })).rejects.toBeInstanceOf(StorageIncompleteError);
      expect(await driver.stat('short.bin')).toBeNull();
      expect(await stagingFiles()).toEqual([]);
    });

    it('removes staged leftovers older than a day when it starts', async () => {
      const staging = join(root, LOCAL_STAGING_DIR);
      await mkdir(staging, { recursive: true });
      await writeFile(join(staging, 'old.part'), 'crashed upload');
      await writeFile(join(staging, 'recent.part'), 'upload in progress elsewhere');
      const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600 * 1000);
      await utimes(join(staging, 'old.part'), twoDaysAgo, twoDaysAgo);
      await new LocalDriver({ root }).list('', { limit: 1 });
      expect(await stagingFiles()).toEqual(['recent.part']);
    });
  });

  describe('list', () => {
    it('lists folders and files of one directory in byte order, folders with a trailing /', async () => {
      for (const key of ['b.txt', 'a-b.txt', 'Zeta.txt', 'é.txt', 'a/inner.txt', 'c/d/deep.txt']) await driver.write(key, streamOf(key), {});
      await driver.createFolder('empty/');
      const page = await driver.list('', { limit: 100 });
      // Byte order: upper case before lower case, '-' (0x2d) before '/' (0x2f), 'é' (0xc3 0xa9) after ASCII.
      expect(page.entries.map((e) => e.key)).toEqual(['Zeta.txt', 'a-b.txt', 'a/', 'b.txt', 'c/', 'empty/', 'é.txt']);
      expect(page.more).toBe(false);
      expect(page.entries.find((e) => e.key === 'a/')).toMatchObject({ type: 'FOLDER', size: null });
      expect(page.entries.find((e) => e.key === 'b.txt')).toMatchObject({ type: 'FILE', size: 5 });
      expect((await driver.list('c/', { limit: 10 })).entries.map((e) => e.key)).toEqual(['c/d/']);
    });

    it('never lists the staging directory', async () => {
      const body = new PassThrough();
      const pending = driver.write('pending.txt', body, {});
      body.write('x');
      await until(async () => (await stagingFiles()).length === 1);
      expect((await driver.list('', { limit: 10 })).entries).toEqual([]);
      body.end();
      await pending;
      expect((await driver.list('', { limit: 10 })).entries.map((e) => e.key)).toEqual(['pending.txt']);
    });

    it('filters by a case-insensitive part of the name, pages with limit and startAfter', async () => {
      for (const name of ['Invoice-01.pdf', 'invoice-02.pdf', 'notes.txt', 'INVOICES/']) {
        if (name.endsWith('/')) await driver.createFolder(`box/${name}`);
        else await driver.write(`box/${name}`, streamOf(name), {});
      }
      const first = await driver.list('box/', { limit: 2, nameContains: 'invoice' });
      expect(first.entries.map((e) => e.key)).toEqual(['box/INVOICES/', 'box/Invoice-01.pdf']);
      expect(first.more).toBe(true);
      const second = await driver.list('box/', { limit: 2, nameContains: 'invoice', startAfter: 'box/Invoice-01.pdf' });
      expect(second.entries.map((e) => e.key)).toEqual(['box/invoice-02.pdf']);
      expect(second.more).toBe(false);
      expect((await driver.list('box/', { limit: 10, nameContains: 'box' })).entries).toEqual([]);
    });

    it('gives an empty page for a directory that does not exist or is a file', async () => {
      await driver.write('file.txt', streamOf('f'), {});
      expect(await driver.list('missing/', { limit: 10 })).toEqual({ entries: [], more: false });
      expect(await driver.list('file.txt/', { limit: 10 })).toEqual({ entries: [], more: false });
    });

    it('pages through 1,200 entries with items added and removed between pages, without duplicates or skipped survivors', async () => {
      const initial = Array.from({ length: 1200 }, (_, i) => `bulk/item-${String(i).padStart(5, '0')}.txt`);
      const folder = join(root, 'bulk');
      await mkdir(folder, { recursive: true });
      await Promise.all(initial.map((key) => writeFile(join(root, key), key)));

      const deleted = new Set<string>();
      const seen: string[] = [];
      let startAfter: string | undefined;
      let page = 0;
      for (;;) {
        const result = await driver.list('bulk/', { limit: 100, startAfter });
        seen.push(...result.entries.map((e) => e.key));
        if (!result.more) break;
        startAfter = result.entries[result.entries.length - 1].key;
        // Between pages: remove some items already listed and some still ahead, add some behind and ahead.
        page++;
        for (const victim of [initial[page * 100 - 50], initial[page * 100 + 37]].filter(Boolean)) {
          await driver.delete(victim);
          deleted.add(victim);
        }
        await driver.write(`bulk/item-${String(page * 100 - 20).padStart(5, '0')}-late.txt`, streamOf('behind the cursor'), {});
        await driver.write(`bulk/item-${String(page * 100 + 60).padStart(5, '0')}-new.txt`, streamOf('ahead of the cursor'), {});
      }

      expect(new Set(seen).size).toBe(seen.length);
      const sorted = [...seen].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
      expect(seen).toEqual(sorted);
      const survivors = initial.filter((k) => !deleted.has(k));
      const seenSet = new Set(seen);
      expect(survivors.filter((k) => !seenSet.has(k))).toEqual([]);
      // Items added ahead of the cursor are found; items added behind it are not (they sort before it).
      expect(seen.filter((k) => k.endsWith('-new.txt')).length).toBeGreaterThan(0);
      expect(seen.filter((k) => k.endsWith('-late.txt'))).toEqual([]);
      expect((await listAll(driver, 'bulk/')).length).toBe(1200 - deleted.size + 2 * page);
    });
  });

  describe('folders, delete and rename', () => {
    it('creates folders with their parents and accepts an existing one', async () => {
      expect(await driver.createFolder('a/b/c/')).toMatchObject({ key: 'a/b/c/', type: 'FOLDER', size: null });
      await expect(driver.createFolder('a/b/c/')).resolves.toMatchObject({ type: 'FOLDER' });
      expect((await driver.list('a/b/', { limit: 10 })).entries.map((e) => e.key)).toEqual(['a/b/c/']);
    });

    it('refuses a folder where a file has the name', async () => {
      await driver.write('report', streamOf('r'), {});
      await expect(driver.createFolder('report/')).rejects.toBeInstanceOf(StorageConflictError);
      await expect(driver.createFolder('report/sub/')).rejects.toBeInstanceOf(StorageConflictError);
    });

    it('deletes a file, or a folder with everything under it', async () => {
      await driver.write('keep.txt', streamOf('k'), {});
      await driver.write('tree/one.txt', streamOf('1'), {});
      await driver.write('tree/sub/two.txt', streamOf('2'), {});
      await driver.delete('tree/one.txt');
      expect(await driver.stat('tree/one.txt')).toBeNull();
      await driver.delete('tree/');
      expect(await driver.stat('tree/')).toBeNull();
      expect(existsSync(join(root, 'tree'))).toBe(false);
      expect((await listAll(driver, '')).map((e) => e.key)).toEqual(['keep.txt']);
    });

    it('rejects deleting what is not there, or a file named as a folder, with StorageNotFoundError', async () => {
      await driver.write('file.txt', streamOf('f'), {});
      await driver.createFolder('dir/');
      await expect(driver.delete('missing.txt')).rejects.toBeInstanceOf(StorageNotFoundError);
      await expect(driver.delete('missing/')).rejects.toBeInstanceOf(StorageNotFoundError);
      await expect(driver.delete('file.txt/')).rejects.toBeInstanceOf(StorageNotFoundError);
      await expect(driver.delete('dir')).rejects.toBeInstanceOf(StorageNotFoundError);
      expect(await driver.stat('file.txt')).not.toBeNull();
      expect(await driver.stat('dir/')).not.toBeNull();
    });

    it('renames a file, creating the target parents', async () => {
      await driver.write('in/draft.txt', streamOf('text'), {});
      expect(await driver.rename('in/draft.txt', 'out/final.txt')).toMatchObject({ key: 'out/final.txt', type: 'FILE', size: 4 });
      expect(await driver.stat('in/draft.txt')).toBeNull();
      expect((await readAll(await driver.read('out/final.txt'))).toString()).toBe('text');
    });

    it('renames a folder with its contents', async () => {
      await driver.write('old/a.txt', streamOf('a'), {});
      await driver.write('old/sub/b.txt', streamOf('b'), {});
      expect(await driver.rename('old/', 'new/')).toMatchObject({ key: 'new/', type: 'FOLDER' });
      expect(await driver.stat('old/')).toBeNull();
      expect((await readAll(await driver.read('new/sub/b.txt'))).toString()).toBe('b');
    });

    it('refuses to rename onto an existing item with StorageConflictError and keeps both', async () => {
      await driver.write('one.txt', streamOf('one'), {});
      await driver.write('two.txt', streamOf('two'), {});
      await driver.createFolder('f1/');
      await driver.write('f2/x.txt', streamOf('x'), {});
      await expect(driver.rename('one.txt', 'two.txt')).rejects.toBeInstanceOf(StorageConflictError);
      await expect(driver.rename('f1/', 'f2/')).rejects.toBeInstanceOf(StorageConflictError);
      await expect(driver.rename('one.txt', 'one.txt')).rejects.toBeInstanceOf(StorageConflictError);
      expect((await readAll(await driver.read('one.txt'))).toString()).toBe('one');
      expect((await readAll(await driver.read('two.txt'))).toString()).toBe('two');
    });

    it('rejects renaming a missing item with StorageNotFoundError', async () => {
      await expect(driver.rename('ghost.txt', 'other.txt')).rejects.toBeInstanceOf(StorageNotFoundError);
      await expect(driver.rename('ghost/', 'other/')).rejects.toBeInstanceOf(StorageNotFoundError);
    });

    it('returns no presigned URLs: the service signs its own for LOCAL providers', async () => {
      expect(await driver.presignUpload('a.txt', 60)).toBeNull();
      expect(await driver.presignDownload('a.txt', 60)).toBeNull();
    });
  });

  describe('containment', () => {
    let outside: string;

    beforeEach(async () => {
      outside = join(base, 'outside');
      await mkdir(outside, { recursive: true });
      await writeFile(join(outside, 'secret.txt'), 'not yours');
      await driver.write('inside/real.txt', streamOf('mine'), {});
      await symlink(outside, join(root, 'escape'));
      await symlink(join(outside, 'secret.txt'), join(root, 'leak.txt'));
      await symlink(join(root, 'inside'), join(root, 'alias'));
      await symlink(join(root, 'loop'), join(root, 'loop'));
    });

    it('does not list or stat symlinks that lead outside the root, but follows those that stay inside', async () => {
      const keys = (await driver.list('', { limit: 100 })).entries.map((e) => e.key);
      expect(keys).toEqual(['alias/', 'inside/']);
      expect(await driver.stat('escape/')).toBeNull();
      expect(await driver.stat('leak.txt')).toBeNull();
      expect(await driver.stat('escape/secret.txt')).toBeNull();
      expect(await driver.list('escape/', { limit: 10 })).toEqual({ entries: [], more: false });
      expect((await readAll(await driver.read('alias/real.txt'))).toString()).toBe('mine');
    });

    it('never reads through a symlink that leads outside', async () => {
      await expect(driver.read('leak.txt')).rejects.toBeInstanceOf(StorageNotFoundError);
      await expect(driver.read('escape/secret.txt')).rejects.toBeInstanceOf(StorageNotFoundError);
      await expect(driver.read('loop')).rejects.toBeInstanceOf(StorageNotFoundError);
    });

    it('never writes, creates folders, deletes or renames through a symlink that leads outside', async () => {
      await expect(driver.write('escape/planted.txt', streamOf('x'), {})).rejects.toBeInstanceOf(StorageConflictError);
      await expect(driver.createFolder('escape/made/')).rejects.toBeInstanceOf(StorageConflictError);
      await expect(driver.delete('escape/secret.txt')).rejects.toBeInstanceOf(StorageNotFoundError);
      await expect(driver.delete('escape/')).rejects.toBeInstanceOf(StorageNotFoundError);
      await expect(driver.delete('leak.txt')).rejects.toBeInstanceOf(StorageNotFoundError);
      await expect(driver.rename('escape/secret.txt', 'stolen.txt')).rejects.toBeInstanceOf(StorageNotFoundError);
      await expect(driver.rename('inside/real.txt', 'escape/moved.txt')).rejects.toBeInstanceOf(StorageConflictError);
      expect((await readdir(outside)).sort()).toEqual(['secret.txt']);
      expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('not yours');
      expect(await driver.stat('inside/real.txt')).not.toBeNull();
    });

    it('deletes an inside symlink itself, not what it points to', async () => {
      await driver.delete('alias/');
      expect(await driver.stat('alias/')).toBeNull();
      expect(await driver.stat('inside/real.txt')).toMatchObject({ type: 'FILE' });
    });

    it('works when the root itself is reached through a symlink', async () => {
      await symlink(root, join(base, 'root-link'));
      const viaLink = new LocalDriver({ root: join(base, 'root-link') });
      expect((await readAll(await viaLink.read('inside/real.txt'))).toString()).toBe('mine');
      await viaLink.write('inside/second.txt', streamOf('2'), {});
      expect(await driver.stat('inside/second.txt')).toMatchObject({ size: 1 });
    });

    it('refuses keys that try to climb out or name the staging area, whatever the caller checked', async () => {
      for (const key of ['../outside/secret.txt', '/etc/passwd', 'a\\..\\b', 'inside/../../x', 'nul\u0000.txt']) {
        await expect(driver.read(key)).rejects.toBeInstanceOf(StorageInvalidKeyError);
        await expect(driver.write(key, streamOf('x'), {})).rejects.toBeInstanceOf(StorageInvalidKeyError);
      }
      await expect(driver.write(`${LOCAL_STAGING_DIR}/x.part`, streamOf('x'), {})).rejects.toBeInstanceOf(StorageInvalidKeyError);
      await expect(driver.list(`${LOCAL_STAGING_DIR}/`, { limit: 10 })).rejects.toBeInstanceOf(StorageInvalidKeyError);
      await expect(driver.delete(`${LOCAL_STAGING_DIR}/`)).rejects.toBeInstanceOf(StorageInvalidKeyError);
    });
  });

  it('requires an absolute root', () => {
    expect(() => new LocalDriver({ root: 'relative/dir' })).toThrow('absolute');
  });
});
