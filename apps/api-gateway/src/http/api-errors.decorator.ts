import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { ErrorBodyDto } from '@docintel/contracts';

const DESCRIPTIONS: Record<number, string> = {
  400: 'Bad request: a parameter or field is invalid (details name each one)',
  401: 'Unauthorized: missing, malformed, unknown, revoked or expired token',
  403: 'Forbidden: not allowed in this namespace',
  404: 'Not found',
  409: 'Conflict',
  413: 'Payload too large',
  415: 'Unsupported media type: a request body must be JSON (multipart/form-data for uploads)',
};

/** Documents error responses with the one error body shape. */
export const ApiErrors = (...statuses: number[]) =>
  applyDecorators(...statuses.map((status) => ApiResponse({ status, description: DESCRIPTIONS[status], type: ErrorBodyDto })));
