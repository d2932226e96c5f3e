import type { Position } from '@docintel/contracts';
import { sameValue, typeCell } from './cell-values';
import { matchColumns, splitHeaderUnit, type ColumnMatch } from './column-matching';
import { expandRow, mergeContinuedTables, shapeTable, type ShapedTable } from './table-shape';
import type { CellEvidence, EntityCell, EntityColumnSpec, EntityRow, EntitySchemaSpec, SourceCell, SourceTable } from './types';

/** What was made of one table: whether its rows were read, and which of its columns stand for which schema column. */
export interface TableReading {
  fileId: string;
  fileName: string;
  tableId: string;
  used: boolean;
  matches: ColumnMatch[];
  why: string;
}

export interface EntityExtraction {
  rows: EntityRow[];
  tables: TableReading[];
}

const letters = (col: number): string => (col < 26 ? String.fromCharCode(65 + col) : letters(Math.floor(col / 26) - 1) + letters(col % 26));

/** Where a position is, in words a user finds it by: "Sheet1!B4", "page 2", "line 7", "paragraph 12". */
export function describePosition(p: Position | undefined): string {
  if (!p) return 'a table cell';
  if (p.type === 'CELL') return `${p.sheet_name}!${letters(p.col)}${p.row + 1}`;
  if (p.type === 'BBOX') return `page ${p.page_number}`;
  if (p.type === 'PARAGRAPH') return `paragraph ${p.paragraph_index + 1}`;
  return `line ${p.line_number}`;
}

const evidenceOf = (table: SourceTable, cell: SourceCell): CellEvidence => ({
  fileId: table.fileId,
  fileName: table.fileName,
  nodeId: cell.nodeId,
  positions: cell.positions,
  text: cell.text,
});

const where = (e: CellEvidence) => `${e.fileName}, ${describePosition(e.positions[0])}`;

/** The VALUE (or number) column a UNIT column gives the unit of: the nearest number column before it, else after it. */
function unitOwners(columns: EntityColumnSpec[]): Map<string, string> {
  const owners = new Map<string, string>();
  const numeric = (c: EntityColumnSpec) => c.role !== 'UNIT' && (c.type === 'INT' || c.type === 'FLOAT');
  columns.forEach((c, i) => {
    if (c.role !== 'UNIT') return;
    const before = columns.slice(0, i).reverse().find(numeric);
    const owner = before ?? columns.slice(i + 1).find(numeric);
    if (owner) owners.set(c.key, owner.key);
  });
  return owners;
}

/**
 * The schema's entities read from tables: continued tables joined, each table's columns matched to
 * the schema's, every body row of a table that matches enough columns (a row-key column among them
 * when the schema has row keys) becomes a row whose cells cite their table cells. Units written
 * with a value or in its header fill an unmatched UNIT column. Rows that name the same entity by
 * their row keys are merged (see mergeByRowKey).
 */
export function extractEntityRows(schema: EntitySchemaSpec, tables: SourceTable[]): EntityExtraction {
  const readings: TableReading[] = [];
  const rows: EntityRow[] = [];
  const rowKeys = schema.columns.filter((c) => c.isRowKey);
  const valueColumns = schema.columns.filter((c) => c.role !== 'UNIT');
  const needed = Math.max(1, Math.ceil(valueColumns.length / 2));
  const owners = unitOwners(schema.columns);

  for (const table of mergeContinuedTables(tables)) {
    const shaped = shapeTable(table);
    const matches = matchColumns(schema.columns, shaped);
    const byKey = new Map(matches.map((m) => [m.columnKey, m]));
    const matchedValues = valueColumns.filter((c) => byKey.has(c.key)).length;
    const reading: TableReading = { fileId: table.fileId, fileName: table.fileName, tableId: table.tableId, used: false, matches, why: '' };
    readings.push(reading);
    if (rowKeys.length && !rowKeys.some((c) => byKey.has(c.key))) {
      reading.why = `no column matches a row key (${rowKeys.map((c) => c.label).join(', ')})`;
      continue;
    }
    if (matchedValues < needed) {
      reading.why = `${matchedValues} of ${valueColumns.length} columns match; at least ${needed} are needed`;
      continue;
    }
    reading.used = true;
    reading.why = `${matches.length} of ${schema.columns.length} columns match`;
    const headerUnits = shaped.headers.map((h) => splitHeaderUnit(h).unit);
    const groupColumns = schema.columns.filter((c) => c.role === 'GROUP' && !byKey.has(c.key));
    const titleCells = table.rows.slice(0, shaped.titleRows).flatMap((r) => r.filter((c) => c.text.trim()));
    let group: SourceCell | undefined = titleCells[titleCells.length - 1];

    for (const { cells, row, subHeading } of bodyRows(
      shaped,
      matches,
      rowKeys.map((c) => byKey.get(c.key)?.tableColumn),
    )) {
      if (subHeading) {
        group = subHeading;
        continue;
      }
      const units = new Map<string, { unit: string; evidence: CellEvidence[]; from: string }>();
      const out: EntityCell[] = schema.columns.map((column) => {
        const m = byKey.get(column.key);
        const cell = m ? cells[m.tableColumn] : undefined;
        if (!m || !cell) {
          return { columnKey: column.key, value: null, explanation: `No column of this table matches "${column.label}".`, evidence: [] };
        }
        const typed = typeCell(column, cell.text, headerUnits[m.tableColumn]);
        const evidence = [evidenceOf(table, cell)];
        if (typed.unit) {
          units.set(column.key, {
            unit: typed.unit,
            evidence,
            from: typed.unit === headerUnits[m.tableColumn] ? 'its header' : 'the value',
          });
        }
        return { columnKey: column.key, value: typed.value, explanation: `${where(evidence[0])}: ${typed.note}.`, evidence };
      });
      for (const cell of out) {
        if (cell.value !== null || byKey.has(cell.columnKey)) continue;
        const owner = owners.get(cell.columnKey);
        const unit = owner ? units.get(owner) : undefined;
        if (unit) {
          const ownerLabel = schema.columns.find((c) => c.key === owner)?.label ?? owner;
          cell.value = unit.unit;
          cell.evidence = unit.evidence;
          cell.explanation = `The unit of "${ownerLabel}", written in ${unit.from} (${where(unit.evidence[0])}).`;
        } else if (group && groupColumns.some((c) => c.key === cell.columnKey)) {
          const evidence = evidenceOf(table, group);
          cell.value = group.text.trim();
          cell.evidence = [evidence];
          cell.explanation = `The heading the row stands under (${where(evidence)}).`;
        }
      }
      const title = group?.text.trim() ?? table.headings[table.headings.length - 1];
      const under = title ? ` under "${title}"` : '';
      rows.push({
        cells: out,
        explanation: `Row ${row - shaped.bodyStart + 1} of a table in ${table.fileName}${under}.`,
        sources: [{ fileId: table.fileId, fileName: table.fileName, tableId: table.tableId, row }],
      });
    }
  }
  return { rows: mergeByRowKey(schema, rows), tables: readings };
}

interface BodyRow {
  /** The row's cells over the table's columns, with cells spanning rows standing in each of them. */
  cells: Array<SourceCell | undefined>;
  /** Index of the row in the table. */
  row: number;
  /** Set when the row is a sub-heading of the rows below it rather than an entity. */
  subHeading?: SourceCell;
}

/**
 * The body rows that hold entities, their cells as a reader sees them:
 * - a cell spanning rows (rowSpan) stands in each row it spans;
 * - a header repeated inside the body, and rows empty in every matched column, are left out;
 * - a row with a single filled cell in a table of three or more columns is a sub-heading;
 * - a row holding only row-key cells between rows that lack them is a cell spanning those rows that
 *   the parser wrote as a row of its own (vertically centred): its cells go to the rows above and below.
 */
function bodyRows(shaped: ShapedTable, matches: ColumnMatch[], keyColumns: Array<number | undefined>): BodyRow[] {
  const { table, width } = shaped;
  const headerFolded = shaped.headers.map((h) => h.toLowerCase());
  const keys = new Set(keyColumns.filter((c): c is number => c !== undefined));
  const matched = matches.map((m) => m.tableColumn);
  const filled = (cells: Array<SourceCell | undefined>, col: number) => Boolean(cells[col]?.text.trim());

  const spanning: Array<{ cell: SourceCell; until: number } | undefined> = [];
  const rows: BodyRow[] = [];
  table.rows.forEach((row, index) => {
    if (index < shaped.bodyStart) return;
    const cells = expandRow(row, width);
    for (let col = 0; col < width; col++) {
      const open = spanning[col];
      if (!cells[col]?.text.trim() && open && index <= open.until) cells[col] = open.cell;
      const cell = cells[col];
      if (cell && cell !== open?.cell && (cell.rowSpan ?? 1) > 1) spanning[col] = { cell, until: index + (cell.rowSpan ?? 1) - 1 };
    }
    const texts = cells.map((c) => c?.text.trim().toLowerCase() ?? '');
    if (shaped.headerRows && texts.every((t, col) => t === headerFolded[col])) return;
    const present = cells.filter((c, col, all) => c && c.text.trim() && all.indexOf(c) === col);
    if (
      width >= 3 &&
      present.length === 1 &&
      !matched.filter((col) => !keys.has(col)).some((col) => filled(cells, col)) &&
      matched.length > 1
    ) {
      rows.push({ cells, row: index, subHeading: present[0] }); // unless it turns out to be a row-key cell spanning rows
      return;
    }
    if (!matched.some((col) => filled(cells, col))) return;
    rows.push({ cells, row: index });
  });

  // Row-key cells written as a row of their own between the rows they span.
  const keyOnly = (r: BodyRow) =>
    matched.some((col) => keys.has(col) && filled(r.cells, col)) && matched.every((col) => keys.has(col) || !filled(r.cells, col));
  const lacking = (r: BodyRow | undefined, cols: number[]) => r && !keyOnly(r) && cols.every((col) => !filled(r.cells, col));
  const out: BodyRow[] = [];
  rows.forEach((r, i) => {
    if (!keyOnly(r) || keys.size === matched.length) return out.push(r);
    const cols = [...keys].filter((col) => filled(r.cells, col));
    const neighbours = [rows[i - 1], rows[i + 1]].filter((n) => lacking(n, cols)) as BodyRow[];
    if (!neighbours.length) return out.push(r);
    for (const n of neighbours) for (const col of cols) n.cells[col] = r.cells[col];
  });
  return out;
}

const display = (v: unknown) => (typeof v === 'string' ? `"${v}"` : String(v));

/**
 * Merges rows that name the same entity: equal values (case and spacing aside) in every row-key
 * column. A rows without a value in some row-key column is never merged. A column whose rows agree
 * keeps the value with all its evidence; when they disagree the first value is kept and the
 * explanation lists every value with where it was read, so nothing is overwritten silently.
 */
export function mergeByRowKey(schema: EntitySchemaSpec, rows: EntityRow[]): EntityRow[] {
  const keyColumns = schema.columns.map((c, i) => ({ c, i })).filter(({ c }) => c.isRowKey);
  if (!keyColumns.length) return rows;
  const groups = new Map<string, EntityRow[]>();
  const order: Array<string | EntityRow> = [];
  for (const row of rows) {
    const values = keyColumns.map(({ i }) => row.cells[i].value);
    if (values.some((v) => v === null || v === '')) {
      order.push(row);
      continue;
    }
    const key = values.map((v) => String(v).trim().toLowerCase().replace(/\s+/g, ' ')).join('\u0001');
    if (!groups.has(key)) {
      groups.set(key, []);
      order.push(key);
    }
    groups.get(key)!.push(row);
  }
  return order.map((entry) => {
    if (typeof entry !== 'string') return entry;
    const group = groups.get(entry)!;
    if (group.length === 1) return group[0];
    const cells = schema.columns.map((column, i) =>
      mergeCells(
        column,
        group.map((r) => r.cells[i]),
      ),
    );
    const keyText = keyColumns.map(({ i }) => display(group[0].cells[i].value)).join(', ');
    return {
      cells,
      explanation: `${group.length} rows name ${keyText} (${keyColumns.map(({ c }) => c.label).join(', ')}): ${group.map((r) => r.explanation.replace(/\.$/, '')).join('; ')}.`,
      sources: group.flatMap((r) => r.sources),
    };
  });
}

function mergeCells(column: EntityColumnSpec, cells: EntityCell[]): EntityCell {
  const filled = cells.filter((c) => c.value !== null);
  if (!filled.length) return cells[0];
  const distinct: EntityCell[] = [];
  for (const c of filled) if (!distinct.some((d) => sameValue(d.value!, c.value!))) distinct.push(c);
  const evidence = filled.flatMap((c) => c.evidence);
  if (distinct.length === 1) {
    const explanation =
      filled.length > 1
        ? `The same in ${filled.length} rows: ${filled.map((c) => c.explanation.replace(/\.$/, '')).join('; ')}.`
        : filled[0].explanation;
    return { columnKey: column.key, value: filled[0].value, explanation, evidence };
  }
  const listed = filled.map((c) => `${display(c.value)} (${c.evidence[0] ? where(c.evidence[0]) : 'no cell'})`).join('; ');
  return {
    columnKey: column.key,
    value: filled[0].value,
    explanation: `Conflicting values for "${column.label}": ${listed}. The first is shown.`,
    evidence,
  };
}
