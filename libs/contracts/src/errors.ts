import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** A field-level problem, as it appears in the `details` array of every error body. */
export interface ErrorDetail {
  field: string;
  problem: string;
}

/**
 * Machine-readable error codes. Services raise DomainError with one of these; the gateway maps
 * the code to an HTTP status in exactly one place (apps/api-gateway/src/errors).
 */
export enum ErrorCode {
  VALIDATION_FAILED = 'VALIDATION_FAILED',
  UNAUTHENTICATED = 'UNAUTHENTICATED',
  FORBIDDEN = 'FORBIDDEN',
  NOT_FOUND = 'NOT_FOUND',
  CONFLICT = 'CONFLICT',
  /** A limit of the caller's namespace is reached (queued and running jobs); retry after retryAfterSeconds. */
  TOO_MANY_REQUESTS = 'TOO_MANY_REQUESTS',
  PAYLOAD_TOO_LARGE = 'PAYLOAD_TOO_LARGE',
  UNSUPPORTED_MEDIA_TYPE = 'UNSUPPORTED_MEDIA_TYPE',
  RANGE_NOT_SATISFIABLE = 'RANGE_NOT_SATISFIABLE',
  SERVICE_UNAVAILABLE = 'SERVICE_UNAVAILABLE',
  TIMEOUT = 'TIMEOUT',
  INTERNAL = 'INTERNAL',
}

/** The serialisable form of a DomainError, as it travels over NATS. */
export interface ErrorPayload {
  code: ErrorCode;
  message: string;
  details?: ErrorDetail[];
  /** When the request may succeed if sent again (the gateway's Retry-After). */
  retryAfterSeconds?: number;
}

/** The JSON body of every HTTP error response. */
export interface ErrorBody {
  status: number;
  error: string;
  code: ErrorCode;
  message: string;
  details: ErrorDetail[];
  requestId: string;
  errorId?: string;
}

/** An expected failure of a use case, raised by services and carried to the client intact. */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: ErrorDetail[] = [],
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'DomainError';
  }

  static notFound(what: string, id: string): DomainError {
    return new DomainError(ErrorCode.NOT_FOUND, `${what} ${id} was not found`);
  }

  static forbidden(message: string): DomainError {
    return new DomainError(ErrorCode.FORBIDDEN, message);
  }

  static invalid(details: ErrorDetail[], message = 'The request is invalid'): DomainError {
    return new DomainError(ErrorCode.VALIDATION_FAILED, message, details);
  }

  static conflict(message: string): DomainError {
    return new DomainError(ErrorCode.CONFLICT, message);
  }

  toPayload(): ErrorPayload {
    return {
      code: this.code,
      message: this.message,
      details: this.details,
      ...(this.retryAfterSeconds !== undefined ? { retryAfterSeconds: this.retryAfterSeconds } : {}),
    };
  }

  static fromPayload(p: ErrorPayload): DomainError {
    return new DomainError(p.code, p.message, p.details ?? [], typeof p.retryAfterSeconds === 'number' ? p.retryAfterSeconds : undefined);
  }
}

export class ErrorDetailDto implements ErrorDetail {
  @ApiProperty({ example: 'pageSize' })
  field: string;

  @ApiProperty({ example: 'must be between 1 and 1000' })
  problem: string;
}

/** The documented shape of every error response. */
export class ErrorBodyDto implements ErrorBody {
  @ApiProperty({ example: 400 })
  status: number;

  @ApiProperty({ example: 'Bad Request' })
  error: string;

  @ApiProperty({ enum: ErrorCode, example: ErrorCode.VALIDATION_FAILED })
  code: ErrorCode;

  @ApiProperty({ example: 'The request is invalid' })
  message: string;

  @ApiProperty({ type: [ErrorDetailDto] })
  details: ErrorDetail[];

  @ApiProperty({ example: 'c0a8012e-6f1b-4c5e-9a47-2d1f8f0b7a11' })
  requestId: string;

  @ApiPropertyOptional({ description: 'Present on 500 responses; the same id is in the server log' })
  errorId?: string;
}
