import { randomUUID } from 'node:crypto';
import type { Stats } from 'node:fs';
import { once } from 'node:events';
import { link, lstat, mkdir, open, readdir, realpath, rename, rm, stat, unlink } from 'node:fs/promises';
import { isAbsolute, join, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { keyName, keyParent, keyProblems, RESERVED_STAGING_DIR } from '@docintel/contracts';
import { BlockFileWriter, TRANSFER_BLOCK_BYTES } from './block-file-writer';
import { ByteCounter } from './byte-limit';
import { StorageConflictError, StorageInvalidKeyError, StorageNotFoundError, type StorageDriver, type StoredEntry } from './driver';
import { assertKey, nameMatches } from './keys';

export interface LocalDriverOptions {
  /** The directory that holds the provider's files; created when missing. */
  root: string;
  /**
   * fsync a written file before it is renamed into place, so that after a crash a visible file
   * is a complete one. On by default; turning it off trades that guarantee for speed.
   */
  fsync?: boolean;
}

/**
 * Hidden directory inside the root where uploads are written before they are renamed into place.
 * Keys under it are refused by the key rules themselves (RESERVED_STAGING_DIR in @docintel/contracts).
 */
export const LOCAL_STAGING_DIR = RESERVED_STAGING_DIR;
/** Staged files older than this are leftovers of a crash and are removed when the driver starts. */
const STALE_STAGING_MS = 24 * 60 * 60 * 1000;

function errCode(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | null)?.code;
}

/** Missing, or a path through something that is not a directory: both mean "no item here". */
function isAbsent(err: unknown): boolean {
  return errCode(err) === 'ENOENT' || errCode(err) === 'ENOTDIR';
}

/**
 * A provider on the local disk. Every path is resolved under the root and checked with realpath,
 * so a symlink that leads outside the root is treated as absent for reads and as an obstacle for
 * writes: it is never followed out. Writes stream into a staging file inside the root and are
 * renamed into place only when complete, which is atomic on one file system.
 */
export class LocalDriver implements StorageDriver {
  readonly type = 'LOCAL' as const;
  private rootPromise?: Promise<string>;
  private readonly fsync: boolean;

  constructor(private readonly options: LocalDriverOptions) {
    if (!isAbsolute(options.root)) throw new Error(`The root of a LOCAL provider must be an absolute path, got ${options.root}`);
    this.fsync = options.fsync ?? true;
  }

  async list(
    directory: string,
    opts: { startAfter?: string; limit: number; nameContains?: string },
  ): Promise<{ entries: StoredEntry[]; more: boolean }> {
    assertKey(directory, 'directory');
    this.assertNotReserved(directory);
    const dirPath = await this.existingPath(directory);
    if (!dirPath) return { entries: [], more: false };
    let dirents;
    try {
      dirents = await readdir(dirPath, { withFileTypes: true });
    } catch (err) {
      if (isAbsent(err)) return { entries: [], more: false };
      throw err;
    }

    // Order and filter by name first; stat only the entries that make the page.
    const root = await this.root();
    const candidates: { key: string; sortKey: Buffer; path: string }[] = [];
    for (const d of dirents) {
      if (directory === '' && d.name === LOCAL_STAGING_DIR) continue;
      let isDir = d.isDirectory();
      if (d.isSymbolicLink()) {
        const target = await this.realInside(join(dirPath, d.name), root);
        if (!target) continue;
        isDir = target.stats.isDirectory();
      } else if (!isDir && !d.isFile()) {
        continue; // sockets, devices, fifos are not items
      }
      const key = `${directory}${d.name}${isDir ? '/' : ''}`;
      if (keyProblems(key, 'item').length) continue; // a name the API could not address
      if (!nameMatches(key, opts.nameContains)) continue;
      candidates.push({ key, sortKey: Buffer.from(key, 'utf8'), path: join(dirPath, d.name) });
    }
    const after = opts.startAfter === undefined ? undefined : Buffer.from(opts.startAfter, 'utf8');
    const ordered = candidates
      .filter((c) => !after || Buffer.compare(c.sortKey, after) > 0)
      .sort((a, b) => Buffer.compare(a.sortKey, b.sortKey));

    const entries: StoredEntry[] = [];
    let i = 0;
    for (; i < ordered.length && entries.length < opts.limit; i++) {
      const c = ordered[i];
      try {
        entries.push(toEntry(c.key, await stat(c.path)));
      } catch (err) {
        if (!isAbsent(err)) throw err; // removed since readdir: skip it
      }
    }
    return { entries, more: i < ordered.length };
  }

  async stat(key: string): Promise<StoredEntry | null> {
    assertKey(key, 'item');
    this.assertNotReserved(key);
    const path = await this.existingPath(key);
    if (!path) return null;
    const stats = await stat(path);
    if (stats.isDirectory() !== key.endsWith('/') || !(stats.isDirectory() || stats.isFile())) return null;
    return toEntry(key, stats);
  }

  async read(key: string, range?: { start: number; end?: number }): Promise<Readable> {
    assertKey(key, 'file');
    this.assertNotReserved(key);
    const path = await this.existingPath(key);
    if (!path) throw new StorageNotFoundError(key);
    // Open first, so a missing file rejects here instead of erroring the stream later.
    let handle;
    try {
      handle = await open(path, 'r');
    } catch (err) {
      if (isAbsent(err) || errCode(err) === 'EISDIR') throw new StorageNotFoundError(key);
      throw err;
    }
    const stats = await handle.stat().catch(async (err: unknown) => {
      await handle.close();
      throw err;
    });
    if (!stats.isFile()) {
      await handle.close();
      throw new StorageNotFoundError(key);
    }
    // Reads of 256 KiB rather than the default 64 KiB: a quarter of the reads and socket writes.
    return handle.createReadStream({ start: range?.start, end: range?.end, autoClose: true, highWaterMark: TRANSFER_BLOCK_BYTES });
  }

  async write(key: string, body: Readable, opts: { size?: number; contentType?: string; maxBytes?: number }): Promise<StoredEntry> {
    assertKey(key, 'file');
    this.assertNotReserved(key);
    let dirPath: string;
    let temp: string;
    try {
      dirPath = await this.ensureDirectory(keyParent(key));
      temp = join(await this.stagingDir(), `${randomUUID()}.part`);
    } catch (err) {
      body.destroy();
      throw err;
    }
    let sink: BlockFileWriter;
    try {
      sink = new BlockFileWriter(await open(temp, 'wx'), { fsync: this.fsync });
    } catch (err) {
      body.destroy();
      throw err;
    }
    try {
      await pipeline(body, new ByteCounter({ maxBytes: opts.maxBytes, size: opts.size }), sink);
      const target = join(dirPath, keyName(key));
      try {
        await rename(temp, target);
      } catch (err) {
        if (['EISDIR', 'ENOTEMPTY', 'EEXIST', 'ENOTDIR'].includes(errCode(err) ?? '')) throw new StorageConflictError(key);
        throw err;
      }
      return toEntry(key, await stat(target));
    } catch (err) {
      if (!sink.closed) await once(sink, 'close').catch(() => undefined);
      await rm(temp, { force: true });
      throw err;
    }
  }

  async createFolder(key: string): Promise<StoredEntry> {
    assertKey(key, 'folder');
    this.assertNotReserved(key);
    const path = await this.ensureDirectory(key);
    return toEntry(key, await stat(path));
  }

  async delete(key: string): Promise<void> {
    assertKey(key, 'item');
    this.assertNotReserved(key);
    const path = await this.entryPath(key);
    const stats = path ? await lstat(path).catch(absentAsNull) : null;
    if (!path || !stats || !(await this.matchesKind(key, path, stats))) throw new StorageNotFoundError(key);
    // A symlink is removed itself, never what it points to; rm does not follow links inside folders.
    if (stats.isDirectory()) await rm(path, { recursive: true, force: true });
    else await unlink(path);
  }

  async rename(fromKey: string, toKey: string): Promise<StoredEntry> {
    assertKey(fromKey, 'item');
    assertKey(toKey, 'item');
    this.assertNotReserved(fromKey);
    this.assertNotReserved(toKey);
    const isFolder = fromKey.endsWith('/');
    if (toKey.endsWith('/') !== isFolder) throw new StorageInvalidKeyError(toKey, 'a file and a folder cannot be renamed into each other');
    if (isFolder && toKey !== fromKey && toKey.startsWith(fromKey))
      throw new StorageInvalidKeyError(toKey, 'a folder cannot be moved into itself');

    const from = await this.entryPath(fromKey);
    const fromStats = from ? await lstat(from).catch(absentAsNull) : null;
    if (!from || !fromStats || !(await this.matchesKind(fromKey, from, fromStats))) throw new StorageNotFoundError(fromKey);
    const to = join(await this.ensureDirectory(keyParent(toKey)), keyName(toKey));
    if (await lstat(to).catch(absentAsNull)) throw new StorageConflictError(toKey);

    if (fromStats.isDirectory()) {
      // No no-replace rename for folders in Node: the check above leaves a narrow race, in which
      // rename(2) still refuses a non-empty target folder.
      try {
        await rename(from, to);
      } catch (err) {
        if (['ENOTEMPTY', 'EEXIST', 'ENOTDIR'].includes(errCode(err) ?? '')) throw new StorageConflictError(toKey);
        throw err;
      }
    } else {
      // link(2) fails when the target exists, so a file that appeared meanwhile is never clobbered.
      try {
        await link(from, to);
        await unlink(from);
      } catch (err) {
        if (errCode(err) === 'EEXIST') throw new StorageConflictError(toKey);
        // File systems without hard links: fall back to rename after the check above.
        if (!['EPERM', 'ENOTSUP', 'EOPNOTSUPP'].includes(errCode(err) ?? '')) throw err;
        await rename(from, to);
      }
    }
    return toEntry(toKey, await stat(to));
  }

  async presignUpload(_key: string, _expiresInSeconds: number): Promise<string | null> {
    return null; // the service signs and serves its own URLs for LOCAL providers
  }

  async presignDownload(_key: string, _expiresInSeconds: number): Promise<string | null> {
    return null;
  }

  /** The real root directory, created on first use; stale staging files are cleared then. */
  private root(): Promise<string> {
    this.rootPromise ??= (async () => {
      await mkdir(this.options.root, { recursive: true });
      const root = await realpath(this.options.root);
      await clearStaleStaging(join(root, LOCAL_STAGING_DIR));
      return root;
    })();
    return this.rootPromise;
  }

  private async stagingDir(): Promise<string> {
    const dir = join(await this.root(), LOCAL_STAGING_DIR);
    await mkdir(dir, { recursive: true });
    return dir;
  }

  private assertNotReserved(key: string): void {
    const first = key.split('/')[0].toLowerCase();
    if (first === LOCAL_STAGING_DIR) {
      throw new StorageInvalidKeyError(key, `${LOCAL_STAGING_DIR} is reserved for uploads in progress`);
    }
  }

  /** The real path of an existing item inside the root (following links that stay inside), else null. */
  private async existingPath(key: string): Promise<string | null> {
    const root = await this.root();
    if (key === '') return root;
    const found = await this.realInside(join(root, ...segments(key)), root);
    return found?.path ?? null;
  }

  /**
   * The path of the item itself (not followed when it is a link), in a parent folder whose real
   * path is inside the root; null when the parent is missing or leads outside.
   */
  private async entryPath(key: string): Promise<string | null> {
    const root = await this.root();
    const parent = keyParent(key);
    const parentPath = parent === '' ? root : (await this.realInside(join(root, ...segments(parent)), root))?.path;
    return parentPath ? join(parentPath, keyName(key)) : null;
  }

  /** Whether the thing at `path` is what the key says: a folder for keys ending in '/', else a file. */
  private async matchesKind(key: string, path: string, stats: Stats): Promise<boolean> {
    const wantFolder = key.endsWith('/');
    if (stats.isSymbolicLink()) {
      const target = await this.realInside(path, await this.root());
      return !!target && (wantFolder ? target.stats.isDirectory() : target.stats.isFile());
    }
    return wantFolder ? stats.isDirectory() : stats.isFile();
  }

  private async realInside(path: string, root: string): Promise<{ path: string; stats: Stats } | null> {
    let real: string;
    try {
      real = await realpath(path);
    } catch (err) {
      if (isAbsent(err) || errCode(err) === 'ELOOP') return null;
      throw err;
    }
    if (!isInside(root, real)) return null;
    const stats = await stat(real).catch(absentAsNull);
    return stats ? { path: real, stats } : null;
  }

  /**
   * Creates a folder and its parents one level at a time, resolving each existing level with
   * realpath, so that mkdir never runs through a symlink that leads outside the root.
   */
  private async ensureDirectory(dirKey: string): Promise<string> {
    const root = await this.root();
    let current = root;
    let prefix = '';
    for (const segment of segments(dirKey)) {
      prefix += `${segment}/`;
      const next = join(current, segment);
      try {
        await mkdir(next);
        current = next;
        continue;
      } catch (err) {
        if (errCode(err) !== 'EEXIST') {
          if (errCode(err) === 'ENOTDIR') throw new StorageConflictError(prefix);
          throw err;
        }
      }
      const existing = await this.realInside(next, root);
      if (!existing || !existing.stats.isDirectory()) throw new StorageConflictError(prefix);
      current = existing.path;
    }
    return current;
  }
}

function segments(key: string): string[] {
  return key.split('/').filter((s) => s !== '');
}

function isInside(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

function absentAsNull(err: unknown): null {
  if (isAbsent(err)) return null;
  throw err;
}

function toEntry(key: string, stats: Stats): StoredEntry {
  const folder = stats.isDirectory();
  return { key, type: folder ? 'FOLDER' : 'FILE', size: folder ? null : stats.size, lastModified: Math.floor(stats.mtimeMs) };
}

async function clearStaleStaging(dir: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    if (isAbsent(err)) return;
    throw err;
  }
  const cutoff = Date.now() - STALE_STAGING_MS;
  for (const name of names) {
    const path = join(dir, name);
    const stats = await lstat(path).catch(absentAsNull);
    if (stats && stats.mtimeMs < cutoff) await rm(path, { force: true, recursive: true });
  }
}
