import type { Readable } from 'node:stream';

/**
 * One storage backend (a LOCAL directory, an S3 bucket, later Azure or GCS). Keys are already
 * validated by the caller (see keyProblems in @docintel/contracts): relative, '/'-separated,
 * folders end in '/'. A driver never reaches outside its root or bucket prefix.
 */
export interface StorageDriver {
  readonly type: 'LOCAL' | 'S3';

  /**
   * Direct children of a directory ('' or 'a/b/'), folders and files together, in ascending key
   * order (byte order of the UTF-8 key), starting strictly after `startAfter` when given, at most
   * `limit` entries. `nameContains` filters by case-insensitive substring of the item name. A
   * directory that does not exist yields an empty page. `more` says whether entries follow.
   */
  list(
    directory: string,
    opts: { startAfter?: string; limit: number; nameContains?: string },
  ): Promise<{
    entries: StoredEntry[];
    more: boolean;
  }>;

  /** The entry at a key (a file, or a folder when the key ends in '/'), or null. */
  stat(key: string): Promise<StoredEntry | null>;

  /**
   * Streams a file's bytes, optionally a byte range (inclusive end). Rejects with
   * StorageNotFoundError when absent. The caller checks the range against stat() first: a range
   * outside the file is not the driver's to answer.
   */
  read(key: string, range?: { start: number; end?: number }): Promise<Readable>;

  /**
   * Writes a file from a stream. The file becomes visible only when the stream ends cleanly:
   * an aborted or failed stream (or exceeding maxBytes) leaves no item behind. Parent folders are
   * implied. Overwrites an existing file at the key. Rejects with StorageTooLargeError past
   * maxBytes, with StorageIncompleteError when `size` is given and the stream delivers another
   * count, and with StorageConflictError when a folder (or, on LOCAL, a file in the way of a
   * parent folder) occupies the path. On any failure the body stream is destroyed.
   */
  write(key: string, body: Readable, opts: { size?: number; contentType?: string; maxBytes?: number }): Promise<StoredEntry>;

  /** Creates an (empty) folder; succeeds when it exists already. */
  createFolder(key: string): Promise<StoredEntry>;

  /** Deletes a file, or a folder with everything under it. Rejects with StorageNotFoundError when absent. */
  delete(key: string): Promise<void>;

  /**
   * Moves a file or folder to another key in the same provider. Rejects with StorageNotFoundError
   * when the source is absent and StorageConflictError when the target exists.
   */
  rename(fromKey: string, toKey: string): Promise<StoredEntry>;

  /** A URL the client can PUT the bytes to directly, or null when the backend cannot presign. */
  presignUpload(key: string, expiresInSeconds: number, contentType?: string): Promise<string | null>;

  /** A URL the client can GET the bytes from directly, or null when the backend cannot presign. */
  presignDownload(key: string, expiresInSeconds: number): Promise<string | null>;
}

export interface StoredEntry {
  key: string;
  type: 'FILE' | 'FOLDER';
  size: number | null;
  /** Epoch milliseconds; null for folders that have no timestamp (S3 prefixes). */
  lastModified: number | null;
  /** As stored by the backend, when it keeps one (S3 Content-Type). */
  contentType?: string | null;
}

export class StorageNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`No item at ${key}`);
    this.name = 'StorageNotFoundError';
  }
}

export class StorageConflictError extends Error {
  constructor(readonly key: string) {
    super(`An item already exists at ${key}`);
    this.name = 'StorageConflictError';
  }
}

export class StorageTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`The file is larger than the limit of ${maxBytes} bytes`);
    this.name = 'StorageTooLargeError';
  }
}

/** A write whose stream delivered a different number of bytes than the announced `size`. */
export class StorageIncompleteError extends Error {
  constructor(
    readonly expectedBytes: number,
    readonly receivedBytes: number,
  ) {
    super(`The upload announced ${expectedBytes} bytes but delivered ${receivedBytes}`);
    this.name = 'StorageIncompleteError';
  }
}

/**
 * A key the driver refuses on its own account, whatever the caller checked: one that fails the
 * key rules, or one that names the driver's reserved staging area.
 */
export class StorageInvalidKeyError extends Error {
  constructor(
    readonly key: string,
    readonly problem: string,
  ) {
    super(`Invalid key ${JSON.stringify(key)}: ${problem}`);
    this.name = 'StorageInvalidKeyError';
  }
}
