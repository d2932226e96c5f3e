import type { Position } from '@docintel/contracts';
import { extractEntityRows, mergeByRowKey } from './entity-rows';
import { mergeContinuedTables, shapeTable } from './table-shape';
import type { EntityRow, EntitySchemaSpec, SourceTable } from './types';

let ids = 0;
/** A PDF-like table: each row on the page given, cells with boxes. */
function pdfTable(fileId: string, rows: Array<{ page: number; cells: string[] }>, header = false): SourceTable {
  return {
    fileId,
    fileName: `${fileId}.pdf`,
    tableId: `t${++ids}`,
    headings: ['Results'],
    rows: rows.map((r, i) =>
      r.cells.map((text, col) => ({
        nodeId: `n${++ids}`,
        text,
        header: header && i === 0 ? true : undefined,
        positions: [
          {
            type: 'BBOX',
            page_number: r.page,
            bbox: { x0: 50 + 100 * col, y0: 100 + 20 * i, x1: 140 + 100 * col, y1: 115 + 20 * i },
          } as Position,
        ],
      })),
    ),
  };
}

/** A spreadsheet-like table: CELL positions on a sheet. */
function sheetTable(fileId: string, sheet: string, rows: string[][]): SourceTable {
  return {
    fileId,
    fileName: `${fileId}.xlsx`,
    tableId: `t${++ids}`,
    headings: [sheet],
    rows: rows.map((cells, r) =>
      cells.map((text, col) => ({ nodeId: `n${++ids}`, text, positions: [{ type: 'CELL', sheet_name: sheet, row: r, col } as Position] })),
    ),
  };
}

const value = (row: EntityRow, key: string) => row.cells.find((c) => c.columnKey === key)?.value;
const cell = (row: EntityRow, key: string) => row.cells.find((c) => c.columnKey === key)!;

const TRIAL: EntitySchemaSpec = {
  name: 'Trial arms',
  columns: [
    { key: 'arm', label: 'Arm', type: 'STRING', role: 'IDENTIFIER', isRowKey: true },
    { key: 'n', label: 'Number of patients', type: 'INT', role: 'VALUE', description: 'patients enrolled (n)' },
    { key: 'dose', label: 'Dose', type: 'FLOAT', role: 'VALUE' },
    { key: 'unit', label: 'Dose unit', type: 'STRING', role: 'UNIT' },
    { key: 'response', label: 'Response rate', type: 'FLOAT', role: 'VALUE' },
  ],
};

describe('extractEntityRows on a table that runs over a page break', () => {
  const page1 = pdfTable('trial', [
    { page: 3, cells: ['Arm', 'Patients (n)', 'Dose (mg)', 'Response rate'] },
    { page: 3, cells: ['Placebo', '120', '0', '12.5%'] },
    { page: 3, cells: ['Low dose', '118', '2.5', '31%'] },
  ]);
  const page2 = pdfTable('trial', [
    { page: 4, cells: ['Arm', 'Patients (n)', 'Dose (mg)', 'Response rate'] },
    { page: 4, cells: ['High dose', '121', '5', '44.0%'] },
  ]);

  it('gives one row per arm, from both pages, typed as the schema says', () => {
    const { rows, tables } = extractEntityRows(TRIAL, [page1, page2]);
    expect(tables).toHaveLength(1); // joined into one table
    expect(rows.map((r) => value(r, 'arm'))).toEqual(['Placebo', 'Low dose', 'High dose']);
    expect(rows.map((r) => value(r, 'n'))).toEqual([120, 118, 121]);
    expect(rows.map((r) => value(r, 'dose'))).toEqual([0, 2.5, 5]);
    expect(rows.map((r) => value(r, 'response'))).toEqual([12.5, 31, 44]);
  });

  it('fills the UNIT column from the value column’s header, citing the value cell', () => {
    const { rows } = extractEntityRows(TRIAL, [page1, page2]);
    expect(rows.map((r) => value(r, 'unit'))).toEqual(['mg', 'mg', 'mg']);
    expect(cell(rows[2], 'unit').explanation).toContain('header');
    expect(cell(rows[2], 'unit').evidence[0].text).toBe('5');
  });

  it('cites each cell’s own node, with its page', () => {
    const { rows } = extractEntityRows(TRIAL, [page1, page2]);
    const high = cell(rows[2], 'n');
    expect(high.evidence).toHaveLength(1);
    expect(high.evidence[0]).toMatchObject({ fileId: 'trial', text: '121', positions: [{ type: 'BBOX', page_number: 4 }] });
    expect(high.explanation).toContain('page 4');
  });

  it('does not join tables of different widths or on pages that do not follow', () => {
    const far = pdfTable('trial', [
      { page: 9, cells: ['Arm', 'Patients (n)', 'Dose (mg)', 'Response rate'] },
      { page: 9, cells: ['Open label', '30', '5', '40%'] },
    ]);
    expect(mergeContinuedTables([page1, far])).toHaveLength(2);
    const narrow = pdfTable('trial', [{ page: 4, cells: ['Total', '359'] }]);
    expect(mergeContinuedTables([page1, narrow])).toHaveLength(2);
  });

  it('joins a continuation without a repeated header', () => {
    const rest = pdfTable('trial', [{ page: 4, cells: ['High dose', '121', '5', '44.0%'] }]);
    const [joined] = mergeContinuedTables([page1, rest]);
    expect(joined.rows).toHaveLength(4);
  });
});

describe('column matching', () => {
  it('matches columns by header meaning, not position, and ignores unrelated tables', () => {
    const prices: EntitySchemaSpec = {
      name: 'Products',
      columns: [
        { key: 'product', label: 'Product', type: 'STRING', role: 'IDENTIFIER', isRowKey: true },
        { key: 'price', label: 'Unit price', type: 'FLOAT', role: 'VALUE' },
        { key: 'currency', label: 'Currency', type: 'STRING', role: 'UNIT' },
        { key: 'stock', label: 'Stock', type: 'INT', role: 'VALUE', description: 'units in stock' },
      ],
    };
    const sheet = sheetTable('inventory', 'Inventory', [
      ['Stock', 'Price', 'Product name'],
      ['120', '€4.75', 'Widget'],
      ['30', '€12.50', 'Gadget'],
    ]);
    const staff = sheetTable('inventory', 'Staff', [
      ['Name', 'Office'],
      ['Ann', 'Berlin'],
    ]);
    const { rows, tables } = extractEntityRows(prices, [sheet, staff]);
    expect(tables.map((t) => t.used)).toEqual([true, false]);
    expect(rows.map((r) => [value(r, 'product'), value(r, 'price'), value(r, 'currency'), value(r, 'stock')])).toEqual([
      ['Widget', 4.75, 'EUR', 120],
      ['Gadget', 12.5, 'EUR', 30],
    ]);
    expect(cell(rows[1], 'price').explanation).toContain('Inventory!B3');
  });

  it('takes a column whose cells are the allowed values, and leaves other values empty with the reason', () => {
    const schema: EntitySchemaSpec = {
      name: 'Studies',
      columns: [
        { key: 'study', label: 'Study', type: 'STRING', role: 'IDENTIFIER' },
        { key: 'phase', label: 'Phase', type: 'STRING', role: 'GROUP', allowedValues: ['Phase I', 'Phase II', 'Phase III'] },
      ],
    };
    const table = sheetTable('s', 'Sheet1', [
      ['Study', 'Stage'],
      ['ALPHA-1', 'phase II'],
      ['BETA-2', 'Phase III'],
      ['GAMMA-3', 'preclinical'],
    ]);
    const { rows } = extractEntityRows(schema, [table]);
    expect(rows.map((r) => value(r, 'phase'))).toEqual(['Phase II', 'Phase III', null]);
    expect(cell(rows[2], 'phase').explanation).toContain('none of the allowed values');
  });

  it('rounds a fraction in an INT column and says so', () => {
    const schema: EntitySchemaSpec = {
      name: 'Counts',
      columns: [
        { key: 'site', label: 'Site', type: 'STRING', role: 'IDENTIFIER' },
        { key: 'visits', label: 'Visits', type: 'INT', role: 'VALUE' },
      ],
    };
    const { rows } = extractEntityRows(schema, [
      sheetTable('c', 'S', [
        ['Site', 'Visits'],
        ['Lyon', '12.6'],
        ['Nice', '1,204'],
      ]),
    ]);
    expect(rows.map((r) => value(r, 'visits'))).toEqual([13, 1204]);
    expect(cell(rows[0], 'visits').explanation).toContain('rounded');
  });

  it('reads yes/no cells for BOOL columns', () => {
    const schema: EntitySchemaSpec = {
      name: 'Features',
      columns: [
        { key: 'plan', label: 'Plan', type: 'STRING', role: 'IDENTIFIER' },
        { key: 'sso', label: 'Single sign-on', type: 'BOOL', role: 'VALUE' },
      ],
    };
    const { rows } = extractEntityRows(schema, [
      sheetTable('f', 'S', [
        ['Plan', 'Single sign-on'],
        ['Free', 'No'],
        ['Team', '✓'],
        ['Pro', 'maybe'],
      ]),
    ]);
    expect(rows.map((r) => value(r, 'sso'))).toEqual([false, true, null]);
  });
});

describe('rows as a reader sees them', () => {
  it('takes a row with one filled cell for a sub-heading, and fills GROUP columns from it and the title', () => {
    const schema: EntitySchemaSpec = {
      name: 'Pages',
      columns: [
        { key: 'topic', label: 'Topic', type: 'STRING', role: 'IDENTIFIER', isRowKey: true },
        { key: 'section', label: 'Section', type: 'STRING', role: 'GROUP' },
        { key: 'page', label: 'Page', type: 'INT', role: 'VALUE' },
      ],
    };
    const table = sheetTable('report', 'Index', [
      ['Financial performance', '', ''],
      ['Topic', 'Period', 'Page'],
      ['Revenue', 'FY 23', '1'],
      ['Operational metrics', '', ''],
      ['Topic', 'Period', 'Page'],
      ['Churn', 'Q2', '6'],
    ]);
    const { rows } = extractEntityRows(schema, [table]);
    expect(rows.map((r) => [value(r, 'topic'), value(r, 'section'), value(r, 'page')])).toEqual([
      ['Revenue', 'Financial performance', 1],
      ['Churn', 'Operational metrics', 6],
    ]);
    expect(cell(rows[1], 'section').evidence[0].positions).toEqual([{ type: 'CELL', sheet_name: 'Index', row: 3, col: 0 }]);
  });

  it('gives row-key cells written as a row of their own to the rows above and below that lack them', () => {
    const schema: EntitySchemaSpec = {
      name: 'Configurations',
      columns: [
        { key: 'layers', label: 'Layers', type: 'INT', role: 'IDENTIFIER', isRowKey: true },
        { key: 'format', label: 'Format', type: 'STRING', role: 'GROUP', isRowKey: true },
        { key: 'score', label: 'Score', type: 'FLOAT', role: 'VALUE' },
      ],
    };
    const table = pdfTable('paper', [
      { page: 1, cells: ['Layers', 'Format', 'Score'] },
      { page: 1, cells: ['', 'OTSL', '0.95'] },
      { page: 1, cells: ['6', '', ''] },
      { page: 1, cells: ['', 'HTML', '0.93'] },
      { page: 1, cells: ['', 'OTSL', '0.92'] },
      { page: 1, cells: ['4', '', ''] },
      { page: 1, cells: ['', 'HTML', '0.90'] },
    ]);
    const { rows } = extractEntityRows(schema, [table]);
    expect(rows.map((r) => [value(r, 'layers'), value(r, 'format'), value(r, 'score')])).toEqual([
      [6, 'OTSL', 0.95],
      [6, 'HTML', 0.93],
      [4, 'OTSL', 0.92],
      [4, 'HTML', 0.9],
    ]);
    expect(cell(rows[1], 'layers').evidence[0].text).toBe('6');
  });

  it('fills a cell spanning rows into each row it spans', () => {
    const schema: EntitySchemaSpec = {
      name: 'Doses',
      columns: [
        { key: 'drug', label: 'Drug', type: 'STRING', role: 'GROUP' },
        { key: 'dose', label: 'Dose', type: 'FLOAT', role: 'VALUE' },
      ],
    };
    const table = sheetTable('d', 'S', [
      ['Drug', 'Dose'],
      ['Aspirin', '100'],
      ['', '300'],
      ['Ibuprofen', '200'],
    ]);
    table.rows[1][0].rowSpan = 2;
    const { rows } = extractEntityRows(schema, [table]);
    expect(rows.map((r) => [value(r, 'drug'), value(r, 'dose')])).toEqual([
      ['Aspirin', 100],
      ['Aspirin', 300],
      ['Ibuprofen', 200],
    ]);
  });
});

describe('row keys', () => {
  const schema: EntitySchemaSpec = {
    name: 'Products',
    columns: [
      { key: 'product', label: 'Product', type: 'STRING', role: 'IDENTIFIER', isRowKey: true },
      { key: 'price', label: 'Price', type: 'FLOAT', role: 'VALUE' },
      { key: 'stock', label: 'Stock', type: 'INT', role: 'VALUE' },
    ],
  };

  it('merges what two files say of one entity, and keeps a conflict visible', () => {
    const a = sheetTable('a', 'Prices', [
      ['Product', 'Price'],
      ['Widget', '4.75'],
      ['Gadget', '12.50'],
    ]);
    const b = sheetTable('b', 'Stock', [
      ['Product', 'Stock', 'Price'],
      ['widget', '120', '4.75'],
      ['Gadget', '30', '13.00'],
    ]);
    const { rows } = extractEntityRows(schema, [a, b]);
    expect(rows).toHaveLength(2);
    const [widget, gadget] = rows;
    expect([value(widget, 'product'), value(widget, 'price'), value(widget, 'stock')]).toEqual(['Widget', 4.75, 120]);
    expect(cell(widget, 'price').evidence.map((e) => e.fileId)).toEqual(['a', 'b']);
    expect(widget.sources.map((s) => s.fileId)).toEqual(['a', 'b']);
    expect(value(gadget, 'price')).toBe(12.5);
    expect(cell(gadget, 'price').explanation).toMatch(/Conflicting values.*12\.5 \(a\.xlsx, Prices!B3\).*13 \(b\.xlsx, Stock!C3\)/);
    expect(cell(gadget, 'price').evidence).toHaveLength(2);
  });

  it('never merges rows without a key value', () => {
    const rows = mergeByRowKey(schema, [
      {
        cells: [
          { columnKey: 'product', value: null, explanation: '', evidence: [] },
          { columnKey: 'price', value: 1, explanation: '', evidence: [] },
          { columnKey: 'stock', value: null, explanation: '', evidence: [] },
        ],
        explanation: 'a',
        sources: [],
      },
      {
        cells: [
          { columnKey: 'product', value: null, explanation: '', evidence: [] },
          { columnKey: 'price', value: 2, explanation: '', evidence: [] },
          { columnKey: 'stock', value: null, explanation: '', evidence: [] },
        ],
        explanation: 'b',
        sources: [],
      },
    ]);
    expect(rows).toHaveLength(2);
  });

  it('skips a table without a row-key column and says why', () => {
    const { rows, tables } = extractEntityRows(schema, [
      sheetTable('c', 'S', [
        ['Price', 'Stock'],
        ['4', '5'],
      ]),
    ]);
    expect(rows).toEqual([]);
    expect(tables[0]).toMatchObject({ used: false, why: expect.stringContaining('row key') });
  });
});

describe('shapeTable', () => {
  it('finds a header row of labels above values or naming every column, and none otherwise', () => {
    expect(
      shapeTable(
        sheetTable('x', 'S', [
          ['Name', 'Age'],
          ['Ann', '34'],
        ]),
      ).headerRows,
    ).toBe(1);
    expect(
      shapeTable(
        sheetTable('x', 'S', [
          ['Name', 'Office'],
          ['Ann', 'Berlin'],
        ]),
      ).headerRows,
    ).toBe(1);
    expect(
      shapeTable(
        sheetTable('x', 'S', [
          ['1', '2'],
          ['3', '4'],
        ]),
      ).headerRows,
    ).toBe(0);
    expect(
      shapeTable(
        sheetTable('x', 'S', [
          ['Ann', ''],
          ['Bob', 'Berlin'],
        ]),
      ).headerRows,
    ).toBe(0);
  });

  it('passes over title rows above the header, and columns empty in header and body alike', () => {
    const shaped = shapeTable(
      sheetTable('x', 'S', [
        ['', 'Number of freshwater ducks', ''],
        ['', 'Year', 'Ducks'],
        ['', '2019', '120'],
        ['', '2020', '135'],
      ]),
    );
    expect(shaped).toMatchObject({
      titleRows: 1,
      headerRows: 1,
      bodyStart: 2,
      titles: ['Number of freshwater ducks'],
      headers: ['', 'Year', 'Ducks'],
    });
  });

  it('joins a header wrapped over two lines above columns of numbers', () => {
    const table = pdfTable(
      'corrosion',
      [
        { page: 1, cells: ['Inhibitor', 'Polarization', 'Corrosion'] },
        { page: 1, cells: ['concentration (g)', 'resistance (Ω)', 'rate (mm/year)'] },
        { page: 1, cells: ['0', '24.0910', '2.8163'] },
        { page: 1, cells: ['2', '121.440', '1.5054'] },
      ],
      true,
    );
    const shaped = shapeTable(table);
    expect(shaped.headerRows).toBe(2);
    expect(shaped.headers).toEqual(['Inhibitor concentration (g)', 'Polarization resistance (Ω)', 'Corrosion rate (mm/year)']);
    // A first data row with a label over a column of labels is not taken for a wrapped header.
    const arms = shapeTable(
      sheetTable('x', 'S', [
        ['Arm', 'Patients'],
        ['Placebo', ''],
        ['Active', '12'],
      ]),
    );
    expect(arms.headerRows).toBe(1);
  });

  it('does not take a first data row the parser marked as header for a header', () => {
    const table = pdfTable(
      'expenses',
      [
        { page: 1, cells: ['DHAW20190001', '05/03/2019', 'CITIBANK - TRAVEL CBA CARD'] },
        { page: 1, cells: ['DHAW20190002', '05/24/2019', 'CITIBANK - TRAVEL CBA CARD'] },
        { page: 1, cells: ['DHAW20190003', '05/03/2019', 'CITIBANK - SENATOR IBA CARD'] },
      ],
      true,
    );
    expect(shapeTable(table).headerRows).toBe(0);
    const real = pdfTable(
      'x',
      [
        { page: 1, cells: ['Team', 'Cups'] },
        { page: 1, cells: ['Blues', '1'] },
      ],
      true,
    );
    expect(shapeTable(real).headerRows).toBe(1);
  });

  it('joins two header rows under a spanning group header', () => {
    const table = sheetTable('x', 'S', [
      ['Arm', 'Week 12', 'Week 24'],
      ['', 'Mean', 'Mean'],
      ['A', '1.5', '2.5'],
    ]);
    table.rows[0][1].colSpan = 1;
    table.rows[1][0].header = undefined;
    const withSpan: SourceTable = {
      ...table,
      rows: [[table.rows[0][0], { ...table.rows[0][1], colSpan: 2 }], table.rows[1], table.rows[2]],
    };
    const shaped = shapeTable(withSpan);
    expect(shaped.headerRows).toBe(2);
    expect(shaped.headers).toEqual(['Arm', 'Week 12 Mean', 'Week 12 Mean']);
  });
});
