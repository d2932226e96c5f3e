import type { DocumentNode } from './model';

/** All the text under a node, in reading order, words of sibling leaves separated by a space. */
export function plainText(node: DocumentNode): string {
  const parts: string[] = [];
  const walk = (n: DocumentNode) => {
    if (n.text) parts.push(n.text);
    for (const c of n.children) walk(c);
  };
  walk(node);
  return parts.join(' ').replace(/\s+/g, ' ').trim();
}

/**
 * A table as a rectangular grid of cell texts. Cells are placed left to right in their row, skipping
 * positions taken by row spans from above; a spanned area repeats nothing (its other positions are '').
 * Rows may sit directly under the table or one level down (a table section); anything else is ignored.
 */
export function tableGrid(table: DocumentNode): string[][] {
  const rows: DocumentNode[] = [];
  for (const c of table.children) {
    if (c.type === 'row') rows.push(c);
    else for (const g of c.children) if (g.type === 'row') rows.push(g);
  }
  const grid: Array<Array<string | undefined>> = rows.map(() => []);
  rows.forEach((row, r) => {
    let col = 0;
    for (const cell of row.children) {
      while (grid[r][col] !== undefined) col++;
      const rowSpan = Math.max(1, Math.min(Number(cell.attributes?.rowSpan) || 1, rows.length - r));
      const colSpan = Math.max(1, Number(cell.attributes?.colSpan) || 1);
      for (let dr = 0; dr < rowSpan; dr++) {
        for (let dc = 0; dc < colSpan; dc++) grid[r + dr][col + dc] = dr === 0 && dc === 0 ? plainText(cell) : '';
      }
      col += colSpan;
    }
  });
  const width = Math.max(0, ...grid.map((r) => r.length));
  return grid.map((r) => Array.from({ length: width }, (_, i) => r[i] ?? ''));
}

/** Block-level nodes that only hold other nodes; their own text is shown only when they have no children. */
export const CONTAINERS = new Set(['document', 'section', 'page', 'row', 'cell']);

export const headingLevel = (n: DocumentNode): number => Math.min(6, Math.max(1, Math.trunc(n.level ?? 1)));
