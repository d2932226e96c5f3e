import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Readable } from 'node:stream';
import { DomainError, ErrorCode, type ErrorPayload } from '@docintel/contracts';
import { SERVICE_ENV } from '@docintel/runtime';
import type { GatewayEnv } from '../gateway.env';

/** A failure answered by the storage service's transfer endpoint, with the headers that go with it (Content-Range on 416). */
export class TransferError extends DomainError {
  constructor(
    payload: ErrorPayload,
    readonly headers: IncomingHttpHeaders,
  ) {
    super(payload.code, payload.message, payload.details ?? []);
  }
}

const MAX_ERROR_BODY = 64 * 1024;

/** A body closed before its end: what the client sent is incomplete and must not be stored. */
function bodyBrokeOff(): DomainError {
  return DomainError.invalid(
    [{ field: '(body)', problem: 'ended before it was complete: the upload broke off' }],
    'The upload broke off before the end of the file',
  );
}

async function readError(res: IncomingMessage): Promise<TransferError> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_ERROR_BODY) break;
    chunks.push(chunk);
  }
  res.destroy();
  try {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Partial<ErrorPayload>;
    if (body && typeof body.code === 'string' && typeof body.message === 'string') {
      return new TransferError({ code: body.code, message: body.message, details: body.details ?? [] }, res.headers);
    }
  } catch {
    /* not an error body */
  }
  return new TransferError(
    { code: ErrorCode.INTERNAL, message: `The storage service answered ${res.statusCode} to a transfer` },
    res.headers,
  );
}

/**
 * Streams bytes to and from the storage service's internal transfer endpoint over HTTP, with
 * back-pressure end to end: nothing is buffered beyond the socket and stream high-water marks.
 */
/** A grant is `<base64url>.<base64url>` (storage's signed token). */
const GRANT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/**
 * Anything else (`..`, `.`, a slash) would be resolved by URL as a path segment and reach another
 * storage route: it is refused here with the 403 storage gives a tampered grant.
 */
function checkGrantShape(grant: string): void {
  if (!GRANT_SHAPE.test(grant)) throw new DomainError(ErrorCode.FORBIDDEN, 'The transfer URL is invalid or has been altered');
}

@Injectable()
export class StorageTransferClient implements OnApplicationShutdown {
  private readonly base: URL;
  private readonly agent: HttpAgent;

  constructor(@Inject(SERVICE_ENV) env: GatewayEnv) {
    this.base = new URL(env.STORAGE_SERVICE_URL.replace(/\/+$/, '') + '/');
    const Agent = this.base.protocol === 'https:' ? HttpsAgent : HttpAgent;
    this.agent = new Agent({ keepAlive: true });
  }

  onApplicationShutdown(): void {
    this.agent.destroy();
  }

  /**
   * PUTs a body under a grant and resolves with the stored item. If the body fails or is closed
   * before its end (the client broke off or went away, the body was cut short, it exceeded the
   * limit) the request to storage is torn down at once, so storage stores nothing and no transfer
   * stays open; a body that has failed already never opens one.
   */
  async put<T>(grant: string, body: Readable, headers: Record<string, string | undefined>): Promise<{ status: number; item: T }> {
    checkGrantShape(grant);
    if (body.errored) throw body.errored;
    if (body.destroyed && !body.readableEnded) throw bodyBrokeOff();
    const res = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = this.send('PUT', grant, headers, resolve, reject);
      const fail = (err: Error) => {
        req.destroy(err);
        reject(err);
      };
      body.once('error', fail);
      body.once('close', () => {
        if (!body.readableEnded) fail(body.errored ?? bodyBrokeOff());
      });
      req.once('close', () => body.unpipe(req));
      body.pipe(req);
    });
    if (res.statusCode !== 200 && res.statusCode !== 201) {
      body.unpipe();
      throw await readError(res);
    }
    const chunks: Buffer[] = [];
    for await (const chunk of res as AsyncIterable<Buffer>) chunks.push(chunk);
    return { status: res.statusCode, item: JSON.parse(Buffer.concat(chunks).toString('utf8')) as T };
  }

  /** GETs the bytes under a grant; resolves with the 200 or 206 response to stream on, else throws a TransferError. */
  async get(grant: string, headers: Record<string, string | undefined>): Promise<IncomingMessage> {
    checkGrantShape(grant);
    const res = await new Promise<IncomingMessage>((resolve, reject) => this.send('GET', grant, headers, resolve, reject).end());
    if (res.statusCode === 200 || res.statusCode === 206) return res;
    throw await readError(res);
  }

  private send(
    method: 'GET' | 'PUT',
    grant: string,
    headers: Record<string, string | undefined>,
    resolve: (res: IncomingMessage) => void,
    reject: (err: unknown) => void,
  ) {
    const url = new URL(`internal/transfer/${encodeURIComponent(grant)}`, this.base);
    const clean = Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== undefined)) as Record<string, string>;
    const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = request(url, { method, headers: clean, agent: this.agent }, resolve);
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ECONNREFUSED' || err.code === 'ENOTFOUND' || err.code === 'EHOSTUNREACH') {
        reject(
          new DomainError(
            ErrorCode.SERVICE_UNAVAILABLE,
            `The storage service is not reachable at ${this.base.origin} for file transfers; check STORAGE_SERVICE_URL`,
          ),
        );
      } else {
        reject(err);
      }
    });
    return req;
  }
}
