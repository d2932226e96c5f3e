import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import type { ErrorDetail, RuleFilter, TriggerId } from '@docintel/contracts';
import { compileContentPattern } from './content-patterns';
import { FILTER_LIMITS } from './filter-limits';
import { TRIGGERS } from './triggers';

const ajv = new Ajv({ allErrors: true, strict: true });
const validators = new Map<TriggerId, ValidateFunction>(Object.values(TRIGGERS).map((t) => [t.trigger_id, ajv.compile(t.schema)]));

/** Most problems reported for one filter; a list of thousands of bad items says nothing more. */
export const MAX_FILTER_PROBLEMS = 20;
/** Unknown keys are named in a problem; a megabyte-long key is named by its beginning. */
const MAX_KEY_IN_FIELD = 100;

function shortKey(key: string): string {
  return key.length > MAX_KEY_IN_FIELD ? `${key.slice(0, MAX_KEY_IN_FIELD)}...` : key;
}

function fieldOf(e: ErrorObject): string {
  const path = e.instancePath
    .split('/')
    .filter(Boolean)
    .map((p) => (/^\d+$/.test(p) ? `[${p}]` : `.${p}`))
    .join('');
  const base = `filter${path}`;
  if (e.keyword === 'additionalProperties') return `${base}.${shortKey((e.params as { additionalProperty: string }).additionalProperty)}`;
  return base;
}

/** The value an Ajv error is about (instancePath is a JSON pointer into the filter). */
function valueAt(filter: unknown, pointer: string): unknown {
  let v = filter;
  for (const part of pointer.split('/').filter(Boolean)) v = (v as Record<string, unknown> | undefined)?.[part];
  return v;
}

/** Names the first character a filter string may not hold (see FILTER_STRING_PATTERN). */
function forbiddenCharacter(value: unknown): string {
  if (typeof value !== 'string') return 'a forbidden character';
  for (const ch of value) {
    const cp = ch.codePointAt(0) as number;
    if (cp >= 0xd800 && cp <= 0xdfff) return `an unpaired surrogate (U+${cp.toString(16).toUpperCase()})`;
    if ((cp < 0x20 && ch !== '\t' && ch !== '\n' && ch !== '\r') || cp === 0x7f) {
      const code = `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
      return cp === 0 ? `the NUL character (${code})` : `the control character ${code}`;
    }
  }
  return 'a forbidden character';
}

function problemOf(e: ErrorObject, triggerId: TriggerId, filter: unknown): string {
  switch (e.keyword) {
    case 'additionalProperties':
      return `is not a filter key of ${triggerId}; allowed: ${Object.keys((TRIGGERS[triggerId].schema.properties as object) ?? {}).join(', ')}`;
    case 'type':
      return `must be ${(e.params as { type: string }).type === 'array' ? 'an array' : `of type ${(e.params as { type: string }).type}`}`;
    case 'minimum':
      return `must be ${(e.params as { limit: number }).limit} or greater`;
    case 'minLength':
      return 'must not be empty';
    case 'maxLength':
      return `must be at most ${(e.params as { limit: number }).limit} characters long`;
    case 'maxItems':
      return `must have at most ${(e.params as { limit: number }).limit} items`;
    case 'pattern':
      return `must not contain ${forbiddenCharacter(valueAt(filter, e.instancePath))} (control characters other than tab, line feed and carriage return, and unpaired surrogates, are not allowed)`;
    case 'uniqueItems':
      return 'must not repeat a value';
    default:
      return e.message ?? 'is invalid';
  }
}

/** Bytes of the filter as JSON (as stored and as sent in every reply). */
export function filterBytes(filter: unknown): number {
  return Buffer.byteLength(JSON.stringify(filter) ?? '', 'utf8');
}

function contentPatternProblems(patterns: unknown[]): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  let programSize = 0;
  patterns.forEach((p, i) => {
    if (typeof p !== 'string' || !p.length || p.length > FILTER_LIMITS.maxStringLength) return; // the schema names these
    const compiled = compileContentPattern(p);
    if (compiled.ok) programSize += compiled.programSize;
    else problems.push({ field: `filter.content_patterns[${i}]`, problem: compiled.problem });
  });
  if (programSize > FILTER_LIMITS.maxFilterProgramSize) {
    problems.push({
      field: 'filter.content_patterns',
      problem: `compile to ${programSize} RE2 instructions together, the limit is ${FILTER_LIMITS.maxFilterProgramSize}; use fewer or simpler patterns`,
    });
  }
  return problems;
}

/**
 * Every problem with a filter for a trigger, each naming its field: unknown keys, wrong types,
 * values beyond the limits (FILTER_LIMITS), forbidden characters, min_file_size above
 * max_file_size, and regular expressions that RE2 does not compile. At most MAX_FILTER_PROBLEMS
 * are listed, the last one saying how many more there were.
 */
export function filterProblems(triggerId: TriggerId, filter: unknown): ErrorDetail[] {
  if (filter === null || typeof filter !== 'object' || Array.isArray(filter)) {
    return [{ field: 'filter', problem: 'must be an object' }];
  }
  const validate = validators.get(triggerId) as ValidateFunction;
  const problems: ErrorDetail[] = [];
  if (!validate(filter)) {
    for (const e of validate.errors ?? []) problems.push({ field: fieldOf(e), problem: problemOf(e, triggerId, filter) });
  }
  const bytes = filterBytes(filter);
  if (bytes > FILTER_LIMITS.maxFilterBytes) {
    problems.push({ field: 'filter', problem: `is ${bytes} bytes as JSON, the limit is ${FILTER_LIMITS.maxFilterBytes} bytes` });
  }
  const f = filter as RuleFilter;
  if (typeof f.min_file_size === 'number' && typeof f.max_file_size === 'number' && f.min_file_size > f.max_file_size) {
    problems.push({ field: 'filter.min_file_size', problem: `must not be above max_file_size (${f.max_file_size})` });
  }
  if (Array.isArray(f.content_patterns) && f.content_patterns.length <= FILTER_LIMITS.maxItems) {
    problems.push(...contentPatternProblems(f.content_patterns));
  }
  if (problems.length > MAX_FILTER_PROBLEMS) {
    const more = problems.length - (MAX_FILTER_PROBLEMS - 1);
    return [...problems.slice(0, MAX_FILTER_PROBLEMS - 1), { field: 'filter', problem: `has ${more} more problems not listed here` }];
  }
  return problems;
}
