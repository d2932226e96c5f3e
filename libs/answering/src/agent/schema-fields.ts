import type { AnswerTypeDto, DataValue } from '@docintel/contracts';
import { isSchema, resolveRef, type JsonSchema } from './output-schema';
import { AgentRunFailed } from './types';

/**
 * An output schema read as a list of typed questions, one per leaf property, for an engine that
 * fills the answer field by field (the built-in planner). Nested objects are walked; arrays of
 * objects, and properties whose type says nothing a reader can read, are left out.
 */
export interface SchemaField {
  /** Property names from the root, e.g. ["seller", "name"]. */
  path: string[];
  question: string;
  answerType: AnswerTypeDto;
  /** A string's format: a DATE answer is written as a date or a date-time accordingly. */
  format?: 'date' | 'date-time';
}

const SCALAR_TYPES = new Set(['string', 'integer', 'number', 'boolean']);
const MAX_DEPTH = 6;

/**
 * The most fields (properties at any depth, counted after $ref resolution, as schemaFields walks
 * them) an output schema may expand to. Bytes do not bound it: a recursive $ref of a few hundred
 * bytes expands to 10^5 fields. docs/agent.md gives the measurements it was chosen from.
 */
export const OUTPUT_SCHEMA_MAX_FIELDS = 200;

/**
 * How many fields the schema expands to, counting stops a little past `cap` (the count is then
 * only known to be more than cap), so that counting a schema that expands to 10^12 fields is as
 * cheap as counting one at the limit.
 */
export function expandedFieldCount(root: JsonSchema, cap: number): number {
  let count = 0;
  // A recursive schema visits the same few nodes over and over: each is resolved once.
  const resolved = new Map<JsonSchema, JsonSchema>();
  const walk = (node: JsonSchema, depth: number): void => {
    let schema = resolved.get(node);
    if (!schema) resolved.set(node, (schema = effective(node, root)));
    if (depth > MAX_DEPTH || !(typeOf(schema) === 'object' || isSchema(schema.properties))) return;
    for (const child of Object.values((schema.properties as Record<string, unknown> | undefined) ?? {})) {
      if (count > cap) return;
      if (!isSchema(child)) continue;
      count++;
      walk(child, depth + 1);
    }
  };
  walk(root, 0);
  return count;
}

/** Why the schema is too big once expanded, if it is. */
export function expandedSizeProblem(root: JsonSchema, max = OUTPUT_SCHEMA_MAX_FIELDS): string | undefined {
  // Counting to ten times the limit tells the caller how far off it is, and takes milliseconds.
  const cap = max * 10;
  const count = expandedFieldCount(root, cap);
  if (count <= max) return undefined;
  return `expands to ${count > cap ? `more than ${cap}` : count} fields (properties at any depth, $ref resolved); at most ${max} are accepted`;
}

/**
 * The fields of a schema, walked to MAX_DEPTH with $ref resolved. A schema over `maxFields` (a
 * stored job may predate the limit) is AgentRunFailed rather than a walk of 10^5 fields.
 */
export function schemaFields(root: JsonSchema, maxFields = OUTPUT_SCHEMA_MAX_FIELDS): SchemaField[] {
  const tooBig = expandedSizeProblem(root, maxFields);
  if (tooBig) throw new AgentRunFailed(`The output schema ${tooBig}`);
  const fields: SchemaField[] = [];
  const walk = (node: JsonSchema, path: string[], depth: number) => {
    const schema = effective(node, root);
    if (depth > MAX_DEPTH) return;
    if (typeOf(schema) === 'object' || isSchema(schema.properties)) {
      for (const [name, child] of Object.entries((schema.properties as Record<string, unknown> | undefined) ?? {})) {
        if (isSchema(child)) walk(child, [...path, name], depth + 1);
      }
      return;
    }
    const field = leafField(schema, path, root);
    if (field) fields.push(field);
  };
  walk(root, [], 0);
  return fields;
}

function leafField(schema: JsonSchema, path: string[], root: JsonSchema): SchemaField | undefined {
  if (!path.length) return undefined;
  const type = typeOf(schema);
  const many = type === 'array';
  const item = many && isSchema(schema.items) ? effective(schema.items, root) : schema;
  const scalar = answerTypeOf(item);
  if (!scalar) return undefined;
  return {
    path,
    question: questionOf(schema, item, path, scalar.answerType.dataType, many),
    answerType: { ...scalar.answerType, multiValued: many },
    ...(scalar.format ? { format: scalar.format } : {}),
  };
}

/** A leaf schema's answer type: enum → ENUM, string (date formats → DATE), integer, number, boolean. */
function answerTypeOf(schema: JsonSchema): { answerType: AnswerTypeDto; format?: 'date' | 'date-time' } | undefined {
  const type = typeOf(schema);
  if (Array.isArray(schema.enum) && schema.enum.length && schema.enum.every((v) => typeof v === 'string')) {
    return { answerType: { dataType: 'ENUM', enumValues: schema.enum as string[] } };
  }
  if (!type || !SCALAR_TYPES.has(type)) return undefined;
  switch (type) {
    case 'string':
      if (schema.format === 'date' || schema.format === 'date-time') return { answerType: { dataType: 'DATE' }, format: schema.format };
      return { answerType: { dataType: 'STRING' } };
    case 'integer':
      return { answerType: { dataType: 'INT' } };
    case 'number':
      return { answerType: { dataType: 'FLOAT' } };
    default:
      return { answerType: { dataType: 'BOOL' } };
  }
}

/** The schema a node stands for: its $ref resolved, and the first branch of anyOf/oneOf that is not null. */
export function effective(node: JsonSchema, root: JsonSchema): JsonSchema {
  const schema = resolveRef(node, root);
  const branches = (schema.anyOf ?? schema.oneOf) as unknown;
  if (!schema.type && Array.isArray(branches)) {
    const branch = branches.filter(isSchema).find((b) => typeOf(resolveRef(b, root)) !== 'null');
    if (branch) return { ...resolveRef(branch, root), description: schema.description ?? resolveRef(branch, root).description };
  }
  return schema;
}

/** A schema's type, the first that is not "null" when it lists several. */
export function typeOf(schema: JsonSchema): string | undefined {
  const t = schema.type;
  if (typeof t === 'string') return t;
  if (Array.isArray(t)) return t.find((x): x is string => typeof x === 'string' && x !== 'null');
  return undefined;
}

const QUESTION_START = /^(what|which|who|whom|whose|when|where|why|how|is|are|was|were|does|do|did|has|have|had|can|will|should)\b/i;
const BOOL_PREFIX = /^(is|are|was|has|have|can|does|do|will|should)\s+(.+)$/;

/**
 * The question a field asks: its description when it reads as a question, else one made from the
 * description ("The invoice total" → "What is the invoice total?") or the humanised path
 * ("invoice_number" → "What is the invoice number?").
 */
function questionOf(schema: JsonSchema, item: JsonSchema, path: string[], dataType: AnswerTypeDto['dataType'], many: boolean): string {
  const description = (typeof schema.description === 'string' ? schema.description : item.description) as string | undefined;
  const text = description?.trim().replace(/[.\s]+$/, '');
  if (text && (text.endsWith('?') || QUESTION_START.test(text))) return text.endsWith('?') ? text : `${text}?`;
  const subject = text ? text.replace(/^(the|a|an)\s+/i, '') : path.map(humanise).join(' ');
  const lower = subject.charAt(0).toLowerCase() + subject.slice(1);
  if (dataType === 'BOOL' && !text) {
    const m = BOOL_PREFIX.exec(lower);
    if (m) return `${m[1] === 'has' || m[1] === 'have' ? 'Does it have' : `${capitalise(m[1])} it`} ${m[2]}?`;
    return `Is it ${lower}?`;
  }
  // "issued_on" → "When was it issued?"
  const when = dataType === 'DATE' && !text ? /^(\w+)\s+(on|at)$/.exec(lower) : null;
  if (when) return `When was it ${when[1]}?`;
  return `What ${many ? 'are' : 'is'} the ${lower}?`;
}

/** "invoiceNumber", "invoice_number", "invoice-number" → "invoice number". */
export function humanise(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_\-.]+/g, ' ')
    .trim()
    .toLowerCase();
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** A typed value as the JSON the schema expects (a date as the field's format). */
export function jsonValueOf(value: DataValue, field: SchemaField): unknown {
  const date = (iso: string) => (field.format === 'date' ? iso.slice(0, 10) : iso);
  if (field.answerType.multiValued) {
    return (
      value.strListValue ??
      value.longListValue ??
      value.doubleListValue ??
      value.boolListValue ??
      value.dateListValue?.map(date) ??
      [value.strValue ?? value.longValue ?? value.doubleValue ?? value.boolValue ?? value.dateValue].filter((v) => v !== undefined)
    );
  }
  if (value.dateValue !== undefined) return date(value.dateValue);
  return value.strValue ?? value.longValue ?? value.doubleValue ?? value.boolValue ?? value.strListValue?.[0];
}

/** Sets a value at a path, creating the objects on the way. */
export function setAt(target: Record<string, unknown>, path: string[], value: unknown): void {
  let node = target;
  for (const key of path.slice(0, -1)) {
    if (!isSchema(node[key])) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[path[path.length - 1]] = value;
}
