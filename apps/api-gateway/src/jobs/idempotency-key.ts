import { applyDecorators, createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { ApiHeader, ApiResponse } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { DomainError, ErrorBodyDto, JOB_IDEMPOTENCY_KEY } from '@docintel/contracts';

/** The Idempotency-Key header, checked: visible ASCII, at most JOB_IDEMPOTENCY_KEY.maxChars, sent once. */
export function idempotencyKey(value: string | string[] | undefined): string | undefined {
  if (value === undefined) return undefined;
  const key = Array.isArray(value) ? value[0] : value;
  const problem =
    Array.isArray(value) && value.length > 1
      ? 'must be sent once'
      : !key
        ? 'must not be empty'
        : key.length > JOB_IDEMPOTENCY_KEY.maxChars
          ? `must be at most ${JOB_IDEMPOTENCY_KEY.maxChars} characters`
          : !JOB_IDEMPOTENCY_KEY.pattern.test(key)
            ? 'must be visible ASCII characters (no spaces or control characters)'
            : null;
  if (problem) throw DomainError.invalid([{ field: 'Idempotency-Key', problem }]);
  return key;
}

/** The request's Idempotency-Key, checked (400 naming the header when it is malformed), or undefined. */
export const IdempotencyKey = createParamDecorator((_: unknown, ctx: ExecutionContext): string | undefined =>
  idempotencyKey(ctx.switchToHttp().getRequest<FastifyRequest>().headers['idempotency-key']),
);

/** The create body as the orchestrator takes it: with the key when one was sent. */
export const withKey = <T extends object>(body: T, key: string | undefined): T & { idempotencyKey?: string } =>
  key ? { ...body, idempotencyKey: key } : body;

/** Documents what every job create shares: the Idempotency-Key header, 409 for a reused key, 429 at the namespace's limits. */
export const JobCreateContract = () =>
  applyDecorators(
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description: `At most ${JOB_IDEMPOTENCY_KEY.maxChars} visible ASCII characters. The same key with the same body returns the job the first request created (retry a create that timed out without creating a second job); with another body, 409. Remembered for JOB_IDEMPOTENCY_TTL_SECONDS (24 h by default), per user of a namespace.`,
    }),
    ApiResponse({ status: 409, description: 'Conflict: the Idempotency-Key was used for another request', type: ErrorBodyDto }),
    ApiResponse({
      status: 429,
      description:
        'Too many requests: the namespace has as many jobs (or questions, files, sources) queued and running as it may; details name the limit',
      type: ErrorBodyDto,
      headers: { 'Retry-After': { description: 'Seconds to wait before sending the create again', schema: { type: 'integer' } } },
    }),
  );
