import type { Position } from '@docintel/contracts';
import { batches, distinctTypes, storable, toNodeRecords, type ParsedNode } from './tree-records';

const node = (type: string, text = '', children: ParsedNode[] = [], extra: Partial<ParsedNode> = {}): ParsedNode => ({
  type,
  text,
  children,
  positions: [],
  ...extra,
});

describe('toNodeRecords', () => {
  const bbox: Position = { type: 'BBOX', page_number: 2, bbox: { x0: 1, y0: 2, x1: 3, y1: 4 } };
  const parsed = node('document', '', [
    node('heading', 'Results', [], { level: 1, positions: [bbox] }),
    node('table', '', [node('row', '', [node('cell', 'A', [], { attributes: { header: true } }), node('cell', 'B')])]),
    node('paragraph', 'Done.'),
  ]);

  it('hangs the parsed root children under the stored root, in reading order, with new ids', () => {
    let n = 0;
    const records = toNodeRecords(parsed, 'root', () => `id-${++n}`);
    expect(records.map((r) => [r.id, r.parentId, r.ordinal, r.type, r.text])).toEqual([
      ['id-1', 'root', 0, 'heading', 'Results'],
      ['id-2', 'root', 1, 'table', ''],
      ['id-3', 'id-2', 0, 'row', ''],
      ['id-4', 'id-3', 0, 'cell', 'A'],
      ['id-5', 'id-3', 1, 'cell', 'B'],
      ['id-6', 'root', 2, 'paragraph', 'Done.'],
    ]);
  });

  it('keeps level, positions and attributes, and sets no empty attributes', () => {
    const records = toNodeRecords(parsed, 'root');
    expect(records[0]).toMatchObject({ level: 1, positions: [bbox] });
    expect(records[3].attributes).toEqual({ header: true });
    expect(records[5]).not.toHaveProperty('attributes');
    expect(records[5]).not.toHaveProperty('level');
    expect(new Set(records.map((r) => r.id)).size).toBe(records.length);
    for (const r of records) expect(r.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('lists a parent before its children, so any prefix of the records is a connected subtree', () => {
    const records = toNodeRecords(parsed, 'root');
    const seen = new Set(['root']);
    for (const r of records) {
      expect(seen.has(r.parentId as string)).toBe(true);
      seen.add(r.id);
    }
  });

  it('flattens a very deep tree without exhausting the stack', () => {
    let deep = node('paragraph', 'leaf');
    for (let i = 0; i < 50_000; i++) deep = node('list', '', [deep]);
    const records = toNodeRecords(node('document', '', [deep]), 'root');
    expect(records).toHaveLength(50_001);
    expect(records[records.length - 1]).toMatchObject({ type: 'paragraph', text: 'leaf' });
  });

  it('gives an empty document no records', () => {
    expect(toNodeRecords(node('document'), 'root')).toEqual([]);
  });
});

describe('batches and distinctTypes', () => {
  it('slices in order and keeps the last partial batch', () => {
    expect(batches([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(batches([], 3)).toEqual([]);
  });

  it('lists each type once, in order of appearance', () => {
    expect(distinctTypes([{ type: 'cell' }, { type: 'row' }, { type: 'cell' }])).toEqual(['cell', 'row']);
  });
});

describe('storable', () => {
  it('drops NUL characters and replaces lone surrogates, which PostgreSQL refuses, deep in objects', () => {
    const value = { text: 'a\u0000b', words: [{ text: 'x\uD800y' }], ok: 'emoji \uD83D\uDE00 stays', n: 3, none: null };
    expect(storable(value)).toEqual({ text: 'ab', words: [{ text: 'x\uFFFDy' }], ok: 'emoji \uD83D\uDE00 stays', n: 3, none: null });
    expect(storable('\uDC00 lone low')).toBe('\uFFFD lone low');
  });

  it('cleans the text, positions and attributes of every record', () => {
    const records = toNodeRecords(
      node('document', '', [node('paragraph', 'nul\u0000here', [], { attributes: { name: '\u0000x' } })]),
      'root',
    );
    expect(records[0]).toMatchObject({ text: 'nulhere', attributes: { name: 'x' } });
  });
});
