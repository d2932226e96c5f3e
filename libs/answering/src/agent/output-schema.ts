import Ajv, { type ErrorObject } from 'ajv';
import { re2RegExpEngine } from './schema-patterns';
import { AgentRunFailed } from './types';

export type JsonSchema = Record<string, unknown>;

/** What a check of a value against the output schema found: nothing when it is valid. */
export interface SchemaCheck {
  /** Lines that name the field: "/total must be number". */
  problems: string[];
  /** The fields that failed, as property paths (a missing required property included). */
  failing: string[][];
}

export type OutputCheck = (value: unknown) => SchemaCheck;

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A fresh Ajv per schema: a caller's schema may carry an `$id`, which one shared instance would
 * refuse to compile twice. Dates are checked (the engines fill them); other formats are accepted
 * as they are, since ajv-formats is not a dependency. Patterns run on RE2 (schema-patterns.ts):
 * a caller's pattern must not be able to backtrack for minutes.
 */
function newAjv(): Ajv {
  const ignored = ['email', 'uri', 'uri-reference', 'uuid', 'hostname', 'ipv4', 'ipv6', 'time', 'duration', 'regex'];
  const ajv = new Ajv({
    allErrors: true,
    strict: false,
    formats: Object.fromEntries(ignored.map((f) => [f, true])),
    code: { regExp: re2RegExpEngine },
  });
  ajv.addFormat('date', { validate: (s: string) => ISO_DATE.test(s) && !Number.isNaN(Date.parse(s)) });
  ajv.addFormat('date-time', { validate: (s: string) => /^\d{4}-\d{2}-\d{2}T/.test(s) && !Number.isNaN(Date.parse(s)) });
  return ajv;
}

/**
 * The check of an output schema, or AgentRunFailed when the schema itself cannot be compiled.
 * `$schema` is dropped: Ajv knows draft-07, and the keywords callers use are the same in 2020-12.
 */
export function compileOutputSchema(schema: JsonSchema): OutputCheck {
  const { $schema: _ignored, ...rest } = schema;
  let validate: ReturnType<Ajv['compile']>;
  try {
    validate = newAjv().compile(rest);
  } catch (err) {
    throw new AgentRunFailed('The output schema is not a valid JSON Schema', [(err as Error).message]);
  }
  return (value) =>
    validate(value) ? { problems: [], failing: [] } : { problems: schemaProblems(validate.errors), failing: failingPaths(validate.errors) };
}

function failingPaths(errors: ErrorObject[] | null | undefined): string[][] {
  return (errors ?? []).map((e) => {
    const path = e.instancePath
      .split('/')
      .slice(1)
      .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
    return e.keyword === 'required' ? [...path, String(e.params.missingProperty)] : path;
  });
}

/** Ajv's errors as lines that name the field: "/total must be number", "/invoice_number is required". */
export function schemaProblems(errors: ErrorObject[] | null | undefined, root = '(the answer)'): string[] {
  const seen = new Set<string>();
  for (const e of errors ?? []) {
    // anyOf reports every branch; its own summary says enough.
    if (e.keyword === 'type' && e.params.type === 'null') continue;
    const path = e.instancePath || root;
    switch (e.keyword) {
      case 'required':
        seen.add(`${e.instancePath}/${String(e.params.missingProperty)} is required`);
        break;
      case 'additionalProperties':
        seen.add(`${path} must not have the property '${String(e.params.additionalProperty)}'`);
        break;
      case 'enum':
        seen.add(`${path} must be one of ${(e.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`);
        break;
      default:
        seen.add(`${path} ${e.message ?? 'is invalid'}`);
    }
  }
  return [...seen];
}

/** The schema `$ref` points at, for local references ("#/$defs/address"); the node itself otherwise. */
export function resolveRef(node: JsonSchema, root: JsonSchema, depth = 0): JsonSchema {
  const ref = node.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#') || depth > 20) return node;
  let target: unknown = root;
  for (const part of ref.slice(1).split('/').filter(Boolean)) {
    const key = decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~');
    target = target && typeof target === 'object' ? (target as Record<string, unknown>)[key] : undefined;
  }
  return isSchema(target) ? resolveRef(target, root, depth + 1) : node;
}

export const isSchema = (v: unknown): v is JsonSchema => typeof v === 'object' && v !== null && !Array.isArray(v);
