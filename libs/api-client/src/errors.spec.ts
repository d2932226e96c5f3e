import { DocintelApiError, unwrap } from './errors';
import { errorBody, jsonResponse } from './testing/fake-fetch';

const failed = (status: number, error: unknown, headers: Record<string, string> = {}) => ({
  error,
  response: new Response(null, { status, statusText: status === 404 ? 'Not Found' : '', headers }),
});

describe('unwrap', () => {
  it('gives the data of a success, from a result or from its promise', async () => {
    const ok = { data: { id: 1 }, response: jsonResponse({ id: 1 }) };
    expect(unwrap(ok)).toEqual({ id: 1 });
    await expect(unwrap(Promise.resolve(ok))).resolves.toEqual({ id: 1 });
  });

  it('gives undefined for a success without a body (204)', () => {
    expect(unwrap({ data: undefined, response: new Response(null, { status: 204 }) })).toBeUndefined();
  });

  it('throws the error body as a DocintelApiError with status, code, message, details and ids', () => {
    const body = { ...errorBody(500, 'INTERNAL', 'Internal server error (error id e-1)'), errorId: 'e-1' };
    const thrown = (() => {
      try {
        return unwrap(failed(500, body));
      } catch (e) {
        return e;
      }
    })();
    expect(thrown).toBeInstanceOf(DocintelApiError);
    expect(thrown).toBeInstanceOf(Error);
    expect(thrown).toMatchObject({
      name: 'DocintelApiError',
      status: 500,
      code: 'INTERNAL',
      message: 'Internal server error (error id e-1)',
      details: [],
      requestId: 'req-500',
      errorId: 'e-1',
      body,
    });
  });

  it('rejects the promise of a failed result', async () => {
    await expect(unwrap(Promise.resolve(failed(404, errorBody(404, 'NOT_FOUND', 'No file f1'))))).rejects.toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
      message: 'No file f1',
    });
  });

  it('fails on a non-2xx status even without an error body (openapi-fetch gives error undefined then)', () => {
    expect(() => unwrap(failed(404, undefined, { 'x-request-id': 'hdr-1' }))).toThrow(
      expect.objectContaining({ status: 404, code: 'UNKNOWN', message: 'HTTP 404 Not Found', requestId: 'hdr-1', details: [] }),
    );
  });
});

describe('DocintelApiError.from', () => {
  it('keeps a body of another shape (a proxy page, an object store XML) as text in the message, code UNKNOWN', () => {
    const err = DocintelApiError.from(new Response(null, { status: 502, statusText: 'Bad Gateway' }), '<html>upstream down</html>');
    expect(err).toMatchObject({
      status: 502,
      code: 'UNKNOWN',
      message: 'HTTP 502 Bad Gateway: <html>upstream down</html>',
      body: '<html>upstream down</html>',
    });
  });

  it('drops malformed detail entries and takes the request id from the header when the body has none', () => {
    const err = DocintelApiError.from(new Response(null, { status: 400, headers: { 'x-request-id': 'hdr-2' } }), {
      code: 'VALIDATION_FAILED',
      message: 'bad',
      details: [{ field: 'key', problem: 'must not end with /' }, 'junk', { field: 1 }],
    });
    expect(err).toMatchObject({
      code: 'VALIDATION_FAILED',
      requestId: 'hdr-2',
      details: [{ field: 'key', problem: 'must not end with /' }],
    });
  });

  it('reads an unread response body (JSON or text)', async () => {
    await expect(DocintelApiError.fromResponse(jsonResponse(errorBody(403, 'FORBIDDEN', 'Not a member'), 403))).resolves.toMatchObject({
      status: 403,
      code: 'FORBIDDEN',
    });
    await expect(DocintelApiError.fromResponse(new Response('AccessDenied', { status: 403 }))).resolves.toMatchObject({
      code: 'UNKNOWN',
      message: 'HTTP 403: AccessDenied',
    });
  });
});
