import type { NodeAttributes, NodeType, Position, StoredNode } from '@docintel/contracts';

/** A node as stored: flat, one row per node. */
export interface NodeRow {
  id: string;
  parent_id: string | null;
  ordinal: number;
  type: NodeType;
  text: string;
  level: number | null;
  positions: Position[];
  metadata: NodeAttributes;
}

function toNode(r: NodeRow): StoredNode {
  const node: StoredNode = { id: r.id, type: r.type, text: r.text, children: [], positions: r.positions ?? [] };
  if (r.level !== null && r.level !== undefined) node.level = r.level;
  if (r.metadata && Object.keys(r.metadata).length) node.attributes = r.metadata;
  return node;
}

/**
 * Assembles stored rows into the tree, children in `ordinal` order. A tree has one root (the
 * document node); should a generation hold several top-level nodes, they are put under a
 * document node carrying the file's id, so that readers always get one root. Rows whose parent
 * is missing are dropped.
 */
export function buildTree(rows: NodeRow[], fileId: string): StoredNode | null {
  const nodes = new Map<string, StoredNode>();
  for (const r of rows) nodes.set(r.id, toNode(r));
  const sorted = [...rows].sort((a, b) => a.ordinal - b.ordinal);
  const roots: StoredNode[] = [];
  for (const r of sorted) {
    const node = nodes.get(r.id) as StoredNode;
    if (r.parent_id === null) roots.push(node);
    else nodes.get(r.parent_id)?.children.push(node);
  }
  if (roots.length === 0) return null;
  if (roots.length === 1) return roots[0];
  return { id: fileId, type: 'document', text: '', children: roots, positions: [] };
}
