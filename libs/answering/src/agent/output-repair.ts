import { isSchema, resolveRef, type JsonSchema, type OutputCheck } from './output-schema';
import { effective, typeOf } from './schema-fields';

/**
 * One repair of an answer the output schema refused, before the run gives up: values are coerced
 * to the types the schema asks ("12" → 12, 3 → "3", "yes" → true, one value → a list of one, an
 * enum value in another case → the schema's spelling, a date-time → a date), a missing required
 * property that may be null becomes null, and the fields that still fail are dropped where they
 * are optional (a value the documents did not give is better left out than wrong).
 */
export function repairOutput(value: unknown, root: JsonSchema, check: OutputCheck): unknown {
  const coerced = coerce(value, root, root);
  const { failing } = check(coerced);
  if (!failing.length || !isSchema(coerced)) return coerced;
  for (const path of failing) dropOptional(coerced, path, root);
  return coerced;
}

function coerce(value: unknown, node: JsonSchema, root: JsonSchema): unknown {
  const schema = effective(node, root);
  if (Array.isArray(schema.enum)) {
    const allowed = schema.enum as unknown[];
    if (allowed.includes(value)) return value;
    const text = typeof value === 'string' ? value.trim().toLowerCase() : undefined;
    const match = allowed.find((a) => typeof a === 'string' && a.toLowerCase() === text);
    return match ?? value;
  }
  switch (typeOf(schema)) {
    case 'object':
      return isSchema(value) ? coerceObject(value, schema, root) : value;
    case 'array': {
      const items = isSchema(schema.items) ? schema.items : {};
      const list = Array.isArray(value) ? value : value === null || value === undefined ? [] : [value];
      return list.map((v) => coerce(v, items, root));
    }
    case 'string':
      if (Array.isArray(value) && value.length === 1) return coerce(value[0], node, root);
      if (typeof value === 'number' || typeof value === 'boolean') return String(value);
      if (typeof value === 'string' && schema.format === 'date' && /^\d{4}-\d{2}-\d{2}T/.test(value)) return value.slice(0, 10);
      return value;
    case 'integer':
    case 'number': {
      if (Array.isArray(value) && value.length === 1) return coerce(value[0], node, root);
      const n = typeof value === 'string' ? Number(value.replace(/[\s,]/g, '')) : value;
      if (typeof n !== 'number' || !Number.isFinite(n)) return value;
      return typeOf(schema) === 'integer' && !Number.isInteger(n) ? value : n;
    }
    case 'boolean': {
      if (typeof value !== 'string') return value;
      const word = value.trim().toLowerCase();
      return ['yes', 'true'].includes(word) ? true : ['no', 'false'].includes(word) ? false : value;
    }
    default:
      return value;
  }
}

function coerceObject(value: Record<string, unknown>, schema: JsonSchema, root: JsonSchema): Record<string, unknown> {
  const properties = (isSchema(schema.properties) ? schema.properties : {}) as Record<string, JsonSchema>;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (!properties[key]) {
      if (schema.additionalProperties !== false) out[key] = v;
      continue;
    }
    out[key] = coerce(v, properties[key], root);
  }
  for (const key of requiredOf(schema)) {
    if (out[key] === undefined && properties[key] && allowsNull(properties[key], root)) out[key] = null;
  }
  return out;
}

/** Deletes the field at `path` (or the nearest optional object above it) when its parent does not require it. */
function dropOptional(value: Record<string, unknown>, path: string[], root: JsonSchema): void {
  for (let depth = path.length; depth > 0; depth--) {
    const parentPath = path.slice(0, depth - 1);
    const key = path[depth - 1];
    const parent = getAt(value, parentPath);
    const parentSchema = schemaAt(root, parentPath);
    if (!isSchema(parent) || !parentSchema) return;
    if (!requiredOf(parentSchema).includes(key)) {
      delete parent[key];
      return;
    }
  }
}

function getAt(value: unknown, path: string[]): unknown {
  let node = value;
  for (const key of path) node = isSchema(node) ? node[key] : Array.isArray(node) ? node[Number(key)] : undefined;
  return node;
}

function schemaAt(root: JsonSchema, path: string[]): JsonSchema | undefined {
  let schema: JsonSchema | undefined = effective(root, root);
  for (const key of path) {
    if (!schema) return undefined;
    const next: unknown =
      /^\d+$/.test(key) && typeOf(schema) === 'array' ? schema.items : (schema.properties as Record<string, unknown>)?.[key];
    schema = isSchema(next) ? effective(next, root) : undefined;
  }
  return schema;
}

const requiredOf = (schema: JsonSchema): string[] => (Array.isArray(schema.required) ? (schema.required as string[]) : []);

function allowsNull(node: JsonSchema, root: JsonSchema): boolean {
  const schema = resolveRef(node, root);
  if (schema.type === 'null' || (Array.isArray(schema.type) && schema.type.includes('null'))) return true;
  const branches = (schema.anyOf ?? schema.oneOf) as unknown;
  return Array.isArray(branches) && branches.some((b) => isSchema(b) && b.type === 'null');
}
