import type { FileTableDto, TableCellDto } from '@docintel/contracts';
import type { TableTreeNode } from './file-tables.repository';

/** Cell text kept per cell: a table is read for values, and a cell of a whole page of text is not one. */
export const CELL_CHARS = 2000;

/**
 * The tables of a file in reading order, from its nodes in reading order: each table's rows of
 * cells with their positions and header/span attributes, and the last two headings or sheet names
 * above it. Rows and cells belong to their nearest table, so a table nested in a cell is a table of
 * its own.
 */
export function buildTables(fileId: string, fileName: string, nodes: TableTreeNode[]): FileTableDto[] {
  const tables = new Map<string, FileTableDto>();
  const rowsById = new Map<string, TableCellDto[]>();
  const headings: string[] = [];
  for (const n of nodes) {
    if (n.type === 'heading' && n.text.trim()) headings.push(n.text.trim());
    else if (n.type === 'section' && typeof n.attributes.name === 'string' && n.attributes.name.trim())
      headings.push(n.attributes.name.trim());
    else if (n.type === 'table') tables.set(n.id, { fileId, fileName, tableId: n.id, headings: headings.slice(-2), rows: [] });
    else if (n.type === 'row') {
      const table = n.parentId ? tables.get(n.parentId) : undefined;
      if (!table) continue;
      const cells: TableCellDto[] = [];
      table.rows.push(cells);
      rowsById.set(n.id, cells);
    } else if (n.type === 'cell') {
      const row = n.parentId ? rowsById.get(n.parentId) : undefined;
      if (!row) continue;
      const cell: TableCellDto = {
        nodeId: n.id,
        text: n.text.length > CELL_CHARS ? n.text.slice(0, CELL_CHARS) : n.text,
        positions: n.positions,
      };
      if (n.attributes.header) cell.header = true;
      if ((n.attributes.colSpan ?? 1) > 1) cell.colSpan = n.attributes.colSpan;
      if ((n.attributes.rowSpan ?? 1) > 1) cell.rowSpan = n.attributes.rowSpan;
      row.push(cell);
    }
  }
  return [...tables.values()].filter((t) => t.rows.some((r) => r.length));
}
