import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import { PassThrough, pipeline } from 'node:stream';
import { DomainError, ErrorCode } from '@docintel/contracts';
import { TRANSFER_BLOCK_BYTES } from '@docintel/storage';
import { runWithRequestId, type Logger } from '@docintel/observability';
import { ItemsService } from './items.service';

export const INTERNAL_TRANSFER_PATH = '/internal/transfer/:grant';

/**
 * The internal status of each error these routes raise. Callers (the gateway) read `code` from
 * the body and answer their own clients with their own mapping; these statuses are for the wire.
 */
const INTERNAL_STATUS: Partial<Record<ErrorCode, number>> = {
  [ErrorCode.VALIDATION_FAILED]: 400,
  [ErrorCode.FORBIDDEN]: 403,
  [ErrorCode.NOT_FOUND]: 404,
  [ErrorCode.CONFLICT]: 409,
  [ErrorCode.PAYLOAD_TOO_LARGE]: 413,
  [ErrorCode.RANGE_NOT_SATISFIABLE]: 416,
};

function header(req: FastifyRequest, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * `PUT|GET /internal/transfer/<grant>`: file bytes in and out of the storage service over plain
 * HTTP, so that they never travel on NATS. There is no bearer token here: each request carries a
 * grant this service signed itself (for a gateway relay or a client's LOCAL presigned URL) naming
 * the provider, key, operation and expiry; a bad or expired grant gets 403.
 *
 * A plain Fastify route in its own scope rather than a Nest controller: the body is the file,
 * of any type, and must reach the driver unparsed (a JSON file must not meet a JSON parser).
 */
export function registerTransferRoutes(fastify: FastifyInstance, items: ItemsService, logger: Logger): void {
  void fastify.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));

    scope.put<{ Params: { grant: string } }>(INTERNAL_TRANSFER_PATH, (req, reply) =>
      withRequestId(req, async (requestId) => {
        try {
          const length = header(req, 'content-length');
          // pipeline() carries an aborted request's error into the body, so the driver's write fails
          // and stores nothing, and keeps an error listener on both streams whoever reads them.
          const body = new PassThrough({ highWaterMark: TRANSFER_BLOCK_BYTES });
          pipeline(req.raw, body, () => undefined);
          const item = await items.receive(req.params.grant, body, {
            contentLength: length !== undefined && /^\d+$/.test(length) ? Number(length) : undefined,
            contentType: header(req, 'content-type'),
            requestId,
          });
          return reply.status(200).header('content-type', 'application/json; charset=utf-8').send(item);
        } catch (err) {
          if (req.raw.readableAborted || req.raw.destroyed) {
            logger.info({ reason: (err as Error).message }, 'upload broke off before its end; nothing was stored');
          }
          return fail(reply, err, requestId, logger);
        }
      }),
    );

    scope.get<{ Params: { grant: string } }>(INTERNAL_TRANSFER_PATH, (req, reply) =>
      withRequestId(req, async (requestId) => {
        try {
          const out = await items.send(req.params.grant, header(req, 'range'), requestId);
          void reply.header('accept-ranges', 'bytes');
          if ('unsatisfiable' in out) {
            void reply.header('content-range', `bytes */${out.size}`);
            throw new DomainError(
              ErrorCode.RANGE_NOT_SATISFIABLE,
              `The range ${header(req, 'range')} lies outside the file (${out.size} bytes)`,
            );
          }
          const size = out.entry.size ?? 0;
          void reply.header('content-type', out.item.mediaType ?? 'application/octet-stream');
          if (out.entry.lastModified !== null) void reply.header('last-modified', new Date(out.entry.lastModified).toUTCString());
          if (out.range) {
            void reply
              .status(206)
              .header('content-range', `bytes ${out.range.start}-${out.range.end}/${size}`)
              .header('content-length', String(out.range.end - out.range.start + 1));
          } else {
            void reply.status(200).header('content-length', String(size));
          }
          return reply.send(out.body);
        } catch (err) {
          return fail(reply, err, requestId, logger);
        }
      }),
    );
  });
}

function withRequestId<T>(req: FastifyRequest, fn: (requestId: string) => Promise<T>): Promise<T> {
  const requestId = header(req, 'x-request-id') ?? randomUUID();
  return runWithRequestId(requestId, () => fn(requestId));
}

function fail(reply: FastifyReply, err: unknown, requestId: string, logger: Logger): FastifyReply | void {
  if (reply.sent || reply.raw.destroyed) return;
  let status: number;
  let body: { code: ErrorCode; message: string; details: unknown[] };
  if (err instanceof DomainError) {
    status = INTERNAL_STATUS[err.code] ?? 500;
    body = { code: err.code, message: err.message, details: err.details };
  } else {
    const errorId = randomUUID();
    logger.error({ err, errorId }, 'transfer failed');
    status = 500;
    body = { code: ErrorCode.INTERNAL, message: `Internal error (error id ${errorId})`, details: [] };
  }
  // The rest of an unread upload is not wanted: close rather than drain it.
  return reply
    .status(status)
    .header('content-type', 'application/json; charset=utf-8')
    .header('connection', 'close')
    .send({ status, error: STATUS_CODES[status], ...body, requestId });
}
