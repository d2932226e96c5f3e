import { HttpException, type ArgumentsHost } from '@nestjs/common';
import { DomainError, ErrorCode, type ErrorBody } from '@docintel/contracts';
import type { Logger } from '@docintel/observability';
import { AllErrorsFilter } from './all-errors.filter';

/** What the filter sends for `exception` on a request with these headers. */
function answer(
  exception: unknown,
  headers: Record<string, string> = {},
): { status: number; body: ErrorBody; headers: Record<string, string> } {
  const sent: { status: number; body?: ErrorBody; headers: Record<string, string> } = { status: 0, headers: {} };
  const reply = {
    status(code: number) {
      sent.status = code;
      return reply;
    },
    header(name: string, value: string) {
      sent.headers[name.toLowerCase()] = value;
      return reply;
    },
    send(body: ErrorBody) {
      sent.body = body;
      return reply;
    },
  };
  const request = { id: 'req-1', method: 'POST', url: '/api/core/collections', headers };
  const host = { switchToHttp: () => ({ getResponse: () => reply, getRequest: () => request }) } as unknown as ArgumentsHost;
  const logger = { error: jest.fn(), warn: jest.fn() } as unknown as Logger;
  new AllErrorsFilter(logger).catch(exception, host);
  return { status: sent.status, body: sent.body as ErrorBody, headers: sent.headers };
}

describe('AllErrorsFilter', () => {
  it('answers a body no parser reads with 415 UNSUPPORTED_MEDIA_TYPE, naming the type sent', () => {
    const fastify415 = Object.assign(new Error('Unsupported Media Type'), { code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE', statusCode: 415 });
    const { status, body } = answer(fastify415, { 'content-type': 'application/x-www-form-urlencoded' });
    expect(status).toBe(415);
    expect(body).toMatchObject({
      status: 415,
      error: 'Unsupported Media Type',
      code: ErrorCode.UNSUPPORTED_MEDIA_TYPE,
      details: [],
      requestId: 'req-1',
    });
    expect(body.message).toContain('application/x-www-form-urlencoded');
  });

  it("does the same for the HttpException(415) Nest makes of fastify's error", () => {
    const { status, body } = answer(new HttpException('Unsupported Media Type', 415), { 'content-type': 'text/plain' });
    expect(status).toBe(415);
    expect(body).toMatchObject({ code: ErrorCode.UNSUPPORTED_MEDIA_TYPE, message: expect.stringContaining('text/plain') });
    expect(answer(new HttpException('Unsupported Media Type', 415)).body.message).toMatch(/needs a Content-Type/);
  });

  it('keeps a domain error as it is', () => {
    const { status, body } = answer(DomainError.invalid([{ field: 'q', problem: 'must not contain the NUL character (U+0000)' }]));
    expect(status).toBe(400);
    expect(body).toMatchObject({
      code: ErrorCode.VALIDATION_FAILED,
      details: [{ field: 'q', problem: 'must not contain the NUL character (U+0000)' }],
    });
  });

  it('names the body on a 400 fastify raises itself (malformed JSON)', () => {
    const bad = Object.assign(new Error("Body is not valid JSON but content-type is set to 'application/json'"), { statusCode: 400 });
    expect(answer(bad).body).toMatchObject({ status: 400, code: ErrorCode.VALIDATION_FAILED, details: [{ field: '(body)' }] });
  });

  describe('a dependency that is starting or away', () => {
    it('answers 503 with Retry-After when no instance of a service subscribes (NATS no responders)', () => {
      const noResponders = new DomainError(
        ErrorCode.SERVICE_UNAVAILABLE,
        'The rules service is not available right now; try again shortly',
      );
      const { status, body, headers } = answer(noResponders);
      expect(status).toBe(503);
      expect(headers['retry-after']).toBe('5');
      expect(body).toMatchObject({ status: 503, code: ErrorCode.SERVICE_UNAVAILABLE, message: expect.stringContaining('rules service') });
      expect(body.errorId).toBeUndefined();
    });

    it.each([
      ['the pool timing out', new Error('timeout exceeded when trying to connect')],
      ['a refused connection', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
      ['a server starting up (57P03)', Object.assign(new Error('the database system is starting up'), { code: '57P03' })],
    ])('answers 503 with Retry-After, not 500, for the database: %s', (_what, err) => {
      const { status, body, headers } = answer(err);
      expect(status).toBe(503);
      expect(headers['retry-after']).toBe('5');
      expect(body).toMatchObject({ code: ErrorCode.SERVICE_UNAVAILABLE, message: expect.stringContaining('database') });
    });

    it('still answers 500 with an error id, and no Retry-After, for a bug', () => {
      const { status, body, headers } = answer(new TypeError("Cannot read properties of undefined (reading 'id')"));
      expect(status).toBe(500);
      expect(body.errorId).toEqual(expect.any(String));
      expect(headers['retry-after']).toBeUndefined();
    });
  });
});
