import { Catch, HttpException, Inject, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { STATUS_CODES } from 'node:http';
import { randomUUID } from 'node:crypto';
import { DomainError, ErrorCode, type ErrorBody, type ErrorDetail } from '@docintel/contracts';
import { LOGGER, type Logger } from '@docintel/observability';
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable } from '@docintel/persistence';
import { unsupportedMediaType } from '../http/json-body';
import { codeOfStatus, HTTP_STATUS_OF, RETRY_AFTER_SECONDS } from './http-status';

/** fastify's 415 for a body no parser reads; Nest hands it to the filter as an HttpException(415). */
const isUnsupportedMediaType = (e: unknown): boolean =>
  (e instanceof HttpException && e.getStatus() === 415) ||
  (!!e && typeof e === 'object' && (e as FastifyLikeError).code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE');

interface FastifyLikeError {
  statusCode?: number;
  code?: string;
  message: string;
}

/**
 * Every error leaves the gateway as the same JSON body. Domain errors keep their message and
 * details; a database that cannot be reached is a 503; anything unexpected becomes a 500 whose
 * error id is also in the log line. Every 503 carries Retry-After, so that a client waits a
 * moment and tries again instead of failing.
 */
@Catch()
export class AllErrorsFilter implements ExceptionFilter {
  constructor(@Inject(LOGGER) private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    const body = this.toBody(exception, request);
    if (body.status === 503) {
      // A service or the database starting or away: worth a log line, not an error id.
      this.logger.warn({ err: exception, url: request.url }, body.message);
    } else if (body.status >= 500) {
      this.logger.error({ err: exception, errorId: body.errorId, url: request.url }, body.message);
    }
    // A limit that clears with time (the namespace's queued jobs) says when to come back; a
    // dependency that is starting (503) gets the usual wait of a restart.
    const retryAfter =
      exception instanceof DomainError && exception.retryAfterSeconds !== undefined
        ? exception.retryAfterSeconds
        : RETRY_AFTER_SECONDS[body.status];
    if (retryAfter !== undefined) void reply.header('retry-after', String(Math.ceil(retryAfter)));
    void reply.status(body.status).header('content-type', 'application/json; charset=utf-8').send(body);
  }

  private toBody(exception: unknown, request: FastifyRequest): ErrorBody {
    // A body no parser reads (form, text, none given with a body): fastify says only "Unsupported Media Type".
    if (isUnsupportedMediaType(exception)) exception = unsupportedMediaType(request.headers['content-type']);
    const requestId = String(request.id);
    const make = (status: number, code: ErrorCode, message: string, details: ErrorDetail[] = []): ErrorBody => ({
      status,
      error: STATUS_CODES[status] ?? 'Error',
      code,
      message,
      details,
      requestId,
    });

    if (exception instanceof DomainError) {
      const status = HTTP_STATUS_OF[exception.code] ?? 500;
      const body = make(status, exception.code, exception.message, exception.details);
      if (status === 500) body.errorId = randomUUID();
      return body;
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const message = status === 404 ? `No route for ${request.method} ${request.url.split('?')[0]}` : exception.message;
      // Nest raises 400 itself only for bodies it cannot read (malformed JSON): name the body as the field.
      return make(status, codeOfStatus(status), message, status === 400 ? [{ field: '(body)', problem: message }] : []);
    }
    if (isDatabaseUnavailable(exception)) return make(503, ErrorCode.SERVICE_UNAVAILABLE, DATABASE_UNAVAILABLE_MESSAGE);
    const fastifyError = exception as FastifyLikeError;
    if (fastifyError && typeof fastifyError.statusCode === 'number' && fastifyError.statusCode < 500) {
      // Errors fastify raises before a handler runs: malformed JSON, body too large, bad content type.
      const status = fastifyError.statusCode;
      return make(
        status,
        codeOfStatus(status),
        fastifyError.message,
        status === 400 ? [{ field: '(body)', problem: fastifyError.message }] : [],
      );
    }
    const errorId = randomUUID();
    return { ...make(500, ErrorCode.INTERNAL, `Internal server error (error id ${errorId})`), errorId };
  }
}
