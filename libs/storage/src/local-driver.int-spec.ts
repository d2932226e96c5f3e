import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { StorageConflictError, StorageInvalidKeyError, StorageNotFoundError } from './driver';
import { describeDriverContract, readAll, streamOf, until } from './driver-contract';
import { LOCAL_STAGING_DIR, LocalDriver } from './local-driver';

// Factories: every test gets its own directory on the real disk.
async function tempDir(label: string): Promise<string> {
  return mkdtemp(join(tmpdir(), `docintel-local-${label}-`));
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

  describe('the driver contract', () => {
    describeDriverContract({
      driver: () => driver,
      leftovers: stagingFiles,
      failedWriteMayLeaveFolders: true,
      // The bytes are on disk, in the staging area, before the file may appear.
      writeStarted: () => until(async () => (await stagingFiles()).length === 1),
      largeWrite: { announceSize: true, maxRssGrowth: 96 * 1024 * 1024 },
    });
  });

  describe('LOCAL only', () => {
    it('writes the file at its path under the root', async () => {
      const data = randomBytes(300_000);
      await driver.write('reports/2024/q1.pdf', streamOf(data, 65_536), { contentType: 'application/pdf' });
      expect(await readFile(join(root, 'reports', '2024', 'q1.pdf'))).toEqual(data);
      expect(await stagingFiles()).toEqual([]);
    });

    it('refuses a write where a folder occupies the key or a file occupies a parent', async () => {
      await driver.createFolder('taken/');
      await driver.write('plain.txt', streamOf('p'), {});
      await expect(driver.write('taken', streamOf('data'), {})).rejects.toBeInstanceOf(StorageConflictError);
      await expect(driver.write('plain.txt/inner.txt', streamOf('data'), {})).rejects.toBeInstanceOf(StorageConflictError);
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

    it('lists files written to the directory by others', async () => {
      await mkdir(join(root, 'bulk'), { recursive: true });
      await Promise.all(['b.txt', 'a.txt'].map((name) => writeFile(join(root, 'bulk', name), name)));
      expect((await driver.list('bulk/', { limit: 10 })).entries.map((e) => e.key)).toEqual(['bulk/a.txt', 'bulk/b.txt']);
    });

    it('refuses a folder where a file has the name', async () => {
      await driver.write('report', streamOf('r'), {});
      await expect(driver.createFolder('report/')).rejects.toBeInstanceOf(StorageConflictError);
      await expect(driver.createFolder('report/sub/')).rejects.toBeInstanceOf(StorageConflictError);
    });

    it('deleting a folder removes its directory from disk', async () => {
      await driver.write('tree/sub/two.txt', streamOf('2'), {});
      await driver.delete('tree/');
      expect(existsSync(join(root, 'tree'))).toBe(false);
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
