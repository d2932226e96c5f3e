import 'reflect-metadata';
import { DomainError, type CreateMultiDimJobRequestDto } from '@docintel/contracts';
import { entityExtractionOf } from './entity-extraction';
import { multiDimExtractionInputs, toSchemaSpec, type MultiDimExtractionInputs } from './multi-dim-extraction-inputs';
import type { FileEntityRows } from './multi-dim-extraction-unit';

const inputs: MultiDimExtractionInputs = {
  files: { fileIds: [] },
  schema: {
    name: 'Products',
    columns: [
      { key: 'product', label: 'Product', type: 'ENTITY_COLUMN_TYPE_STRING', role: 'ENTITY_COLUMN_ROLE_IDENTIFIER', isRowKey: true },
      { key: 'price', label: 'Price', type: 'ENTITY_COLUMN_TYPE_FLOAT', role: 'ENTITY_COLUMN_ROLE_VALUE' },
    ],
  },
};

const evidence = (fileId: string, annotationId: string, text: string) => ({
  fileId,
  fileName: `${fileId}.xlsx`,
  nodeId: `node-${annotationId}`,
  positions: [],
  text,
  annotationId,
});

function file(fileId: string, rows: Array<[string, number | null, string, string]>): FileEntityRows {
  return {
    fileId,
    fileName: `${fileId}.xlsx`,
    tablesRead: 1,
    tablesUsed: 1,
    textRows: 0,
    rows: rows.map(([product, price, productRef, priceRef]) => ({
      explanation: `row in ${fileId}`,
      sources: [],
      cells: [
        { columnKey: 'product', value: product, explanation: 'p', evidence: [evidence(fileId, productRef, product)] },
        { columnKey: 'price', value: price, explanation: 'v', evidence: price === null ? [] : [evidence(fileId, priceRef, String(price))] },
      ],
    })),
  };
}

describe('entityExtractionOf', () => {
  it('merges the rows of several files on the row key, each cell citing the annotations of its values', () => {
    const result = entityExtractionOf('job-1', inputs, [
      file('a', [
        ['Widget', 4.75, 'a1', 'a2'],
        ['Gadget', 12.5, 'a3', 'a4'],
      ]),
      file('b', [['widget', 5, 'b1', 'b2']]),
      { fileId: 'c', fileName: 'c.pdf', tablesRead: 0, tablesUsed: 0, textRows: 0, rows: [] },
    ]);
    expect(result.meta).toBe('Products');
    expect(result.rows).toHaveLength(2);
    const [widget, gadget] = result.rows;
    expect(widget.cells.map((c) => c.value)).toEqual(['Widget', 4.75]);
    expect(widget.cells[1].explanation).toMatch(/Conflicting values.*4\.75.*5/);
    expect(widget.cells[1].referenceIds.map((r) => r.id)).toEqual(['a2', 'b2']);
    expect(widget.referenceIds.map((r) => r.id)).toEqual(['a1', 'b1', 'a2', 'b2']);
    expect(gadget.cells[1]).toMatchObject({ value: 12.5, referenceIds: [{ id: 'a4', entityType: 'ANNOTATION' }] });
    expect(result.explanation).toBe('2 rows of "Products" from 3 files, read from tables of a.xlsx, b.xlsx. Nothing found in c.pdf.');
    expect(entityExtractionOf('job-1', inputs, []).metaId).toBe(result.metaId);
    const big = { ...file('d', [['Sprocket', 1, 'd1', 'd2']]), truncatedFrom: 12000 };
    expect(entityExtractionOf('job-1', inputs, [big]).explanation).toContain('d.xlsx gave 12000 rows; the first 1 were kept');
    expect(entityExtractionOf('job-2', inputs, []).metaId).not.toBe(result.metaId);
  });
});

describe('multiDimExtractionInputs', () => {
  const req = (columns: unknown[]) =>
    ({ files: { fileIds: [] }, schema: { name: 'S', columns } }) as unknown as CreateMultiDimJobRequestDto;

  it('refuses repeated column keys and allowed values on number columns, naming the field', () => {
    let details: unknown;
    try {
      multiDimExtractionInputs(
        req([
          { key: 'a', label: 'A' },
          { key: 'a', label: 'B' },
          { key: 'n', label: 'N', type: 'ENTITY_COLUMN_TYPE_INT', allowedValues: ['1'] },
        ]),
      );
    } catch (err) {
      details = (err as DomainError).details;
    }
    expect(details).toEqual([
      { field: 'schema.columns[1].key', problem: 'repeats the key of schema.columns[0] ("a")' },
      { field: 'schema.columns[2].allowedValues', problem: 'apply to text columns only, not to ENTITY_COLUMN_TYPE_INT' },
    ]);
  });

  it('gives the table engine the schema with short type and role names, STRING by default', () => {
    expect(toSchemaSpec(req([{ key: 'a', label: 'A' }]).schema).columns).toEqual([
      { key: 'a', label: 'A', type: 'STRING', role: 'UNSPECIFIED', description: undefined, allowedValues: undefined, isRowKey: false },
    ]);
  });
});
