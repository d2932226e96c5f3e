import {
  cellText,
  columnKey,
  entityRows,
  formatSeconds,
  isTerminal,
  jobTimes,
  progressOf,
  resultsByFile,
  splitList,
  typedValue,
  typeLabel,
  type MetaResult,
} from './values';

describe('job values', () => {
  it('shows typed answers by their type', () => {
    expect(typedValue({ doubleValue: 1250 })).toEqual({ kind: 'number', list: false, values: ['1,250'] });
    expect(typedValue({ longValue: 3 })).toEqual({ kind: 'number', list: false, values: ['3'] });
    expect(typedValue({ dateValue: '2026-03-12T00:00:00.000Z' })).toEqual({ kind: 'date', list: false, values: ['2026-03-12'] });
    expect(typedValue({ dateValue: '2026-03-12' })?.values).toEqual(['2026-03-12']);
    expect(typedValue({ dateValue: '2026-03-12T10:30:00Z' })?.values).toEqual(['2026-03-12T10:30:00Z']);
    expect(typedValue({ boolValue: false })).toEqual({ kind: 'boolean', list: false, values: ['No'] });
    expect(typedValue({ strValue: '' })).toEqual({ kind: 'text', list: false, values: [''] });
    expect(typedValue({ strListValue: ['Alice', 'Bob'] })).toEqual({ kind: 'text', list: true, values: ['Alice', 'Bob'] });
    expect(typedValue({ doubleListValue: [0.5, 12000.25] })?.values).toEqual(['0.5', '12,000.25']);
    expect(typedValue({})).toBeNull();
    expect(typedValue(undefined)).toBeNull();
  });

  it('names answer types', () => {
    expect(typeLabel({ dataType: 'FLOAT', multiValued: false })).toBe('Number');
    expect(typeLabel({ dataType: 'DATE', multiValued: true })).toBe('List (date)');
    expect(typeLabel(undefined)).toBe('Text');
  });

  it('shows table cells typed by their column', () => {
    expect(cellText(1250.5)).toBe('1,250.5');
    expect(cellText(true)).toBe('Yes');
    expect(cellText('Arm A')).toBe('Arm A');
    expect(cellText(null)).toBeNull();
    expect(cellText('')).toBeNull();
  });

  it('knows terminal statuses, find-similar COMPLETED included', () => {
    expect(['PENDING', 'RUNNING'].map((s) => isTerminal(s as 'PENDING'))).toEqual([false, false]);
    expect(['SUCCESS', 'COMPLETED', 'FAILED', 'ABORTED'].every((s) => isTerminal(s as 'SUCCESS'))).toBe(true);
    expect(isTerminal(undefined)).toBe(false);
  });

  it('counts progress over the units of a job', () => {
    expect(progressOf({ total: 4, done: 1, failed: 1, running: 1, answered: 1 })).toEqual({
      percent: 50,
      text: '2 of 4 done, 1 running, 1 failed',
    });
    expect(progressOf({ total: 3, done: 3, failed: 0, running: 0, answered: 3 })).toEqual({ percent: 100, text: '3 of 3 done' });
    expect(progressOf({ total: 0, done: 0, failed: 0, running: 0, answered: 0 })).toBeNull();
    expect(progressOf(undefined)).toBeNull();
  });

  it('groups extraction results by file, keeping their order', () => {
    const r = (fileId: string, meta: string) => ({ fileId, meta }) as MetaResult;
    expect(resultsByFile([r('a', 'x'), r('b', 'x'), r('a', 'y')]).map((g) => [g.fileId, g.results.map((m) => m.meta)])).toEqual([
      ['a', ['x', 'y']],
      ['b', ['x']],
    ]);
  });

  it('makes unique column keys without white space from labels', () => {
    expect(columnKey('Unit price (€)')).toBe('unit_price');
    expect(columnKey('Düse Weite')).toBe('duse_weite');
    expect(columnKey('Price', ['price'])).toBe('price_2');
    expect(columnKey('Price', ['price', 'price_2'])).toBe('price_3');
    expect(columnKey('!!!')).toBe('column');
  });

  it('splits typed lists', () => {
    expect(splitList(' Initech, Globex Corporation ,,\nUmbrella ')).toEqual(['Initech', 'Globex Corporation', 'Umbrella']);
  });

  it('lays out table rows in the order of the schema columns', () => {
    const rows = entityRows({
      meta: 'Products',
      metaId: 'm',
      explanation: '',
      referenceIds: [],
      schema: {
        name: 'Product',
        columns: [
          { key: 'name', label: 'Name', type: 'ENTITY_COLUMN_TYPE_STRING', role: 'ENTITY_COLUMN_ROLE_IDENTIFIER' },
          { key: 'price', label: 'Price', type: 'ENTITY_COLUMN_TYPE_FLOAT', role: 'ENTITY_COLUMN_ROLE_VALUE' },
        ],
      },
      rows: [
        {
          explanation: '',
          referenceIds: [],
          cells: [
            { columnKey: 'price', value: 4.75 as never, explanation: '', referenceIds: [] },
            { columnKey: 'name', value: 'Tea' as never, explanation: '', referenceIds: [] },
          ],
        },
      ],
    });
    expect(rows.map((r) => r.cells.map((c) => c.text))).toEqual([['Tea', '4.75']]);
  });

  it('tells the time a job sat in the queue from the time it ran', () => {
    // Created at 0, started after 52 s, ran 0.1 s: the card must not say the job took 0.1 s and stop there.
    expect(jobTimes({ status: 'SUCCESS', createdTime: 0, modifiedTime: 52_100, executionTime: 0.1 }, 999_999)).toEqual({
      queuedS: 52,
      runningS: 0.1,
    });
    // Still queued: measured against now, nothing run yet.
    expect(jobTimes({ status: 'PENDING', createdTime: 10_000, modifiedTime: 10_000 }, 40_000)).toEqual({ queuedS: 30, runningS: 0 });
    // find-similar reports milliseconds.
    expect(jobTimes({ status: 'COMPLETED', createdTime: 0, modifiedTime: 3000, executionTimeMs: 2500 }, 0)).toEqual({
      queuedS: 0.5,
      runningS: 2.5,
    });
    expect(formatSeconds(0.14)).toBe('0.1 s');
    expect(formatSeconds(52.3)).toBe('52 s');
    expect(formatSeconds(185)).toBe('3 min 5 s');
  });
});
