import { randomUUID } from 'node:crypto';
import type { NodeAttributes, NodeRecord, NodeType, Position } from '@docintel/contracts';

/** The shape of a parsed node (libs/parsing's DocumentNode), without depending on that library here. */
export interface ParsedNode {
  type: string;
  text: string;
  level?: number;
  children: ParsedNode[];
  positions: Position[] | ReadonlyArray<unknown>;
  attributes?: object;
}

const SUSPECT = /[\u0000\uD800-\uDFFF]/;
const NUL = /\u0000/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * A value PostgreSQL can store: text and jsonb refuse the NUL character and lone UTF-16 surrogates,
 * which extracted text sometimes holds. NULs are dropped, lone surrogates become U+FFFD. Deep, for
 * attributes and metadata; values without such characters are returned as they are.
 */
export function storable<T>(value: T): T {
  if (typeof value === 'string') {
    return (SUSPECT.test(value) ? value.replace(NUL, '').replace(LONE_SURROGATE, '\uFFFD') : value) as T;
  }
  if (Array.isArray(value)) return value.map((v: unknown) => storable(v)) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [storable(k), storable(v)])) as T;
  }
  return value;
}

/**
 * Flattens a parsed tree into the node store's records: the parsed root's children become children
 * of the stored root node (created when the request was dispatched), every node gets a new UUID,
 * siblings keep their reading order in `ordinal`, and text, level, positions and attributes are kept.
 * Records come in tree order (a parent before its children), so any prefix is a connected subtree.
 * Iterative, so that deeply nested JSON or XML cannot exhaust the stack.
 */
export function toNodeRecords(root: ParsedNode, rootNodeId: string, newId: () => string = randomUUID): NodeRecord[] {
  const records: NodeRecord[] = [];
  const stack: Array<{ node: ParsedNode; parentId: string; ordinal: number }> = [];
  for (let i = root.children.length - 1; i >= 0; i--) stack.push({ node: root.children[i], parentId: rootNodeId, ordinal: i });
  while (stack.length) {
    const { node, parentId, ordinal } = stack.pop()!;
    const id = newId();
    const record: NodeRecord = {
      id,
      parentId,
      ordinal,
      type: node.type as NodeType,
      text: storable(node.text ?? ''),
      positions: storable((node.positions ?? []) as Position[]),
    };
    if (node.level !== undefined && node.level !== null) record.level = node.level;
    if (node.attributes && Object.keys(node.attributes).length) record.attributes = storable(node.attributes as NodeAttributes);
    records.push(record);
    const children = node.children ?? [];
    for (let i = children.length - 1; i >= 0; i--) stack.push({ node: children[i], parentId: id, ordinal: i });
  }
  return records;
}

/** Consecutive slices of at most `size` items. */
export function batches<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** The distinct node types of some nodes, in order of first appearance. */
export function distinctTypes(nodes: ReadonlyArray<{ type: string }>): string[] {
  return [...new Set(nodes.map((n) => n.type))];
}
