import type { ErrorCode, ErrorDetail } from './types';

/**
 * A response that was not a success. The gateway answers every error with one JSON shape
 * (`{ status, error, code, message, details, requestId, errorId? }`); a body of another shape (a
 * proxy's HTML page, an object store's XML) gives code UNKNOWN and its text as the message.
 */
export class DocintelApiError extends Error {
  override readonly name = 'DocintelApiError';
  readonly status: number;
  readonly code: ErrorCode | 'UNKNOWN';
  readonly details: ErrorDetail[];
  readonly requestId?: string;
  /** Present on 500 responses; the same id is in the server's log line. */
  readonly errorId?: string;
  /** The body as received (parsed JSON, text, or undefined when there was none). */
  readonly body: unknown;

  constructor(init: {
    status: number;
    code: ErrorCode | 'UNKNOWN';
    message: string;
    details?: ErrorDetail[];
    requestId?: string;
    errorId?: string;
    body?: unknown;
  }) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.details = init.details ?? [];
    this.requestId = init.requestId;
    this.errorId = init.errorId;
    this.body = init.body;
  }

  /** From a response that is not ok and its body (already parsed, as openapi-fetch gives it, or text). */
  static from(response: Response, body: unknown): DocintelApiError {
    const requestId = response.headers.get('x-request-id') ?? undefined;
    if (isErrorBody(body)) {
      return new DocintelApiError({
        status: response.status,
        code: body.code as ErrorCode,
        message: body.message,
        details: Array.isArray(body.details) ? body.details.filter(isErrorDetail) : [],
        requestId: typeof body.requestId === 'string' ? body.requestId : requestId,
        errorId: typeof body.errorId === 'string' ? body.errorId : undefined,
        body,
      });
    }
    const text = typeof body === 'string' ? body.trim() : '';
    const what = `${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
    return new DocintelApiError({
      status: response.status,
      code: 'UNKNOWN',
      message: text ? `HTTP ${what}: ${text.slice(0, 500)}` : `HTTP ${what}`,
      requestId,
      body,
    });
  }

  /** From a response whose body has not been read yet. */
  static async fromResponse(response: Response): Promise<DocintelApiError> {
    let body: unknown;
    try {
      const text = await response.text();
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = text;
      }
    } catch {
      body = undefined;
    }
    return DocintelApiError.from(response, body);
  }
}

interface ErrorBodyLike {
  code: string;
  message: string;
  details?: unknown;
  requestId?: unknown;
  errorId?: unknown;
}

function isErrorBody(body: unknown): body is ErrorBodyLike {
  return (
    typeof body === 'object' &&
    body !== null &&
    typeof (body as ErrorBodyLike).code === 'string' &&
    typeof (body as ErrorBodyLike).message === 'string'
  );
}

function isErrorDetail(detail: unknown): detail is ErrorDetail {
  return (
    typeof detail === 'object' &&
    detail !== null &&
    typeof (detail as ErrorDetail).field === 'string' &&
    typeof (detail as ErrorDetail).problem === 'string'
  );
}

/** What an openapi-fetch call resolves to. */
export interface ApiResult {
  data?: unknown;
  error?: unknown;
  response: Response;
}

/** The data of a successful result; `undefined` for operations without a body (204). */
export type ApiData<R extends ApiResult> = [Exclude<R['data'], undefined>] extends [never] ? undefined : Exclude<R['data'], undefined>;

function unwrapResult<R extends ApiResult>(result: R): ApiData<R> {
  // Not `error !== undefined`: openapi-fetch gives no error for a failure without a body.
  if (!result.response.ok) throw DocintelApiError.from(result.response, result.error);
  return result.data as ApiData<R>;
}

/**
 * The data of an openapi-fetch result, or a DocintelApiError. Takes the result or its promise:
 * `const page = await unwrap(api.GET('/api/core/providers'))`.
 */
export function unwrap<R extends ApiResult>(result: R): ApiData<R>;
export function unwrap<R extends ApiResult>(result: PromiseLike<R>): Promise<ApiData<R>>;
export function unwrap<R extends ApiResult>(result: R | PromiseLike<R>): ApiData<R> | Promise<ApiData<R>> {
  if ('then' in result && typeof result.then === 'function') return Promise.resolve(result).then(unwrapResult);
  return unwrapResult(result as R);
}

/**
 * An error that a later try of the same read may not meet: the server or a proxy in front of it
 * was busy or restarting (5xx, 429, 408), or the network failed (fetch rejects with a TypeError).
 * A 4xx other than those is the request's own fault and stays the same however often it is sent.
 */
export function isTransientError(err: unknown): boolean {
  if (err instanceof DocintelApiError) return err.status >= 500 || err.status === 429 || err.status === 408;
  return err instanceof TypeError;
}
