import type { FileTableDto } from '@docintel/contracts';
import { buildTables, CELL_CHARS } from './build-tables';
import type { TableTreeNode } from './file-tables.repository';
import { piecesOf } from './file-tables.service';

const node = (id: string, parentId: string | null, type: TableTreeNode['type'], text = '', attributes = {}): TableTreeNode => ({
  id,
  parentId,
  type,
  text,
  positions: type === 'cell' ? [{ type: 'CELL', sheet_name: 'S', row: 0, col: 0 }] : [],
  attributes,
});

describe('buildTables', () => {
  it('builds each table from its rows and cells in reading order, with the headings above it', () => {
    const tables = buildTables('f', 'report.xlsx', [
      node('s1', 'root', 'section', '', { name: 'Prices' }),
      node('h1', 's1', 'heading', 'Price list'),
      node('t1', 's1', 'table'),
      node('r1', 't1', 'row'),
      node('c1', 'r1', 'cell', 'Product', { header: true }),
      node('c2', 'r1', 'cell', 'Price', { header: true, colSpan: 2 }),
      node('r2', 't1', 'row'),
      node('c3', 'r2', 'cell', 'Widget', { rowSpan: 2 }),
      node('c4', 'r2', 'cell', '4.50'),
      node('h2', 'root', 'heading', 'Staff'),
      node('t2', 'root', 'table'),
      node('r3', 't2', 'row'),
      node('c5', 'r3', 'cell', 'Ann'),
    ]);
    expect(tables.map((t) => [t.tableId, t.headings, t.rows.map((r) => r.map((c) => c.text))])).toEqual([
      [
        't1',
        ['Prices', 'Price list'],
        [
          ['Product', 'Price'],
          ['Widget', '4.50'],
        ],
      ],
      ['t2', ['Price list', 'Staff'], [['Ann']]],
    ]);
    expect(tables[0].rows[0][1]).toMatchObject({ nodeId: 'c2', header: true, colSpan: 2 });
    expect(tables[0].rows[1][0]).toMatchObject({ nodeId: 'c3', rowSpan: 2 });
    expect(tables[0].rows[1][1]).toEqual({ nodeId: 'c4', text: '4.50', positions: [{ type: 'CELL', sheet_name: 'S', row: 0, col: 0 }] });
  });

  it('keeps a table nested in a cell apart, drops tables without cells, and cuts very long cell texts', () => {
    const tables = buildTables('f', 'a.docx', [
      node('t1', null, 'table'),
      node('r1', 't1', 'row'),
      node('c1', 'r1', 'cell', 'x'.repeat(CELL_CHARS + 50)),
      node('t2', 'c1', 'table'),
      node('r2', 't2', 'row'),
      node('c2', 'r2', 'cell', 'inner'),
      node('t3', null, 'table'),
    ]);
    expect(tables.map((t) => t.tableId)).toEqual(['t1', 't2']);
    expect(tables[0].rows[0][0].text).toHaveLength(CELL_CHARS);
    expect(tables[1].rows).toEqual([[expect.objectContaining({ text: 'inner' })]]);
  });
});

describe('piecesOf', () => {
  it('splits a table too large for a reply into consecutive pieces of whole rows under the budget', () => {
    const table: FileTableDto = {
      fileId: 'f',
      fileName: 'big.csv',
      tableId: 't',
      headings: [],
      rows: Array.from({ length: 100 }, (_, r) => [{ nodeId: `n${r}`, text: 'v'.repeat(100), positions: [] }]),
    };
    const pieces = piecesOf(table, 2000);
    expect(pieces.length).toBeGreaterThan(5);
    expect(pieces.every((p) => p.tableId === 't' && Buffer.byteLength(JSON.stringify(p)) < 2500)).toBe(true);
    expect(pieces.flatMap((p) => p.rows)).toEqual(table.rows);
    expect(piecesOf(table, 1e9)).toEqual([table]);
  });
});
