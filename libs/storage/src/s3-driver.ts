import type { Agent } from 'node:http';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream';
import { Client, CopyDestinationOptions, CopySourceOptions, type BucketItem } from 'minio';
import { keyProblems } from '@docintel/contracts';
import { ByteCounter } from './byte-limit';
import { StorageConflictError, StorageInvalidKeyError, StorageNotFoundError, type StorageDriver, type StoredEntry } from './driver';
import { assertKey, compareKeys, nameMatches } from './keys';

export interface S3DriverOptions {
  bucketName: string;
  /** Signing region; requests are never sent to discover it. Default us-east-1. */
  region?: string;
  /** S3-compatible endpoint as a URL (http://127.0.0.1:9000); absent means AWS S3. Port and TLS come from the URL. */
  endpoint?: string;
  /**
   * true: http://host/bucket/key; false: http://bucket.host/key. Default true for a custom
   * endpoint (MinIO and most compatible servers), while AWS always gets virtual-host addressing.
   */
  pathStyle?: boolean;
  accessKey?: string;
  secretKey?: string;
  sessionToken?: string;
  /** Keys live under this prefix in the bucket ('' or ending in '/'), so providers can share one. */
  prefix?: string;
  /** Multipart part size in bytes (min 5 MiB): the most one upload holds in memory. Default 8 MiB. */
  partSize?: number;
  /** HTTP(S) agent for the client: a proxy, custom TLS trust, or a name lookup in tests. */
  transportAgent?: Agent;
}

const MIB = 1024 * 1024;
const DEFAULT_PART_SIZE = 8 * MIB;
const MAX_PARTS = 10_000;
/** Largest object a single CopyObject call may copy; bigger ones are copied part by part. */
const MAX_SINGLE_COPY = 5 * 1024 * MIB;
const LIST_PAGE = 1000;

function s3Code(err: unknown): string | undefined {
  return (err as { code?: string } | null)?.code;
}

function isMissing(err: unknown): boolean {
  return ['NotFound', 'NoSuchKey'].includes(s3Code(err) ?? '');
}

/**
 * A provider in an S3 bucket (AWS S3, MinIO, and other compatible servers) through the `minio`
 * client. Folders are key prefixes, listed with delimiter '/'; an empty folder is kept by a
 * zero-byte marker object whose key ends in '/'. Renames copy then delete, so a folder rename
 * is not atomic: see README.
 */
export class S3Driver implements StorageDriver {
  readonly type = 'S3' as const;
  // ES-private, so logging the driver object can never print the client and its credentials.
  readonly #client: Client;
  readonly #bucket: string;
  readonly #prefix: string;
  readonly #partSize: number;

  constructor(options: S3DriverOptions) {
    this.#bucket = options.bucketName;
    this.#prefix = options.prefix ?? '';
    if (this.#prefix && keyProblems(this.#prefix, 'folder').length)
      throw new Error(`The key prefix of an S3 provider must end in '/', got ${this.#prefix}`);
    this.#partSize = options.partSize ?? DEFAULT_PART_SIZE;
    if (this.#partSize < 5 * MIB) throw new Error('The S3 part size must be at least 5 MiB');

    const endpoint = options.endpoint ? new URL(options.endpoint) : new URL('https://s3.amazonaws.com');
    if (endpoint.protocol !== 'http:' && endpoint.protocol !== 'https:')
      throw new Error(`The S3 endpoint must be an http(s) URL, got ${endpoint.protocol}`);
    if (endpoint.pathname !== '/' && endpoint.pathname !== '') throw new Error('The S3 endpoint must not have a path');
    const useSSL = endpoint.protocol === 'https:';
    this.#client = new Client({
      endPoint: endpoint.hostname.replace(/^\[(.*)\]$/, '$1'),
      port: endpoint.port ? Number(endpoint.port) : useSSL ? 443 : 80,
      useSSL,
      region: options.region ?? 'us-east-1',
      pathStyle: options.pathStyle ?? !!options.endpoint,
      accessKey: options.accessKey ?? '',
      secretKey: options.secretKey ?? '',
      sessionToken: options.sessionToken,
      partSize: this.#partSize,
      transportAgent: options.transportAgent,
    });
  }

  /** What a log line may show of this driver: no credentials. */
  toJSON(): Record<string, unknown> {
    return { type: this.type, bucketName: this.#bucket, prefix: this.#prefix };
  }

  async list(
    directory: string,
    opts: { startAfter?: string; limit: number; nameContains?: string },
  ): Promise<{ entries: StoredEntry[]; more: boolean }> {
    assertKey(directory, 'directory');
    const entries: StoredEntry[] = [];
    // Keys at or before this one are never returned again: it dedupes a folder that S3 reports
    // again after a startAfter equal to it, and keeps the page strictly ascending.
    let last = opts.startAfter;
    let token = '';
    for (;;) {
      const page = await this.#client.listObjectsV2Query(
        this.#bucket,
        this.#objectKey(directory),
        token,
        '/',
        opts.nameContains ? LIST_PAGE : Math.min(LIST_PAGE, opts.limit + 2),
        token ? '' : opts.startAfter ? this.#objectKey(opts.startAfter) : '',
      );
      const found = page.objects
        .map((item) => this.#entryOf(item))
        .filter((e): e is StoredEntry => !!e && e.key !== directory)
        .sort((a, b) => compareKeys(a.key, b.key));
      for (const entry of found) {
        if (last !== undefined && compareKeys(entry.key, last) <= 0) continue;
        last = entry.key;
        if (keyProblems(entry.key, 'item').length || !nameMatches(entry.key, opts.nameContains)) continue;
        if (entries.length === opts.limit) return { entries, more: true };
        entries.push(entry);
      }
      if (!page.isTruncated || !page.nextContinuationToken) return { entries, more: false };
      token = page.nextContinuationToken;
    }
  }

  async stat(key: string): Promise<StoredEntry | null> {
    assertKey(key, 'item');
    if (!key.endsWith('/')) return this.#statFile(key);
    const marker = await this.#statFile(key);
    if (marker) return { key, type: 'FOLDER', size: null, lastModified: marker.lastModified };
    return (await this.#hasObjectsUnder(key)) ? { key, type: 'FOLDER', size: null, lastModified: null } : null;
  }

  async read(key: string, range?: { start: number; end?: number }): Promise<Readable> {
    assertKey(key, 'file');
    try {
      if (!range) return await this.#client.getObject(this.#bucket, this.#objectKey(key));
      // A length of 0 means "to the end" to the client.
      const length = range.end === undefined ? 0 : range.end - range.start + 1;
      return await this.#client.getPartialObject(this.#bucket, this.#objectKey(key), range.start, length);
    } catch (err) {
      if (isMissing(err)) throw new StorageNotFoundError(key);
      throw err;
    }
  }

  /**
   * Uploads without the client's putObject stream path, which resumes any unfinished upload of
   * the same key (another client's, too) and does not settle when its source stream fails. A
   * body that fits one part is sent with a single PUT; a larger one as a multipart upload of
   * this driver's own, aborted on any failure so that no object and no stored parts remain.
   */
  async write(key: string, body: Readable, opts: { size?: number; contentType?: string; maxBytes?: number }): Promise<StoredEntry> {
    assertKey(key, 'file');
    const objectKey = this.#objectKey(key);
    const headers = { 'Content-Type': opts.contentType || 'application/octet-stream' };
    const partSize = Math.max(this.#partSize, opts.size ? Math.ceil(opts.size / MAX_PARTS) : 0);
    const counted = pipeline(body, new ByteCounter({ maxBytes: opts.maxBytes, size: opts.size }), () => undefined);

    let uploadId: string | undefined;
    const parts: { part: number; etag: string }[] = [];
    let chunks: Buffer[] = [];
    let buffered = 0;
    const sendPart = async (): Promise<void> => {
      const payload = Buffer.concat(chunks, buffered);
      chunks = [];
      buffered = 0;
      uploadId ??= await this.#client.initiateNewMultipartUpload(this.#bucket, objectKey, headers);
      const part = parts.length + 1;
      const sent = await this.#client.uploadPart(
        {
          bucketName: this.#bucket,
          objectName: objectKey,
          uploadID: encodeURIComponent(uploadId),
          partNumber: part,
          headers: { 'Content-Length': payload.length },
        },
        payload,
      );
      parts.push({ part, etag: sent.etag });
    };

    try {
      for await (const chunk of counted) {
        chunks.push(chunk as Buffer);
        buffered += (chunk as Buffer).length;
        if (buffered >= partSize) await sendPart();
      }
      if (uploadId === undefined) {
        await this.#client.putObject(this.#bucket, objectKey, Buffer.concat(chunks, buffered), buffered, headers);
      } else {
        if (buffered > 0) await sendPart();
        await this.#client.completeMultipartUpload(this.#bucket, objectKey, uploadId, parts);
      }
    } catch (err) {
      body.destroy();
      counted.destroy();
      if (uploadId !== undefined) {
        // Best effort: the object is not visible either way; a bucket lifecycle rule
        // (AbortIncompleteMultipartUpload) reclaims parts if this call fails too.
        await this.#client.abortMultipartUpload(this.#bucket, objectKey, uploadId).catch(() => undefined);
      }
      throw err;
    }
    const entry = await this.#statFile(key);
    if (!entry) throw new StorageNotFoundError(key);
    return entry;
  }

  async createFolder(key: string): Promise<StoredEntry> {
    assertKey(key, 'folder');
    const existing = await this.#statFile(key);
    if (existing) return { key, type: 'FOLDER', size: null, lastModified: existing.lastModified };
    await this.#client.putObject(this.#bucket, this.#objectKey(key), Buffer.alloc(0), 0, { 'Content-Type': 'application/x-directory' });
    const marker = await this.#statFile(key);
    return { key, type: 'FOLDER', size: null, lastModified: marker?.lastModified ?? null };
  }

  async delete(key: string): Promise<void> {
    assertKey(key, 'item');
    if (!key.endsWith('/')) {
      if (!(await this.#statFile(key))) throw new StorageNotFoundError(key);
      await this.#client.removeObject(this.#bucket, this.#objectKey(key));
      return;
    }
    let removed = 0;
    for await (const batch of this.#objectsUnder(key)) {
      await this.#removeBatch(batch.map((o) => o.objectKey));
      removed += batch.length;
    }
    if (removed === 0) throw new StorageNotFoundError(key);
  }

  async rename(fromKey: string, toKey: string): Promise<StoredEntry> {
    assertKey(fromKey, 'item');
    assertKey(toKey, 'item');
    const isFolder = fromKey.endsWith('/');
    if (toKey.endsWith('/') !== isFolder) throw new StorageInvalidKeyError(toKey, 'a file and a folder cannot be renamed into each other');
    if (isFolder && toKey !== fromKey && toKey.startsWith(fromKey))
      throw new StorageInvalidKeyError(toKey, 'a folder cannot be moved into itself');
    if (!(await this.stat(fromKey))) throw new StorageNotFoundError(fromKey);
    // A file "x" and a folder "x/" can coexist in S3 but would show as two items of one name.
    const twin = isFolder ? toKey.slice(0, -1) : `${toKey}/`;
    if ((await this.stat(toKey)) || (await this.stat(twin))) throw new StorageConflictError(toKey);

    if (!isFolder) {
      await this.#copy(fromKey, toKey);
      await this.#client.removeObject(this.#bucket, this.#objectKey(fromKey));
    } else {
      // Copy everything first, then delete: a failure midway leaves the source complete.
      const sources: string[] = [];
      for await (const batch of this.#objectsUnder(fromKey)) {
        for (const { key, size } of batch) {
          await this.#copy(key, toKey + key.slice(fromKey.length), size);
          sources.push(this.#objectKey(key));
        }
      }
      for (let i = 0; i < sources.length; i += LIST_PAGE) await this.#removeBatch(sources.slice(i, i + LIST_PAGE));
    }
    const entry = await this.stat(toKey);
    if (!entry) throw new StorageNotFoundError(toKey);
    return entry;
  }

  async presignUpload(key: string, expiresInSeconds: number): Promise<string | null> {
    // Content-Type is not part of the signature: the client may send any.
    assertKey(key, 'file');
    return this.#client.presignedPutObject(this.#bucket, this.#objectKey(key), expiresInSeconds);
  }

  async presignDownload(key: string, expiresInSeconds: number): Promise<string | null> {
    assertKey(key, 'file');
    return this.#client.presignedGetObject(this.#bucket, this.#objectKey(key), expiresInSeconds);
  }

  #objectKey(key: string): string {
    return this.#prefix + key;
  }

  /** Maps a listed object or common prefix back to a provider entry; null for keys outside the prefix. */
  #entryOf(item: BucketItem): StoredEntry | null {
    const objectKey = item.prefix ?? item.name;
    if (!objectKey.startsWith(this.#prefix)) return null;
    const key = objectKey.slice(this.#prefix.length);
    if (item.prefix !== undefined) return { key, type: 'FOLDER', size: null, lastModified: null };
    return { key, type: 'FILE', size: item.size, lastModified: item.lastModified ? item.lastModified.getTime() : null };
  }

  async #statFile(key: string): Promise<StoredEntry | null> {
    try {
      const s = await this.#client.statObject(this.#bucket, this.#objectKey(key));
      const contentType = (s.metaData as Record<string, unknown> | undefined)?.['content-type'];
      return {
        key,
        type: key.endsWith('/') ? 'FOLDER' : 'FILE',
        size: key.endsWith('/') ? null : s.size,
        lastModified: s.lastModified.getTime(),
        contentType: typeof contentType === 'string' ? contentType : null,
      };
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async #hasObjectsUnder(folderKey: string): Promise<boolean> {
    const page = await this.#client.listObjectsV2Query(this.#bucket, this.#objectKey(folderKey), '', '', 1, '');
    return page.objects.length > 0;
  }

  /** Every object under a folder (its marker included), a listing page at a time. */
  async *#objectsUnder(folderKey: string): AsyncGenerator<{ key: string; objectKey: string; size: number }[]> {
    let token = '';
    for (;;) {
      const page = await this.#client.listObjectsV2Query(this.#bucket, this.#objectKey(folderKey), token, '', LIST_PAGE, '');
      const batch = page.objects
        .filter((o): o is Extract<BucketItem, { name: string }> => typeof o.name === 'string')
        .map((o) => ({ key: o.name.slice(this.#prefix.length), objectKey: o.name, size: o.size }));
      if (batch.length) yield batch;
      if (!page.isTruncated || !page.nextContinuationToken) return;
      token = page.nextContinuationToken;
    }
  }

  async #removeBatch(objectKeys: string[]): Promise<void> {
    const results = await this.#client.removeObjects(this.#bucket, objectKeys);
    const failed = results.find((r) => r?.Error && r.Error.Code !== 'NoSuchKey');
    if (failed?.Error)
      throw new Error(
        `S3 refused to delete ${failed.Error.Key ?? 'an object'}: ${failed.Error.Code ?? ''} ${failed.Error.Message ?? ''}`.trim(),
      );
  }

  async #copy(fromKey: string, toKey: string, size?: number): Promise<void> {
    const source = new CopySourceOptions({ Bucket: this.#bucket, Object: this.#objectKey(fromKey) });
    const dest = new CopyDestinationOptions({ Bucket: this.#bucket, Object: this.#objectKey(toKey) });
    const bytes = size ?? (await this.#statFile(fromKey))?.size ?? 0;
    if (bytes > MAX_SINGLE_COPY) await this.#client.composeObject(dest, [source]);
    else await this.#client.copyObject(source, dest);
  }
}
