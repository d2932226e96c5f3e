import { RE2JS } from 're2js';

/**
 * The regular expressions of a caller's JSON Schema (`pattern`, the keys of `patternProperties`,
 * and so `propertyNames.pattern`) run on RE2 (re2js), as rule patterns do: matching takes time
 * linear in the text, so `^(a+)+$` against thirty a's and a "!" cannot stall the event loop the
 * way a backtracking RegExp does. The price is RE2 syntax: no lookahead, lookbehind or
 * backreferences, and `\s`, `\b` are ASCII-only.
 */

/**
 * RE2 instructions one schema pattern may compile to (`[a-z]{1000}` alone is about 1000), and all
 * of a schema's together: checking a string costs up to (its length x instructions), as for the
 * content patterns of rules (FILTER_LIMITS), whose numbers these are.
 */
export const SCHEMA_PATTERN_MAX_PROGRAM_SIZE = 1000;
export const SCHEMA_PATTERNS_MAX_PROGRAM_SIZE = 4000;
/** Characters of one schema pattern. */
export const SCHEMA_PATTERN_MAX_LENGTH = 1000;

const RE2_HINT = ' (patterns run on RE2: no lookahead, lookbehind or backreferences)';

type CompiledPattern = { ok: true; re: RE2JS; size: number } | { ok: false; problem: string };

/** Compiled patterns, most recently used last: a wide schema repeats the same few patterns. */
const cache = new Map<string, CompiledPattern>();
const CACHE_SIZE = 256;

/** The RE2 program of a pattern, or why the pattern is refused (cached). */
export function compileSchemaPattern(pattern: string): CompiledPattern {
  const hit = cache.get(pattern);
  if (hit) {
    cache.delete(pattern);
    cache.set(pattern, hit);
    return hit;
  }
  const compiled = compileUncached(pattern);
  cache.set(pattern, compiled);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  return compiled;
}

function compileUncached(pattern: string): CompiledPattern {
  if (pattern.length > SCHEMA_PATTERN_MAX_LENGTH) {
    return { ok: false, problem: `is ${pattern.length} characters long; at most ${SCHEMA_PATTERN_MAX_LENGTH} are accepted` };
  }
  let re: RE2JS;
  try {
    // RE2 refuses counted repetitions over 1000 (nested ones multiplied) while parsing, so compiling is bounded too.
    re = RE2JS.compile(pattern);
  } catch (err) {
    const message = (err instanceof Error ? err.message : String(err)).replace(/^error parsing regexp: /, '');
    const unsupported = /unsupported Perl syntax|invalid escape sequence|invalid named capture/.test(message);
    return { ok: false, problem: `is not a regular expression that can run in linear time: ${message}${unsupported ? RE2_HINT : ''}` };
  }
  const size = re.programSize();
  if (size > SCHEMA_PATTERN_MAX_PROGRAM_SIZE) {
    return {
      ok: false,
      problem: `is too complex: it compiles to ${size} RE2 instructions; at most ${SCHEMA_PATTERN_MAX_PROGRAM_SIZE} are accepted`,
    };
  }
  return { ok: true, re, size };
}

/**
 * Ajv's `code.regExp` engine: every pattern a compiled schema tests runs on RE2. Ajv keys compiled
 * patterns by `toString()`, which RE2JS answers with the pattern. A pattern RE2 refuses makes
 * the compile fail; schemaPatternProblems names it first, with its place in the schema.
 */
export const re2RegExpEngine = Object.assign(
  (pattern: string): RE2JS => {
    const compiled = compileSchemaPattern(pattern);
    if (!compiled.ok) throw new Error(`pattern ${JSON.stringify(pattern.slice(0, 100))} ${compiled.problem}`);
    return compiled.re;
  },
  // Only read by Ajv's standalone code generation, which the engines do not use.
  { code: 'require("re2js").RE2JS.compile' },
);

type JsonSchema = Record<string, unknown>;
const isSchema = (v: unknown): v is JsonSchema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One refused pattern: where it is in the schema ("properties.x.pattern"; "" for the schema as a whole) and why. */
export interface SchemaPatternProblem {
  path: string;
  problem: string;
}

/** Keywords whose value is a schema, or an array of schemas. */
const SUBSCHEMA = new Set([
  'items',
  'additionalItems',
  'prefixItems',
  'contains',
  'additionalProperties',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
  'not',
  'if',
  'then',
  'else',
  'allOf',
  'anyOf',
  'oneOf',
]);
/** Keywords whose value maps names to schemas. */
const SUBSCHEMA_MAP = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'dependencies']);

/** A path segment as the error names it: `.name`, or `["a b"]` when it is not a plain name. */
const segment = (key: string) => (/^[A-Za-z_$][\w$-]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`);

/**
 * Every pattern of the schema, wherever it is nested (definitions included, referenced or not),
 * that RE2 cannot run: the paths start at the schema's root, e.g. "properties.x.pattern". Then
 * the distinct patterns' programs together, which bound what compiling the schema costs.
 * Values of `enum`, `const`, `default` and `examples` are data, not schemas, and are not read.
 */
export function schemaPatternProblems(schema: JsonSchema): SchemaPatternProblem[] {
  const problems: SchemaPatternProblem[] = [];
  const sizes = new Map<string, number>();
  const check = (pattern: string, path: string) => {
    const compiled = compileSchemaPattern(pattern);
    if (compiled.ok) sizes.set(pattern, compiled.size);
    else problems.push({ path: path.replace(/^\./, ''), problem: compiled.problem });
  };
  const walk = (node: unknown, path: string): void => {
    if (Array.isArray(node)) {
      node.forEach((item, i) => walk(item, `${path}[${i}]`));
      return;
    }
    if (!isSchema(node)) return;
    for (const [key, value] of Object.entries(node)) {
      const at = `${path}${segment(key)}`;
      if (key === 'pattern' && typeof value === 'string') check(value, at);
      else if (SUBSCHEMA.has(key)) walk(value, at);
      else if (SUBSCHEMA_MAP.has(key) && isSchema(value)) {
        for (const [name, child] of Object.entries(value)) {
          if (key === 'patternProperties') check(name, `${at}${segment(name)}`);
          walk(child, `${at}${segment(name)}`);
        }
      }
    }
  };
  walk(schema, '');
  const total = [...sizes.values()].reduce((a, b) => a + b, 0);
  if (!problems.length && total > SCHEMA_PATTERNS_MAX_PROGRAM_SIZE) {
    problems.push({
      path: '',
      problem: `has patterns that compile to ${total} RE2 instructions together; at most ${SCHEMA_PATTERNS_MAX_PROGRAM_SIZE} are accepted in one schema`,
    });
  }
  return problems;
}
