import { ErrorCode } from '@docintel/contracts';
import { codeOfStatus, HTTP_STATUS_OF } from './http-status';

describe('error code to HTTP status', () => {
  it.each([
    [ErrorCode.VALIDATION_FAILED, 400],
    [ErrorCode.UNAUTHENTICATED, 401],
    [ErrorCode.FORBIDDEN, 403],
    [ErrorCode.NOT_FOUND, 404],
    [ErrorCode.CONFLICT, 409],
    [ErrorCode.PAYLOAD_TOO_LARGE, 413],
    [ErrorCode.UNSUPPORTED_MEDIA_TYPE, 415],
    [ErrorCode.RANGE_NOT_SATISFIABLE, 416],
    [ErrorCode.INTERNAL, 500],
    [ErrorCode.SERVICE_UNAVAILABLE, 503],
    [ErrorCode.TIMEOUT, 504],
  ])('%s -> %i', (code, status) => {
    expect(HTTP_STATUS_OF[code]).toBe(status);
  });

  it('maps every error code', () => {
    for (const code of Object.values(ErrorCode)) expect(HTTP_STATUS_OF[code]).toEqual(expect.any(Number));
  });

  it('maps each status back to its code', () => {
    for (const code of Object.values(ErrorCode)) expect(codeOfStatus(HTTP_STATUS_OF[code])).toBe(code);
  });

  it.each([
    [405, ErrorCode.NOT_FOUND],
    [406, ErrorCode.VALIDATION_FAILED],
    [422, ErrorCode.VALIDATION_FAILED],
    [429, ErrorCode.TOO_MANY_REQUESTS],
    [501, ErrorCode.INTERNAL],
    [502, ErrorCode.INTERNAL],
  ])('treats HTTP-layer status %i as %s', (status, code) => {
    expect(codeOfStatus(status)).toBe(code);
  });
});
