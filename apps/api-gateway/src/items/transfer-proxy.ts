import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import { DomainError, ErrorCode, type ErrorBody } from '@docintel/contracts';
import type { Logger } from '@docintel/observability';
import { HTTP_STATUS_OF } from '../errors/http-status';
import { StorageTransferClient, TransferError } from './storage-transfer.client';

export const TRANSFER_PATH = '/api/storage/transfer/:grant';

const DOWNLOAD_HEADERS = ['content-type', 'content-length', 'content-range', 'accept-ranges', 'last-modified'];

function header(req: FastifyRequest, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * The public side of LOCAL presigned URLs: `PUT|GET /api/storage/transfer/<grant>` streams the
 * bytes to or from the storage service, which checks the grant (403 when expired or altered).
 * The URL itself is the credential, so no bearer token is asked for; this is a plain Fastify
 * route in its own scope because the body must reach storage unparsed whatever its type
 * (a JSON file must not meet the JSON body parser), and it is not part of the OpenAPI surface.
 */
export function registerTransferProxy(fastify: FastifyInstance, transfer: StorageTransferClient, logger: Logger): void {
  void fastify.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));

    scope.put<{ Params: { grant: string } }>(TRANSFER_PATH, async (req, reply) => {
      try {
        const { item } = await transfer.put(req.params.grant, req.raw, {
          'content-type': header(req, 'content-type'),
          'content-length': header(req, 'content-length'),
          'x-request-id': String(req.id),
        });
        return reply.status(200).header('content-type', 'application/json; charset=utf-8').send(item);
      } catch (err) {
        return fail(req, reply, err, logger);
      }
    });

    scope.get<{ Params: { grant: string } }>(TRANSFER_PATH, async (req, reply) => {
      try {
        const res = await transfer.get(req.params.grant, { range: header(req, 'range'), 'x-request-id': String(req.id) });
        void reply.status(res.statusCode ?? 200);
        for (const name of DOWNLOAD_HEADERS) if (res.headers[name] !== undefined) void reply.header(name, res.headers[name]);
        reply.raw.once('close', () => res.destroy());
        return reply.send(res);
      } catch (err) {
        return fail(req, reply, err, logger);
      }
    });
  });
}

/** The same error body as every other gateway route. */
function fail(req: FastifyRequest, reply: FastifyReply, err: unknown, logger: Logger): FastifyReply | void {
  if (reply.sent || reply.raw.destroyed) return;
  const requestId = String(req.id);
  let body: ErrorBody;
  if (err instanceof DomainError) {
    const status = HTTP_STATUS_OF[err.code] ?? 500;
    body = { status, error: STATUS_CODES[status] ?? 'Error', code: err.code, message: err.message, details: err.details, requestId };
    if (err instanceof TransferError && err.headers['content-range']) void reply.header('content-range', err.headers['content-range']);
  } else {
    const errorId = randomUUID();
    logger.error({ err, errorId, url: req.url.split('/transfer/')[0] }, 'transfer relay failed');
    body = {
      status: 500,
      error: STATUS_CODES[500] as string,
      code: ErrorCode.INTERNAL,
      message: `Internal server error (error id ${errorId})`,
      details: [],
      requestId,
      errorId,
    };
  }
  if (body.status === 413) void reply.header('connection', 'close');
  return reply.status(body.status).header('content-type', 'application/json; charset=utf-8').send(body);
}
