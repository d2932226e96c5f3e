/**
 * Checking a rule's filter as it is typed: JSON syntax (with the line and column of the mistake,
 * the same in every browser, since engines word and place JSON.parse errors differently), then the
 * trigger's filter JSON Schema from the API with Ajv, each problem named by its field as the
 * server names it in a 400 (`filter.mime_types[0]`) and placed at its line and column.
 *
 * Pure (no React, no DOM): unit-tested in filter-validation.spec.ts. The server validates again on
 * PUT (and checks what a schema cannot say: min_file_size above max_file_size, RE2 patterns).
 */
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';

export interface Position {
  /** Index in the text (UTF-16 code units). */
  offset: number;
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
}

export interface JsonSyntaxError extends Position {
  message: string;
}

export type ParsedJson =
  | {
      ok: true;
      value: unknown;
      /** Where each value starts, by JSON Pointer (`''` is the whole document, `/mime_types/0`); for an object member, where its key starts. */
      locations: Map<string, Position>;
    }
  | { ok: false; error: JsonSyntaxError };

/** The line and column of an offset in a text. */
export function positionAt(text: string, offset: number): Position {
  const at = Math.max(0, Math.min(offset, text.length));
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < at; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { offset: at, line, column: at - lineStart + 1 };
}

class SyntaxProblem extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

const escapePointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/** A character as a person reads it in a message. */
function describeChar(ch: string | undefined): string {
  if (ch === undefined) return 'the end of the text';
  if (ch === '\n') return 'a line break';
  if (ch === '\t') return 'a tab';
  const code = ch.charCodeAt(0);
  if (code < 0x20 || code === 0x7f) return `the control character U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  if (ch === "'") return "' (JSON strings and keys take double quotes)";
  return `'${ch}'`;
}

/**
 * A recursive-descent reader of JSON (RFC 8259) that only locates: it records where each value
 * is and stops at the first mistake with its position. The value itself comes from JSON.parse.
 */
function scan(text: string, locations: Map<string, Position>): void {
  let i = 0;
  const at = (offset: number) => positionAt(text, offset);
  const ws = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const fail = (message: string, offset = i): never => {
    throw new SyntaxProblem(message, offset);
  };
  const unexpected = (expected: string): never =>
    fail(
      i >= text.length ? `Unexpected end of the text: expected ${expected}` : `Unexpected ${describeChar(text[i])}: expected ${expected}`,
    );

  const string = () => {
    const start = i;
    i++; // the opening quote
    for (;;) {
      if (i >= text.length) fail('Unterminated string: a closing " is missing', start);
      const ch = text[i];
      if (ch === '"') {
        i++;
        return;
      }
      const code = ch.charCodeAt(0);
      if (code < 0x20) fail(`A string cannot hold ${describeChar(ch)}: write it as an escape (\\n, \\t, \\u00XX)`);
      if (ch === '\\') {
        const next = text[i + 1];
        if (next !== undefined && '"\\/bfnrt'.includes(next)) i += 2;
        else if (next === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail('Bad \\u escape: four hexadecimal digits must follow \\u');
          i += 6;
        } else fail(`Bad escape \\${next ?? ''} in a string`);
      } else i++;
    }
  };

  const number = () => {
    const start = i;
    const match = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i));
    if (!match) fail('Bad number', start);
    i += (match as RegExpExecArray)[0].length;
    // `01`, `1.`, `1e`: the number ended early and a digit or a dot follows.
    if (i < text.length && /[0-9.eE]/.test(text[i])) fail('Bad number', start);
  };

  const value = (pointer: string, where?: number) => {
    ws();
    locations.set(pointer, at(where ?? i));
    const ch = text[i];
    if (ch === '{') return object(pointer);
    if (ch === '[') return array(pointer);
    if (ch === '"') return string();
    if (ch === '-' || (ch >= '0' && ch <= '9')) return number();
    for (const literal of ['true', 'false', 'null']) {
      if (text.startsWith(literal, i)) {
        i += literal.length;
        return;
      }
    }
    unexpected('a value (an object, an array, a string, a number, true, false or null)');
  };

  const object = (pointer: string) => {
    i++; // {
    ws();
    if (text[i] === '}') {
      i++;
      return;
    }
    for (;;) {
      ws();
      if (text[i] !== '"') {
        if (text[i] === '}') fail('Expected a property name after the comma: a trailing comma is not allowed in JSON');
        unexpected('a double-quoted property name');
      }
      const keyStart = i;
      string();
      const key = JSON.parse(text.slice(keyStart, i)) as string;
      ws();
      if (text[i] !== ':') unexpected(`':' after the property name "${key}"`);
      i++;
      value(`${pointer}/${escapePointer(key)}`, keyStart);
      ws();
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text[i] === '}') {
        i++;
        return;
      }
      unexpected("',' or '}' after a property value");
    }
  };

  const array = (pointer: string) => {
    i++; // [
    ws();
    if (text[i] === ']') {
      i++;
      return;
    }
    for (let index = 0; ; index++) {
      ws();
      if (text[i] === ']' && index > 0) fail('Expected a value after the comma: a trailing comma is not allowed in JSON');
      value(`${pointer}/${index}`);
      ws();
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text[i] === ']') {
        i++;
        return;
      }
      unexpected("',' or ']' after an array item");
    }
  };

  value('');
  ws();
  if (i < text.length) fail(`Unexpected ${describeChar(text[i])} after the end of the JSON value`);
}

/** Parses JSON text, or says where and why it is not JSON. */
export function parseJson(text: string): ParsedJson {
  const locations = new Map<string, Position>();
  try {
    scan(text, locations);
  } catch (err) {
    if (err instanceof SyntaxProblem) return { ok: false, error: { message: err.message, ...positionAt(text, err.offset) } };
    throw err;
  }
  // The scanner accepted it, so JSON.parse does too; it builds the value (own `__proto__` keys and all).
  return { ok: true, value: JSON.parse(text) as unknown, locations };
}

/** `/mime_types/0` -> `filter.mime_types[0]`: a field as the server's 400 names it. */
export function fieldOf(pointer: string, root = 'filter'): string {
  return (
    root +
    pointer
      .split('/')
      .slice(1)
      .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
      .map((s) => (/^\d+$/.test(s) ? `[${s}]` : /^[A-Za-z_$][\w$]*$/.test(s) ? `.${s}` : `[${JSON.stringify(s)}]`))
      .join('')
  );
}

export interface FilterProblem {
  kind: 'syntax' | 'schema' | 'size';
  /** `filter`, `filter.mime_types[0]`… */
  field: string;
  message: string;
  line?: number;
  column?: number;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const article = (type: string) => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`);

/** The first character of a string that is not printable (a control character, an unpaired surrogate). */
function oddCharacter(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  for (const ch of value) {
    const cp = ch.codePointAt(0) as number;
    if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0) || (cp >= 0xd800 && cp <= 0xdfff))
      return `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  }
  return null;
}

/** One Ajv error as a sentence about its field (Ajv's own wording for keywords not listed here). */
function describeAjvError(e: ErrorObject): { pointer: string; message: string } {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'additionalProperties': {
      const key = String(p.additionalProperty);
      const props = (e.parentSchema as { properties?: Record<string, unknown> } | undefined)?.properties;
      const allowed = props ? Object.keys(props) : [];
      return {
        pointer: `${e.instancePath}/${escapePointer(key)}`,
        message: `is not a key this filter accepts${allowed.length ? ` (allowed: ${allowed.join(', ')})` : ''}`,
      };
    }
    case 'required':
      return { pointer: `${e.instancePath}/${escapePointer(String(p.missingProperty))}`, message: 'is required' };
    case 'type': {
      const types = String(p.type).split(',');
      return { pointer: e.instancePath, message: `must be ${types.map(article).join(' or ')}` };
    }
    case 'minimum':
      return { pointer: e.instancePath, message: `must be ${String(p.limit)} or more` };
    case 'maximum':
      return { pointer: e.instancePath, message: `must be ${String(p.limit)} or less` };
    case 'exclusiveMinimum':
      return { pointer: e.instancePath, message: `must be more than ${String(p.limit)}` };
    case 'exclusiveMaximum':
      return { pointer: e.instancePath, message: `must be less than ${String(p.limit)}` };
    case 'minLength':
      return {
        pointer: e.instancePath,
        message: p.limit === 1 ? 'must not be empty' : `must be at least ${plural(Number(p.limit), 'character')} long`,
      };
    case 'maxLength':
      return { pointer: e.instancePath, message: `must be at most ${plural(Number(p.limit), 'character')} long` };
    case 'minItems':
      return { pointer: e.instancePath, message: `must have at least ${plural(Number(p.limit), 'item')}` };
    case 'maxItems':
      return { pointer: e.instancePath, message: `must have at most ${plural(Number(p.limit), 'item')}` };
    case 'uniqueItems': {
      const [first, second] = [Number(p.i), Number(p.j)].sort((a, b) => a - b);
      return { pointer: e.instancePath, message: `must not repeat a value (items ${first} and ${second} are the same)` };
    }
    case 'enum':
      return {
        pointer: e.instancePath,
        message: `must be one of ${((p.allowedValues as unknown[]) ?? []).map((v) => JSON.stringify(v)).join(', ')}`,
      };
    case 'const':
      return { pointer: e.instancePath, message: `must be ${JSON.stringify(p.allowedValue)}` };
    case 'pattern': {
      const odd = oddCharacter(e.data);
      return {
        pointer: e.instancePath,
        message: odd
          ? `must not contain the character ${odd} (it does not match the pattern ${String(p.pattern)})`
          : `must match the pattern ${String(p.pattern)}`,
      };
    }
    default:
      return { pointer: e.instancePath, message: e.message ?? `is invalid (${e.keyword})` };
  }
}

/**
 * Ajv's errors as problems, each with its field (as the server names it) and, when the parsed
 * text says where, its line and column; sorted by where they are.
 */
export function formatAjvErrors(errors: readonly ErrorObject[], locations: Map<string, Position> = new Map()): FilterProblem[] {
  const seen = new Set<string>();
  const problems: FilterProblem[] = [];
  for (const e of errors) {
    const { pointer, message } = describeAjvError(e);
    const field = fieldOf(pointer);
    if (seen.has(`${field}\0${message}`)) continue;
    seen.add(`${field}\0${message}`);
    // The value's own place, or its nearest parent's (a missing key is reported where its object starts).
    let where: Position | undefined;
    for (let p = pointer; where === undefined; p = p.slice(0, Math.max(0, p.lastIndexOf('/')))) {
      where = locations.get(p);
      if (p === '') break;
    }
    problems.push({ kind: 'schema', field, message, ...(where ? { line: where.line, column: where.column } : {}) });
  }
  return problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
}

export interface FilterSchemaValidator {
  validate: ValidateFunction | null;
  /** Why the schema could not be compiled (the filter is then only checked as JSON, and by the server). */
  compileError: string | null;
  /** The size limit of the filter as JSON, when the schema states one (`$comment`: "at most N bytes"). */
  maxBytes: number | null;
}

/**
 * Compiles a trigger's filter schema as the API serves it. `strict: false` lets keywords Ajv does
 * not know ($comment is known; an annotation like `examples` or a vendor keyword is not) pass;
 * formats are not checked (ajv-formats is not part of the console, and the server checks anyway);
 * a `$schema` Ajv has no meta-schema for is dropped rather than failing the compile.
 */
export function compileFilterSchema(schema: Record<string, unknown>): FilterSchemaValidator {
  const comment = typeof schema.$comment === 'string' ? /at most (\d+) bytes/.exec(schema.$comment) : null;
  const maxBytes = comment ? Number(comment[1]) : null;
  try {
    // One instance per schema: the schema's $id may be compiled again after a reload.
    const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false, verbose: true, logger: false });
    const { $schema, ...rest } = schema;
    const known = typeof $schema === 'string' && !!ajv.getSchema($schema.replace(/#?$/, '#'));
    return { validate: ajv.compile(known ? schema : rest), compileError: null, maxBytes };
  } catch (err) {
    return { validate: null, compileError: err instanceof Error ? err.message : String(err), maxBytes };
  }
}

export type FilterCheck = { ok: true; filter: Record<string, unknown>; problems: [] } | { ok: false; problems: FilterProblem[] };

/** Every problem with a filter's text: syntax first (then nothing else), else shape, schema and size. */
export function checkFilter(text: string, validator: FilterSchemaValidator | null): FilterCheck {
  if (!text.trim()) {
    return {
      ok: false,
      problems: [
        {
          kind: 'syntax',
          field: 'filter',
          message: 'The filter is empty: write a JSON object ({} matches everything)',
          line: 1,
          column: 1,
        },
      ],
    };
  }
  const parsed = parseJson(text);
  if (!parsed.ok) {
    const { message, line, column } = parsed.error;
    return { ok: false, problems: [{ kind: 'syntax', field: 'filter', message, line, column }] };
  }
  const value = parsed.value;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return {
      ok: false,
      problems: [{ kind: 'schema', field: 'filter', message: 'must be a JSON object ({} matches everything)', line: 1, column: 1 }],
    };
  }
  const problems: FilterProblem[] = [];
  if (validator?.validate && !validator.validate(value))
    problems.push(...formatAjvErrors(validator.validate.errors ?? [], parsed.locations));
  if (validator?.maxBytes) {
    const bytes = new TextEncoder().encode(JSON.stringify(value)).length;
    if (bytes > validator.maxBytes) {
      problems.push({ kind: 'size', field: 'filter', message: `is ${bytes} bytes as JSON; the limit is ${validator.maxBytes} bytes` });
    }
  }
  return problems.length ? { ok: false, problems } : { ok: true, filter: value as Record<string, unknown>, problems: [] };
}

/** A problem as one line: `filter.mime_types[0] (line 2, column 5): must be a string`. */
export function describeProblem(p: FilterProblem): string {
  const where = p.line !== undefined ? ` (line ${p.line}, column ${p.column})` : '';
  return p.kind === 'syntax' ? `JSON syntax${where}: ${p.message}` : `${p.field}${where}: ${p.message}`;
}

/** A filter as the editor shows it. */
export const formatFilter = (filter: unknown): string => JSON.stringify(filter ?? {}, null, 2);
