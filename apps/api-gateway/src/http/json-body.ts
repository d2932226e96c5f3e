import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DomainError, ErrorCode, MAX_JSON_DEPTH, TOO_DEEP_PROBLEM, type ErrorDetail } from '@docintel/contracts';

/** `application/json` and the structured `+json` types (`application/merge-patch+json`, ...), with any parameters. */
const STRUCTURED_JSON = /^application\/[^\s;/]+\+json(\s*;|$)/i;

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Whether JSON text nests objects and arrays more than `max` levels deep, read in one pass without
 * recursion (brackets inside strings do not count). Malformed text is left for the JSON parser to refuse.
 */
export function jsonNestingExceeds(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > max) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}

/** Only JSON whitespace: what an empty body sent with a JSON content type looks like. */
function isBlank(body: Buffer): boolean {
  for (const byte of body) if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d) return false;
  return true;
}

type JsonParse = (req: unknown, body: string, done: (err: Error | null, value?: unknown) => void) => void;

/** A UTF-16 surrogate without its other half: JSON's `"\ud800"` escape can write one, no Unicode text holds one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function surrogateProblem(text: string): string | undefined {
  const m = LONE_SURROGATE.exec(text);
  return m
    ? `must be valid Unicode text: it holds a lone surrogate (\\u${m[0].charCodeAt(0).toString(16)}) at character ${m.index + 1}`
    : undefined;
}

/**
 * The first string or property name of a parsed body, in document order, that holds a lone
 * surrogate, named as the other validation errors name fields (`messages[0].content`, `(body)`
 * for the body itself). PostgreSQL refuses such text in text and jsonb columns; refused here,
 * every route answers 400 instead of a 500 from whichever column it reaches. Iterative: the
 * nesting is bounded, but nothing here needs the stack.
 */
export function loneSurrogateProblem(value: unknown): ErrorDetail | undefined {
  const stack: Array<{ value: unknown; path: string; key?: string }> = [{ value, path: '' }];
  while (stack.length) {
    const { value: v, path, key } = stack.pop() as { value: unknown; path: string; key?: string };
    const badKey = key === undefined ? undefined : surrogateProblem(key);
    if (badKey) return { field: path, problem: `property name ${badKey}` };
    if (typeof v === 'string') {
      const problem = surrogateProblem(v);
      if (problem) return { field: path || '(body)', problem };
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], path: `${path}[${i}]` });
    } else if (v !== null && typeof v === 'object') {
      const keys = Object.keys(v);
      // Pushed in reverse so that the first in document order is reported.
      for (let i = keys.length - 1; i >= 0; i--) {
        const k = keys[i];
        const child = IDENTIFIER.test(k) ? (path ? `${path}.${k}` : k) : `${path}[${JSON.stringify(k)}]`;
        stack.push({ value: (v as Record<string, unknown>)[k], path: child, key: k });
      }
    }
  }
  return undefined;
}

/**
 * The body of a JSON request: undefined when empty (the reference client sends
 * `Content-Type: application/json` with no body on reindex, recompute and deletes), a 400 naming
 * the body when it nests deeper than MAX_JSON_DEPTH (checked on the text, before anything
 * recursive sees it), a 400 naming the first field that holds a lone surrogate, else the value as
 * fastify's own parser reads it (prototype poisoning refused).
 */
export function parseJsonBody(body: Buffer, parse: JsonParse, done: (err: Error | null, value?: unknown) => void): void {
  if (isBlank(body)) {
    done(null, undefined);
    return;
  }
  const text = body.toString('utf8');
  if (jsonNestingExceeds(text)) {
    done(DomainError.invalid([{ field: '(body)', problem: TOO_DEEP_PROBLEM }]));
    return;
  }
  parse(undefined, text, (err, value) => {
    if (err) return done(err);
    const surrogate = loneSurrogateProblem(value);
    return surrogate ? done(DomainError.invalid([surrogate])) : done(null, value);
  });
}

/**
 * The request bodies the gateway reads: JSON only (multipart uploads register their own parser).
 * fastify's text/plain parser and Nest's form-urlencoded parser are removed, so any other body
 * gets 415 from fastify instead of reaching a JSON route as a string or a form.
 */
export function installJsonBodyParser(app: NestFastifyApplication, bodyLimit: number): void {
  const fastify = app.getHttpAdapter().getInstance();
  fastify.removeAllContentTypeParsers();
  const parse = fastify.getDefaultJsonParser('error', 'error') as unknown as JsonParse;
  // Through Nest, so that it does not add its own JSON and urlencoded parsers when it starts.
  for (const type of ['application/json', STRUCTURED_JSON]) {
    app.useBodyParser(type, { bodyLimit }, (_req, body, done) => parseJsonBody(body, parse, done));
  }
}

/** The 415 of a body whose type no route reads, in the words of the API. */
export function unsupportedMediaType(contentType: string | undefined): DomainError {
  if (contentType && contentType.length > 100) contentType = `${contentType.slice(0, 100)}...`;
  return new DomainError(
    ErrorCode.UNSUPPORTED_MEDIA_TYPE,
    contentType
      ? `Content-Type ${contentType} is not supported: send JSON (application/json), or multipart/form-data to upload a file`
      : 'A request body needs a Content-Type: send JSON (application/json), or multipart/form-data to upload a file',
  );
}
