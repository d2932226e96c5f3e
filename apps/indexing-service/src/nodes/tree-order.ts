/** What places a stored node in its tree. */
export interface TreeLink {
  id: string;
  parent_id: string | null;
  ordinal: number;
}

/**
 * The rows of one tree in reading order (a parent before its children, siblings by `ordinal`), each
 * with its depth (0 for a root). Rows that no root reaches (their parent is missing) are left out,
 * and so are rows deeper than `maxDepth`.
 *
 * The order is made here, from the file's rows read in one indexed scan, rather than by a recursive
 * query: PostgreSQL plans the recursive join from the table's statistics, and on a freshly loaded
 * table (no ANALYZE yet) it picks a nested loop that takes minutes for a 400-page document. Here it
 * is one pass over the rows whatever the statistics, with an explicit stack (no recursion limit).
 */
export function inTreeOrder<T extends TreeLink>(rows: readonly T[], maxDepth = Number.POSITIVE_INFINITY): Array<{ row: T; depth: number }> {
  const children = new Map<string | null, T[]>();
  for (const r of rows) {
    const siblings = children.get(r.parent_id);
    if (siblings) siblings.push(r);
    else children.set(r.parent_id, [r]);
  }
  for (const siblings of children.values()) siblings.sort((a, b) => a.ordinal - b.ordinal);

  const out: Array<{ row: T; depth: number }> = [];
  const stack: Array<{ row: T; depth: number }> = [];
  const pushChildren = (parentId: string | null, depth: number): void => {
    const siblings = children.get(parentId);
    if (!siblings || depth > maxDepth) return;
    for (let i = siblings.length - 1; i >= 0; i--) stack.push({ row: siblings[i], depth });
  };
  pushChildren(null, 0);
  for (let next = stack.pop(); next; next = stack.pop()) {
    out.push(next);
    pushChildren(next.row.id, next.depth + 1);
  }
  return out;
}
