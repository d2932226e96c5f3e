import { parseNumber } from '../typed/numbers';
import { foldLabel } from '../typed/text';
import type { SourceCell, SourceTable } from './types';

/** A table with its header told apart from its body, and one header text per column. */
export interface ShapedTable {
  table: SourceTable;
  /** How many leading rows are header rows. */
  headerRows: number;
  /** Per column: the header texts of that column joined ("Dose (mg)", "Arm Placebo"). */
  headers: string[];
  width: number;
}

/** Pages a table's cells are on (BBOX positions), ascending; empty for formats without pages. */
export function pagesOf(table: SourceTable): number[] {
  const pages = new Set<number>();
  for (const row of table.rows) for (const cell of row) for (const p of cell.positions) if (p.type === 'BBOX') pages.add(p.page_number);
  return [...pages].sort((a, b) => a - b);
}

export function widthOf(table: SourceTable): number {
  return Math.max(0, ...table.rows.map((r) => r.reduce((n, c) => n + Math.max(1, c.colSpan ?? 1), 0)));
}

const isNumeric = (text: string) => {
  const t = text.trim();
  if (!t) return false;
  const n = parseNumber(t);
  // "12", "4.50 EUR", "30%" are values; "Phase 2 trial" is a label that holds a number.
  return n !== null && n.end - n.start >= t.replace(/\s+/g, ' ').length * 0.5;
};

/** A row that reads as a header: marked so by the parser, or text labels only with no value among them. */
function looksLikeHeader(row: SourceCell[]): boolean {
  const filled = row.filter((c) => c.text.trim());
  if (!filled.length) return false;
  if (filled.every((c) => c.header)) return true;
  return filled.every((c) => !isNumeric(c.text)) && filled.length >= Math.ceil(row.length / 2);
}

/** Spreads a row over the table's columns: a cell spanning two columns stands in both. */
export function expandRow(row: SourceCell[], width: number): Array<SourceCell | undefined> {
  const out: Array<SourceCell | undefined> = [];
  for (const cell of row) for (let i = 0; i < Math.max(1, cell.colSpan ?? 1); i++) out.push(cell);
  while (out.length < width) out.push(undefined);
  return out.slice(0, width);
}

/**
 * Finds the header: the leading rows the parser marked as header, or else the first row when it is
 * all labels and either names every column once or stands above values.
 * A second leading row of labels under a row with spanning cells (group headers) is a header too.
 */
export function shapeTable(table: SourceTable): ShapedTable {
  const width = widthOf(table);
  let headerRows = 0;
  const marked = (row: SourceCell[]) => row.some((c) => c.text.trim()) && row.filter((c) => c.text.trim()).every((c) => c.header);
  while (headerRows < table.rows.length - 1 && marked(table.rows[headerRows])) headerRows++;
  if (!headerRows && table.rows.length > 1 && looksLikeHeader(table.rows[0])) {
    const body = table.rows.slice(1);
    const first = table.rows[0].map((c) => foldLabel(c.text));
    const named = first.every(Boolean) && new Set(first).size === first.length;
    if (named || body.some((r) => r.some((c) => isNumeric(c.text)))) headerRows = 1;
    const spans = table.rows[0].some((c) => (c.colSpan ?? 1) > 1);
    if (headerRows && spans && table.rows.length > 2 && looksLikeHeader(table.rows[1])) headerRows = 2;
  }
  const headers = Array.from({ length: width }, (_, col) => {
    const parts: string[] = [];
    for (const row of table.rows.slice(0, headerRows)) {
      const text = expandRow(row, width)[col]?.text.trim();
      if (text && parts[parts.length - 1] !== text) parts.push(text);
    }
    return parts.join(' ');
  });
  return { table, headerRows, headers, width };
}

const sameRow = (a: SourceCell[], b: SourceCell[]) =>
  a.length === b.length && a.every((c, i) => foldLabel(c.text) === foldLabel(b[i].text));

/**
 * Joins tables that run over a page break into one: a table on the page after the previous table of
 * the same file, with as many columns, whose first row repeats the previous table's header (then
 * dropped) or is no header at all (the rows just go on). Tables without pages (spreadsheets, text
 * formats) are never joined. Order is kept.
 */
export function mergeContinuedTables(tables: SourceTable[]): SourceTable[] {
  const out: SourceTable[] = [];
  let previous: { table: SourceTable; shape: ShapedTable; lastPage: number } | undefined;
  for (const table of tables) {
    const pages = pagesOf(table);
    const shape = shapeTable(table);
    if (
      previous &&
      pages.length &&
      previous.table.fileId === table.fileId &&
      pages[0] === previous.lastPage + 1 &&
      shape.width === previous.shape.width
    ) {
      const header = previous.shape.table.rows.slice(0, previous.shape.headerRows);
      const repeats = header.length > 0 && header.every((row, i) => table.rows[i] && sameRow(row, table.rows[i]));
      if (repeats || shape.headerRows === 0) {
        const body = repeats ? table.rows.slice(header.length) : table.rows;
        const merged: SourceTable = { ...previous.table, rows: [...previous.table.rows, ...body] };
        out[out.length - 1] = merged;
        previous = { table: merged, shape: { ...previous.shape, table: merged }, lastPage: pages[pages.length - 1] };
        continue;
      }
    }
    out.push(table);
    previous = pages.length ? { table, shape, lastPage: pages[pages.length - 1] } : undefined;
  }
  return out;
}
