/** Why a document could not be parsed; the message is written for the person who uploaded it. */
export type ParseErrorCode =
  'EMPTY' | 'ENCRYPTED' | 'CORRUPT' | 'TRUNCATED' | 'UNSUPPORTED_FORMAT' | 'LIMIT_EXCEEDED' | 'TIMEOUT' | 'OUT_OF_MEMORY' | 'INTERNAL';

export class ParseError extends Error {
  override readonly name = 'ParseError';

  constructor(
    readonly code: ParseErrorCode,
    message: string,
  ) {
    super(message);
  }

  /** Plain form that survives structured clone across worker threads. */
  toJSON(): { code: ParseErrorCode; message: string } {
    return { code: this.code, message: this.message };
  }

  static isParseError(e: unknown): e is ParseError {
    return e instanceof ParseError || (typeof e === 'object' && e !== null && (e as { name?: unknown }).name === 'ParseError');
  }
}

export const encrypted = (what: string): ParseError =>
  new ParseError('ENCRYPTED', `The ${what} is password-protected; remove the password and upload it again.`);

export const corrupt = (detail: string): ParseError => new ParseError('CORRUPT', `The file is truncated or corrupt: ${detail}`);

export const truncated = (detail: string): ParseError => new ParseError('TRUNCATED', `The file is truncated or corrupt: ${detail}`);

/** Wraps an unexpected library error into a ParseError, keeping ParseErrors as they are. */
export function asParseError(e: unknown, what: string): ParseError {
  if (ParseError.isParseError(e)) return e as ParseError;
  const detail = e instanceof Error ? e.message : String(e);
  if (/password|encrypt/i.test(detail)) return encrypted(what);
  if (e instanceof RangeError && /call stack/i.test(detail)) {
    return new ParseError('LIMIT_EXCEEDED', `The ${what} is nested too deeply to be read.`);
  }
  return corrupt(`the ${what} could not be read (${firstLine(detail)}).`);
}

function firstLine(s: string): string {
  const line = s.split('\n')[0].trim();
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

export const limitExceeded = (message: string): ParseError => new ParseError('LIMIT_EXCEEDED', message);

export const tooManyNodes = (max: number): ParseError =>
  limitExceeded(`The document has more than ${max} elements, which is over the limit.`);
