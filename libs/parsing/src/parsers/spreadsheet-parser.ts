import * as XLSX from 'xlsx';
import { asParseError, corrupt, encrypted, limitExceeded } from '../errors';
import type { DocumentMetadata } from '../model';
import type { ParseContext, Parser, ParserResult } from '../parser';
import { heading, node } from '../support/nodes';
import { readZipEntries } from '../support/zip';

/**
 * XLSX, XLS (BIFF5/8) and ODS through SheetJS: every sheet with data becomes a section headed by the
 * sheet name holding one table; every cell keeps its CELL position (0-based row and col) and its
 * displayed (formatted) value. Merged ranges become spans on their top-left cell.
 */
export class SpreadsheetParser implements Parser {
  readonly family = 'spreadsheet' as const;

  async parse(ctx: ParseContext): Promise<ParserResult> {
    if (ctx.format.extension === 'ods') inspectOds(ctx);
    let wb: XLSX.WorkBook;
    try {
      wb = XLSX.read(ctx.bytes, {
        type: 'buffer',
        cellFormula: false,
        cellHTML: false,
        cellStyles: false,
        cellDates: true,
        // Rows past the cell budget are never materialised (repeated-row bombs in ODS).
        sheetRows: Math.min(ctx.limits.maxCells, 1_048_576) + 1,
      });
    } catch (e) {
      throw asParseError(e, 'workbook');
    }
    ctx.checkpoint();
    const root = node('document');
    let cells = 0;
    for (const name of wb.SheetNames) {
      const sheet = wb.Sheets[name];
      const rows = cellRows(sheet);
      const table = node('table');
      const spans = new Map<string, { rowSpan: number; colSpan: number }>();
      for (const m of sheet['!merges'] ?? []) spans.set(`${m.s.r}:${m.s.c}`, { rowSpan: m.e.r - m.s.r + 1, colSpan: m.e.c - m.s.c + 1 });
      for (const [r, row] of rows) {
        let last = -1;
        row.forEach((cell, c) => {
          if (cell && display(cell) !== '') last = c;
        });
        if (last < 0) continue;
        cells += last + 1;
        if (cells > ctx.limits.maxCells) {
          throw limitExceeded(`The workbook has more than ${ctx.limits.maxCells} cells, which is over the limit.`);
        }
        const rowNode = node('row', '', [], [{ type: 'CELL', sheet_name: name, row: r, col: 0 }]);
        for (let c = 0; c <= last; c++) {
          const cell = row[c];
          const span = spans.get(`${r}:${c}`);
          const attributes = span
            ? { ...(span.rowSpan > 1 ? { rowSpan: span.rowSpan } : {}), ...(span.colSpan > 1 ? { colSpan: span.colSpan } : {}) }
            : undefined;
          rowNode.children.push(
            node('cell', cell ? display(cell) : '', [], [{ type: 'CELL', sheet_name: name, row: r, col: c }], attributes),
          );
        }
        table.children.push(rowNode);
      }
      ctx.checkpoint();
      // A sheet without cells (a chart sheet, or data this reader cannot see) still appears, by name.
      root.children.push(node('section', '', table.children.length ? [heading(name, 2), table] : [heading(name, 2)], [], { name }));
    }
    const warnings = cells === 0 ? ['The workbook has no cell values that could be read (for example only charts).'] : [];
    return { root, metadata: workbookMetadata(wb), warnings };
  }
}

/** Non-empty cells grouped by row, in row order; only stored cells are visited, never the whole range. */
function cellRows(sheet: XLSX.WorkSheet): [number, (XLSX.CellObject | undefined)[]][] {
  const rows = new Map<number, (XLSX.CellObject | undefined)[]>();
  for (const key of Object.keys(sheet)) {
    if (key.startsWith('!')) continue;
    const { r, c } = XLSX.utils.decode_cell(key);
    let row = rows.get(r);
    if (!row) rows.set(r, (row = []));
    row[c] = sheet[key] as XLSX.CellObject;
  }
  return [...rows.entries()].sort((a, b) => a[0] - b[0]);
}

function display(cell: XLSX.CellObject): string {
  if (cell.t === 'z' || cell.v === undefined || cell.v === null) return '';
  if (cell.t === 'e') return cell.w ?? '';
  if (cell.w !== undefined) return cell.w.trim();
  if (cell.v instanceof Date) return cell.v.toISOString().slice(0, 10);
  return String(cell.v).trim();
}

function workbookMetadata(wb: XLSX.WorkBook): DocumentMetadata {
  const p = wb.Props ?? {};
  const meta: DocumentMetadata = { sheetCount: wb.SheetNames.length };
  if (p.Title) meta.title = p.Title;
  if (p.Author) meta.authors = [p.Author];
  if (p.CreatedDate) meta.creationDate = new Date(p.CreatedDate).toISOString();
  if (p.ModifiedDate) meta.modificationDate = new Date(p.ModifiedDate).toISOString();
  return meta;
}

/** The largest sheet any spreadsheet application opens (Excel's and LibreOffice's grid). */
const MAX_ROWS = 1_048_576;
const MAX_COLS = 16_384;

/**
 * Checks an ODS before reading it: an encrypted one is a normal ZIP whose manifest declares
 * encryption data, and repeat counts beyond any real grid are a decompression bomb.
 */
function inspectOds(ctx: ParseContext): void {
  const parts = readZipEntries(
    ctx.bytes,
    (n) => n === 'META-INF/manifest.xml' || n === 'content.xml',
    Math.max(ctx.limits.maxBytes, 64 * 1024 * 1024),
    'spreadsheet',
  );
  if (parts.get('META-INF/manifest.xml')?.toString('utf8').includes('encryption-data')) throw encrypted('spreadsheet');
  const content = parts.get('content.xml')?.toString('utf8') ?? '';
  for (const m of content.matchAll(/number-(rows|columns)-repeated="(\d+)"/g)) {
    const n = Number(m[2]);
    if ((m[1] === 'rows' && n > MAX_ROWS) || (m[1] === 'columns' && n > MAX_COLS)) {
      throw corrupt(`the spreadsheet declares ${n} repeated ${m[1]}, more than any sheet can hold.`);
    }
  }
}
