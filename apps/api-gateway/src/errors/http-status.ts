import { ErrorCode } from '@docintel/contracts';

/** The one place where a domain error code becomes an HTTP status. */
export const HTTP_STATUS_OF: Record<ErrorCode, number> = {
  [ErrorCode.VALIDATION_FAILED]: 400,
  [ErrorCode.UNAUTHENTICATED]: 401,
  [ErrorCode.FORBIDDEN]: 403,
  [ErrorCode.NOT_FOUND]: 404,
  [ErrorCode.CONFLICT]: 409,
  [ErrorCode.TOO_MANY_REQUESTS]: 429,
  [ErrorCode.PAYLOAD_TOO_LARGE]: 413,
  [ErrorCode.UNSUPPORTED_MEDIA_TYPE]: 415,
  [ErrorCode.RANGE_NOT_SATISFIABLE]: 416,
  [ErrorCode.INTERNAL]: 500,
  [ErrorCode.SERVICE_UNAVAILABLE]: 503,
  [ErrorCode.TIMEOUT]: 504,
};

/**
 * Retry-After (seconds) by status, when the error does not say better itself. A service restarted
 * by its supervisor answers again within a few seconds (a back-off of 1 s, then its start-up);
 * PostgreSQL restarting takes about as long.
 */
export const RETRY_AFTER_SECONDS: Partial<Record<number, number>> = { 503: 5 };

/** The reverse, for errors raised by the HTTP layer itself (unknown route, bad JSON, body too large). */
export function codeOfStatus(status: number): ErrorCode {
  switch (status) {
    case 400:
      return ErrorCode.VALIDATION_FAILED;
    case 401:
      return ErrorCode.UNAUTHENTICATED;
    case 403:
      return ErrorCode.FORBIDDEN;
    case 404:
    case 405:
      return ErrorCode.NOT_FOUND;
    case 409:
      return ErrorCode.CONFLICT;
    case 429:
      return ErrorCode.TOO_MANY_REQUESTS;
    case 413:
      return ErrorCode.PAYLOAD_TOO_LARGE;
    case 415:
      return ErrorCode.UNSUPPORTED_MEDIA_TYPE;
    case 416:
      return ErrorCode.RANGE_NOT_SATISFIABLE;
    case 503:
      return ErrorCode.SERVICE_UNAVAILABLE;
    case 504:
      return ErrorCode.TIMEOUT;
    default:
      return status >= 500 ? ErrorCode.INTERNAL : ErrorCode.VALIDATION_FAILED;
  }
}
