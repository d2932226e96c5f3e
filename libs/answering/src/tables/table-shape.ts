import { parseNumber } from '../typed/numbers';
import { foldLabel } from '../typed/text';
import type { SourceCell, SourceTable } from './types';

/** A table with its header told apart from its body, and one header text per column. */
export interface ShapedTable {
  table: SourceTable;
  /** Leading rows that only title the table (one filled cell each). */
  titleRows: number;
  /** Header rows after the title rows. */
  headerRows: number;
  /** Where the body starts: titleRows + headerRows. */
  bodyStart: number;
  /** The title rows' texts. */
  titles: string[];
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
  return filled.every((c) => !isNumeric(c.text)) && filled.length >= Math.ceil(row.length / 2);
}

/** A cell's shape: runs of letters and of digits collapsed ("DHAW20190001" → "a9", "05/03/2019" → "9/9/9"). */
const shapeOf = (text: string) =>
  text
    .trim()
    .replace(/\p{L}+/gu, 'a')
    .replace(/\p{N}+/gu, '9');

/**
 * A row the parser marked as header that is shaped like the rows below it in every filled column,
 * digits included (an ID and a date like the body's): the parser took the first data row for a header.
 */
function shapedLikeBody(row: SourceCell[], body: SourceCell[][], width: number): boolean {
  if (!body.length) return false;
  const cells = expandRow(row, width);
  const rows = body.map((r) => expandRow(r, width));
  let digits = false;
  for (let col = 0; col < width; col++) {
    const text = cells[col]?.text.trim();
    if (!text) continue;
    const counts = new Map<string, number>();
    for (const r of rows) {
      const t = r[col]?.text.trim();
      if (t) counts.set(shapeOf(t), (counts.get(shapeOf(t)) ?? 0) + 1);
    }
    const common = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
    if (common !== shapeOf(text)) return false;
    digits ||= /9/.test(common);
  }
  return digits;
}

/** Spreads a row over the table's columns: a cell spanning two columns stands in both. */
export function expandRow(row: SourceCell[], width: number): Array<SourceCell | undefined> {
  const out: Array<SourceCell | undefined> = [];
  for (const cell of row) for (let i = 0; i < Math.max(1, cell.colSpan ?? 1); i++) out.push(cell);
  while (out.length < width) out.push(undefined);
  return out.slice(0, width);
}

/**
 * Finds the title and the header. Title rows: leading rows with at most one filled cell in a
 * table of several columns ("Stanley Cups", "Revenue, in millions of CHF"). Header: the rows after
 * them that the parser marked as header, or else the first row when it is all labels and either
 * names each of its columns once (empty cells only over empty columns) or stands above values. A
 * second row of labels under a row with spanning cells (group headers) is a header too.
 */
export function shapeTable(table: SourceTable): ShapedTable {
  const width = widthOf(table);
  const filled = (row: SourceCell[]) => row.filter((c) => c.text.trim());
  let titleRows = 0;
  while (width > 1 && titleRows < table.rows.length - 2 && filled(table.rows[titleRows]).length <= 1) titleRows++;
  const rows = table.rows.slice(titleRows);
  let headerRows = 0;
  const marked = (row: SourceCell[]) =>
    filled(row).length > 0 && filled(row).every((c) => c.header) && !shapedLikeBody(row, rows.slice(1), width);
  while (headerRows < rows.length - 1 && marked(rows[headerRows])) headerRows++;
  if (!headerRows && rows.length > 1 && looksLikeHeader(rows[0]) && !shapedLikeBody(rows[0], rows.slice(1), width)) {
    const body = rows.slice(1).map((r) => expandRow(r, width));
    const first = expandRow(rows[0], width).map((c) => foldLabel(c?.text ?? ''));
    const labels = first.filter(Boolean);
    const emptyBelow = (col: number) => body.filter((r) => r[col]?.text.trim()).length <= body.length / 4;
    const named = labels.length >= 2 && new Set(labels).size === labels.length && first.every((l, col) => l || emptyBelow(col));
    if (named || body.some((r) => r.some((c) => c && isNumeric(c.text)))) headerRows = 1;
    const spans = rows[0].some((c) => (c.colSpan ?? 1) > 1);
    if (headerRows && spans && rows.length > 2 && looksLikeHeader(rows[1])) headerRows = 2;
  }
  // A header wrapped over two lines: labels under the header only above columns of numbers.
  if (headerRows && rows.length > headerRows + 1) {
    const next = expandRow(rows[headerRows], width);
    const below = rows.slice(headerRows + 1).map((r) => expandRow(r, width));
    const numericBelow = (col: number) => {
      const texts = below.map((r) => r[col]?.text.trim() ?? '').filter(Boolean);
      return texts.length > 0 && texts.filter(isNumeric).length >= 0.6 * texts.length;
    };
    const labelsOnly = next.some((c) => c?.text.trim()) && next.every((c) => !c?.text.trim() || !isNumeric(c.text));
    if (labelsOnly && next.every((c, col) => !c?.text.trim() || numericBelow(col))) headerRows++;
  }
  const headers = Array.from({ length: width }, (_, col) => {
    const parts: string[] = [];
    for (const row of rows.slice(0, headerRows)) {
      const text = expandRow(row, width)[col]?.text.trim();
      if (text && parts[parts.length - 1] !== text) parts.push(text);
    }
    return parts.join(' ');
  });
  const titles = table.rows.slice(0, titleRows).flatMap((r) => filled(r).map((c) => c.text.trim()));
  return { table, titleRows, headerRows, bodyStart: titleRows + headerRows, headers, titles, width };
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
      const header = previous.shape.table.rows.slice(previous.shape.titleRows, previous.shape.bodyStart);
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
