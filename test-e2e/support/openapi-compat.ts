/**
 * Wire compatibility of our OpenAPI document with the reference one: for each operation both
 * describe, the path, the parameters, the request body and the success response must agree in
 * everything a client relies on (names, locations, required flags, JSON types).
 * Schema names, descriptions, formats and examples are free.
 */

type Json = Record<string, unknown>;

export interface OpenApiDocument {
  paths: Record<string, Record<string, Json>>;
  components?: Record<string, Record<string, Json>>;
}

export interface MatchedOperation {
  method: string;
  path: string;
  referencePath: string;
  operationId: string;
  ours: Json;
  reference: Json;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

/** `/a/{id}/b` -> `/a/{}/b`, so that an operation whose path parameter was renamed is still paired (and reported). */
const pathShape = (path: string) => path.replace(/\{[^}]+\}/g, '{}');

/** Operations of `ours` that the reference also has, paired by method and path shape. */
export function matchOperations(ours: OpenApiDocument, reference: OpenApiDocument): MatchedOperation[] {
  const referenceByShape = new Map<string, string>();
  for (const path of Object.keys(reference.paths)) referenceByShape.set(pathShape(path), path);
  const matched: MatchedOperation[] = [];
  for (const [path, item] of Object.entries(ours.paths)) {
    const referencePath = referenceByShape.get(pathShape(path));
    if (!referencePath) continue;
    for (const method of METHODS) {
      const op = item[method] as Json | undefined;
      const refOp = reference.paths[referencePath][method] as Json | undefined;
      if (op && refOp) {
        matched.push({
          method,
          path,
          referencePath,
          operationId: String(refOp.operationId ?? `${method} ${path}`),
          ours: op,
          reference: refOp,
        });
      }
    }
  }
  return matched;
}

function resolve(doc: OpenApiDocument, node: unknown): Json | undefined {
  let current = node as Json | undefined;
  for (let hops = 0; current && typeof current.$ref === 'string' && hops < 20; hops++) {
    const parts = (current.$ref as string).replace(/^#\//, '').split('/');
    current = parts.reduce<unknown>((acc, key) => (acc as Json | undefined)?.[key], doc) as Json | undefined;
  }
  return current;
}

interface Shape {
  type?: string;
  /** Field names, when the schema fixes them. */
  properties?: Record<string, unknown>;
  items?: unknown;
  /** oneOf/anyOf: some object whose fields depend on the variant. */
  variant?: boolean;
}

/** The JSON shape of a schema: $ref resolved, allOf merged into one object, oneOf/anyOf taken as an object. */
function shapeOf(doc: OpenApiDocument, node: unknown): Shape {
  const s = resolve(doc, node) ?? {};
  if (Array.isArray(s.oneOf) || Array.isArray(s.anyOf)) return { type: 'object', variant: true };
  if (Array.isArray(s.allOf)) {
    const parts = (s.allOf as unknown[]).map((p) => shapeOf(doc, p));
    if (parts.length === 1 && !s.properties) return parts[0];
    if (parts.some((p) => p.variant)) return { type: 'object', variant: true };
    const properties = Object.assign({}, ...parts.map((p) => p.properties ?? {}), (s.properties as Json) ?? {});
    return { type: 'object', properties: Object.keys(properties).length ? properties : undefined };
  }
  const type = typeof s.type === 'string' ? s.type : s.properties || s.additionalProperties ? 'object' : s.items ? 'array' : undefined;
  return { type, properties: s.properties as Json | undefined, items: s.items };
}

/** A property our document marks as an extension of the reference API. */
const isExtension = (node: unknown): boolean => {
  const description = (node as Json | undefined)?.description;
  return typeof description === 'string' && description.startsWith('Extension');
};

/** Differences between two schemas, each prefixed with where it is (`data[].id.entityType`). */
export function compareSchemas(
  ours: OpenApiDocument,
  oursSchema: unknown,
  reference: OpenApiDocument,
  referenceSchema: unknown,
  where = '(body)',
  depth = 0,
): string[] {
  if (depth > 12) return [];
  const a = shapeOf(ours, oursSchema);
  const b = shapeOf(reference, referenceSchema);
  if (!b.type) return []; // free-form in the reference: anything goes
  if (a.type !== b.type) return [`${where}: type ${a.type ?? '(none)'}, reference ${b.type}`];
  if (a.variant || b.variant) return [];
  const problems: string[] = [];
  if (b.type === 'array') {
    problems.push(...compareSchemas(ours, a.items, reference, b.items, `${where}[]`, depth + 1));
  }
  if (b.type === 'object' && b.properties) {
    const ourFields = Object.keys(a.properties ?? {});
    const refFields = Object.keys(b.properties);
    const missing = refFields.filter((f) => !ourFields.includes(f));
    // Fields we add are allowed when documented as extensions ("Extension: ..." in their description).
    const extra = ourFields.filter((f) => !refFields.includes(f) && !isExtension(a.properties?.[f]));
    if (missing.length) problems.push(`${where}: missing field(s) ${missing.join(', ')}`);
    if (extra.length) problems.push(`${where}: field(s) not in the reference ${extra.join(', ')}`);
    for (const f of refFields.filter((x) => ourFields.includes(x))) {
      problems.push(...compareSchemas(ours, a.properties?.[f], reference, b.properties[f], `${where}.${f}`, depth + 1));
    }
  }
  return problems;
}

interface Parameter {
  name: string;
  in: string;
  required: boolean;
  type?: string;
}

function parametersOf(doc: OpenApiDocument, op: Json): Parameter[] {
  return ((op.parameters as unknown[]) ?? []).map((raw) => {
    const p = resolve(doc, raw) as Json;
    return { name: String(p.name), in: String(p.in), required: p.required === true, type: shapeOf(doc, p.schema).type };
  });
}

function jsonContent(doc: OpenApiDocument, holder: unknown): { mediaTypes: string[]; schema?: unknown } | undefined {
  const h = resolve(doc, holder);
  const content = h?.content as Record<string, Json> | undefined;
  if (!content) return undefined;
  const mediaTypes = Object.keys(content);
  const json = mediaTypes.find((m) => m.includes('json')) ?? mediaTypes[0];
  return { mediaTypes, schema: json ? content[json].schema : undefined };
}

const successOf = (op: Json) =>
  Object.keys((op.responses as Json) ?? {})
    .filter((code) => /^2\d\d$/.test(code))
    .sort();

/** Everything a client of the reference would notice about one of our operations. */
export function compareOperation(ours: OpenApiDocument, reference: OpenApiDocument, m: MatchedOperation): string[] {
  const at = `${m.method.toUpperCase()} ${m.referencePath} (${m.operationId})`;
  const problems: string[] = [];
  if (m.path !== m.referencePath) problems.push(`path is ${m.path}`);

  const ourParams = parametersOf(ours, m.ours);
  const refParams = parametersOf(reference, m.reference);
  const key = (p: Parameter) => `${p.in} ${p.name}`;
  for (const r of refParams) {
    const o = ourParams.find((p) => key(p) === key(r));
    if (!o) {
      problems.push(`missing ${r.in} parameter ${r.name}`);
      continue;
    }
    if (o.required !== r.required) problems.push(`${r.in} parameter ${r.name}: required ${o.required}, reference ${r.required}`);
    if (r.type && o.type !== r.type) problems.push(`${r.in} parameter ${r.name}: type ${o.type}, reference ${r.type}`);
  }
  for (const o of ourParams) {
    if (o.required && !refParams.some((r) => key(r) === key(o)))
      problems.push(`required ${o.in} parameter ${o.name} is not in the reference`);
  }

  const refBody = jsonContent(reference, m.reference.requestBody);
  if (refBody) {
    const ourBody = jsonContent(ours, m.ours.requestBody);
    if (!ourBody) problems.push('no request body');
    else {
      const absent = refBody.mediaTypes.filter((t) => !ourBody.mediaTypes.includes(t));
      if (absent.length) problems.push(`request body: media type(s) ${absent.join(', ')} not accepted`);
      problems.push(...compareSchemas(ours, ourBody.schema, reference, refBody.schema, 'request body'));
    }
  }

  const refSuccess = successOf(m.reference);
  const ourSuccess = successOf(m.ours);
  if (refSuccess.length && refSuccess[0] !== ourSuccess[0]) {
    problems.push(`success status ${ourSuccess.join('/') || '(none)'}, reference ${refSuccess.join('/')}`);
  } else if (refSuccess.length) {
    const refResponse = jsonContent(reference, (m.reference.responses as Json)[refSuccess[0]]);
    const ourResponse = jsonContent(ours, (m.ours.responses as Json)[ourSuccess[0]]);
    if (refResponse?.schema && !ourResponse?.schema) problems.push(`response ${refSuccess[0]}: no schema`);
    else if (refResponse?.schema)
      problems.push(...compareSchemas(ours, ourResponse?.schema, reference, refResponse.schema, `response ${refSuccess[0]}`));
  }
  return problems.map((p) => `${at}: ${p}`);
}

/** All differences between our document and the reference, over every operation both have. */
export function compareWithReference(
  ours: OpenApiDocument,
  reference: OpenApiDocument,
): { matched: MatchedOperation[]; problems: string[] } {
  const matched = matchOperations(ours, reference);
  return { matched, problems: matched.flatMap((m) => compareOperation(ours, reference, m)) };
}
