import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import type { ErrorDetail, RuleFilter, TriggerId } from '@docintel/contracts';
import { TRIGGERS } from './triggers';

const ajv = new Ajv({ allErrors: true, strict: true });
const validators = new Map<TriggerId, ValidateFunction>(
  Object.values(TRIGGERS).map((t) => [t.trigger_id, ajv.compile(t.schema)]),
);

function fieldOf(e: ErrorObject): string {
  const path = e.instancePath
    .split('/')
    .filter(Boolean)
    .map((p) => (/^\d+$/.test(p) ? `[${p}]` : `.${p}`))
    .join('');
  const base = `filter${path}`;
  if (e.keyword === 'additionalProperties') return `${base}.${(e.params as { additionalProperty: string }).additionalProperty}`;
  return base;
}

function problemOf(e: ErrorObject, triggerId: TriggerId): string {
  switch (e.keyword) {
    case 'additionalProperties':
      return `is not a filter key of ${triggerId}; allowed: ${Object.keys((TRIGGERS[triggerId].schema.properties as object) ?? {}).join(', ')}`;
    case 'type':
      return `must be ${(e.params as { type: string }).type === 'array' ? 'an array' : `of type ${(e.params as { type: string }).type}`}`;
    case 'minimum':
      return `must be ${(e.params as { limit: number }).limit} or greater`;
    case 'minLength':
      return 'must not be empty';
    case 'uniqueItems':
      return 'must not repeat a value';
    default:
      return e.message ?? 'is invalid';
  }
}

/**
 * Every problem with a filter for a trigger, each naming its field: unknown keys, wrong types,
 * min_file_size above max_file_size, and regular expressions that do not compile.
 */
export function filterProblems(triggerId: TriggerId, filter: unknown): ErrorDetail[] {
  if (filter === null || typeof filter !== 'object' || Array.isArray(filter)) {
    return [{ field: 'filter', problem: 'must be an object' }];
  }
  const validate = validators.get(triggerId) as ValidateFunction;
  const problems: ErrorDetail[] = [];
  if (!validate(filter)) {
    for (const e of validate.errors ?? []) problems.push({ field: fieldOf(e), problem: problemOf(e, triggerId) });
  }
  const f = filter as RuleFilter;
  if (typeof f.min_file_size === 'number' && typeof f.max_file_size === 'number' && f.min_file_size > f.max_file_size) {
    problems.push({ field: 'filter.min_file_size', problem: `must not be above max_file_size (${f.max_file_size})` });
  }
  if (Array.isArray(f.content_patterns)) {
    f.content_patterns.forEach((p, i) => {
      if (typeof p !== 'string') return;
      try {
        new RegExp(p, 'u');
      } catch (err) {
        problems.push({ field: `filter.content_patterns[${i}]`, problem: `is not a valid regular expression: ${(err as Error).message}` });
      }
    });
  }
  return problems;
}
