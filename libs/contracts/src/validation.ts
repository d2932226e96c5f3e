import { plainToInstance, type ClassConstructor } from 'class-transformer';
import { validate, type ValidationError } from 'class-validator';
import { DomainError, type ErrorDetail } from './errors';

/** Flattens class-validator errors into `{ field, problem }` pairs with paths like `questions[0].answerType.dataType`. */
export function toErrorDetails(errors: ValidationError[], parent = ''): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  for (const e of errors) {
    // Array items are named as the NUL and nesting checks name them: `[i]`, not `.i`.
    const field = !parent ? e.property : /^\d+$/.test(e.property) ? `${parent}[${e.property}]` : `${parent}.${e.property}`;
    if (e.constraints) {
      // A missing value is told once ("is required"), not also as every check it fails.
      const constraints = e.constraints.isDefined ? { isDefined: e.constraints.isDefined } : e.constraints;
      for (const message of Object.values(constraints)) {
        // class-validator's default messages start with the property name; the field says that already.
        const problem = message.startsWith(`${e.property} `) ? message.slice(e.property.length + 1) : message;
        details.push({ field, problem });
      }
    }
    if (e.children?.length) details.push(...toErrorDetails(e.children, field));
  }
  return details;
}

/**
 * How deeply objects and arrays may nest in a request body or message payload (the value itself
 * counts as level 1). Real payloads nest a handful of levels; the cap keeps every recursive step
 * after it (class-transformer, class-validator, JSON columns) far from the stack limit.
 */
export const MAX_JSON_DEPTH = 64;

/** PostgreSQL text and jsonb cannot hold U+0000, so no string that reaches a service may carry it. */
export const NUL_PROBLEM = 'must not contain the NUL character (U+0000)';
export const TOO_DEEP_PROBLEM = `is nested more than ${MAX_JSON_DEPTH} levels deep`;

/** Most NUL problems reported for one value; the rest would only repeat the point. */
const MAX_NUL_DETAILS = 20;

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** `filter` + `mime_types` -> `filter.mime_types`; keys that are not identifiers are quoted: `filter["a b"]`. */
function childPath(parent: string, key: string): string {
  if (IDENTIFIER.test(key)) return parent ? `${parent}.${key}` : key;
  return `${parent}[${JSON.stringify(key)}]`;
}

/**
 * What no request or payload may contain, whatever its DTO says: a NUL character in any string
 * (value or property name) and nesting deeper than MAX_JSON_DEPTH. The walk is iterative, so a
 * hostile value cannot overflow the stack here either. `root` names the value itself (a query or
 * path parameter); fields inside it are named from there (`filter.mime_types[0]`), and the whole
 * body is `(body)`. Returns the problems, empty when the value is fine.
 */
export function unsafeValueProblems(value: unknown, root = ''): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const stack: Array<{ value: unknown; path: string; level: number; key?: string }> = [{ value, path: root, level: 1 }];
  while (stack.length) {
    const { value: v, path, level, key } = stack.pop() as { value: unknown; path: string; level: number; key?: string };
    if (key?.includes('\u0000')) problems.push({ field: path, problem: `property name ${NUL_PROBLEM}` });
    if (typeof v === 'string') {
      if (v.includes('\u0000')) problems.push({ field: path || '(body)', problem: NUL_PROBLEM });
    } else if (v !== null && typeof v === 'object') {
      if (level > MAX_JSON_DEPTH) return [{ field: root || '(body)', problem: TOO_DEEP_PROBLEM }];
      // Pushed in reverse so that fields are reported in document order.
      if (Array.isArray(v)) {
        for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], path: `${path}[${i}]`, level: level + 1 });
      } else {
        const keys = Object.keys(v);
        for (let i = keys.length - 1; i >= 0; i--) {
          const key = keys[i];
          stack.push({ value: (v as Record<string, unknown>)[key], path: childPath(path, key), level: level + 1, key });
        }
      }
    }
    if (problems.length >= MAX_NUL_DETAILS) break;
  }
  return problems;
}

/**
 * Turns an untrusted plain object into a validated DTO instance, or throws a VALIDATION_FAILED
 * DomainError naming every failing field. Used at the HTTP edge and by every message consumer.
 * NUL characters and excessive nesting are refused before anything recursive touches the value.
 */
export async function validatePayload<T extends object>(
  cls: ClassConstructor<T>,
  plain: unknown,
  opts: { forbidUnknown?: boolean } = {},
): Promise<T> {
  if (plain === null || typeof plain !== 'object' || Array.isArray(plain)) {
    throw DomainError.invalid([{ field: '(body)', problem: 'must be a JSON object' }]);
  }
  const unsafe = unsafeValueProblems(plain);
  if (unsafe.length) throw DomainError.invalid(unsafe);
  const instance = plainToInstance(cls, plain);
  const errors = await validate(instance, {
    whitelist: true,
    forbidNonWhitelisted: opts.forbidUnknown ?? false,
    validationError: { target: false, value: false },
  });
  if (errors.length) throw DomainError.invalid(toErrorDetails(errors));
  return instance;
}
