import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DomainError, ErrorCode, ItemsTransferTarget, type RpcContext } from '@docintel/contracts';
import { RpcClient } from '@docintel/messaging';
import { SERVICE_ENV } from '@docintel/runtime';
import type { IndexingEnv } from '../indexing.env';

/** The bytes of a file, on local disk for the parser. */
export interface DownloadedFile {
  path: string;
  sha256: string;
  size: number;
  /** Removes the temporary file. */
  dispose(): Promise<void>;
}

/** A file larger than MAX_INDEX_BYTES: final, retrying cannot help. */
export class FileTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`The file is larger than the indexing limit of ${formatBytes(limit)}.`);
    this.name = 'FileTooLargeError';
  }
}

function formatBytes(n: number): string {
  if (n >= 1024 ** 3) return `${+(n / 1024 ** 3).toFixed(1)} GiB`;
  if (n >= 1024 ** 2) return `${+(n / 1024 ** 2).toFixed(1)} MiB`;
  if (n >= 1024) return `${+(n / 1024).toFixed(1)} KiB`;
  return `${n} bytes`;
}

/** Hashes and counts the bytes going through, and stops the stream past the limit. */
class HashAndLimit extends Transform {
  readonly hash = createHash('sha256');
  size = 0;

  constructor(private readonly limit: number) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.size += chunk.length;
    if (this.size > this.limit) return done(new FileTooLargeError(this.limit));
    this.hash.update(chunk);
    done(null, chunk);
  }
}

/**
 * Reads a provider item's bytes for indexing: storage issues a short-lived grant over NATS (which
 * also checks that the namespace may use the provider), and the bytes stream from the storage
 * service's internal transfer endpoint into a temporary file, hashed and counted on the way. Nothing
 * holds the whole file in memory; a file over MAX_INDEX_BYTES is cut off as soon as it is known.
 */
@Injectable()
export class StorageBytes implements OnApplicationShutdown {
  private readonly base: URL;
  private readonly agent: HttpAgent;
  private readonly maxBytes: number;
  private readonly tempRoot: string;

  constructor(
    private readonly rpc: RpcClient,
    @Inject(SERVICE_ENV) env: IndexingEnv,
  ) {
    this.base = new URL(env.STORAGE_SERVICE_URL.replace(/\/+$/, '') + '/');
    this.agent = new (this.base.protocol === 'https:' ? HttpsAgent : HttpAgent)({ keepAlive: true });
    this.maxBytes = env.MAX_INDEX_BYTES;
    this.tempRoot = join(env.INDEX_TEMP_DIR ?? tmpdir(), 'docintel-indexing');
  }

  onApplicationShutdown(): void {
    this.agent.destroy();
  }

  async download(ctx: RpcContext, providerId: string, key: string): Promise<DownloadedFile> {
    const target = await this.rpc.call(ItemsTransferTarget, { providerId, key, op: 'get' }, ctx);
    const res = await this.get(target.grant, ctx.requestId);
    await mkdir(this.tempRoot, { recursive: true });
    const path = join(this.tempRoot, randomUUID());
    const dispose = () => rm(path, { force: true });
    const meter = new HashAndLimit(this.maxBytes);
    try {
      await pipeline(res, meter, createWriteStream(path, { flags: 'wx' }));
    } catch (err) {
      res.destroy();
      await dispose();
      throw err;
    }
    return { path, sha256: meter.hash.digest('hex'), size: meter.size, dispose };
  }

  private get(grant: string, requestId: string): Promise<IncomingMessage> {
    const url = new URL(`internal/transfer/${encodeURIComponent(grant)}`, this.base);
    const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<IncomingMessage>((resolve, reject) => {
      const req = request(url, { method: 'GET', agent: this.agent, headers: { 'x-request-id': requestId } }, (res) => {
        if (res.statusCode === 200) return resolve(res);
        void readError(res).then(reject, reject);
      });
      req.once('error', (err: NodeJS.ErrnoException) => {
        reject(
          ['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ECONNRESET'].includes(err.code ?? '')
            ? new DomainError(
                ErrorCode.SERVICE_UNAVAILABLE,
                `The storage service is not reachable at ${this.base.origin} to read the file; check STORAGE_SERVICE_URL`,
              )
            : err,
        );
      });
      req.end();
    });
  }
}

/** The storage service's error body as a DomainError (404 when the item is gone, ...). */
async function readError(res: IncomingMessage): Promise<DomainError> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > 64 * 1024) break;
    chunks.push(chunk);
  }
  res.destroy();
  try {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { code?: string; message?: string };
    if (typeof body.code === 'string' && typeof body.message === 'string') return new DomainError(body.code as ErrorCode, body.message);
  } catch {
    /* not an error body */
  }
  return new DomainError(ErrorCode.INTERNAL, `The storage service answered ${res.statusCode} when the file was read`);
}
