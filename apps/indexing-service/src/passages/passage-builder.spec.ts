import type { Position } from '@docintel/contracts';
import {
  buildPassages,
  headingsAbove,
  MAX_PASSAGE_CHARS,
  tableHeaderRows,
  textWindows,
  windowId,
  withTableHeaders,
  type OutlineNode,
  type SourceNode,
} from './passage-builder';

const o = (id: string, type: string, depth: number, text = '', level: number | null = null): OutlineNode => ({
  id,
  parentId: null,
  type,
  level,
  text,
  depth,
});

describe('headingsAbove', () => {
  it('nests headings by level in flow documents and ends them with their section', () => {
    const outline = [
      o('root', 'document', 0),
      o('s1', 'section', 1),
      o('h1', 'heading', 2, 'Terms', 1),
      o('p1', 'paragraph', 2),
      o('s11', 'section', 2),
      o('h11', 'heading', 3, '2.1 Scope', 2),
      o('p11', 'paragraph', 3),
      o('p12', 'paragraph', 2), // back in s1, after its subsection
      o('s2', 'section', 1),
      o('h2', 'heading', 2, 'Payment', 1),
      o('p2', 'paragraph', 2),
      o('after', 'paragraph', 1), // outside every section
    ];
    const got = headingsAbove(outline, new Set(['h1', 'p1', 'h11', 'p11', 'p12', 'p2', 'after']));
    expect(Object.fromEntries(got)).toEqual({
      h1: [],
      p1: ['Terms'],
      h11: ['Terms'],
      p11: ['Terms', '2.1 Scope'],
      p12: ['Terms'],
      p2: ['Payment'],
      after: [],
    });
  });

  it('keeps headings across pages in paginated documents, replaced by level', () => {
    const outline = [
      o('root', 'document', 0),
      o('page1', 'page', 1),
      o('h1', 'heading', 2, 'Introduction', 1),
      o('h1a', 'heading', 2, 'Background', 2),
      o('page2', 'page', 1),
      o('p', 'paragraph', 2),
      o('h2', 'heading', 2, 'Methods', 1),
      o('q', 'paragraph', 2),
      o('empty', 'heading', 2, '  ', 1),
      o('r', 'paragraph', 2),
    ];
    const got = headingsAbove(outline, new Set(['p', 'q', 'r']));
    expect(got.get('p')).toEqual(['Introduction', 'Background']);
    expect(got.get('q')).toEqual(['Methods']);
    expect(got.get('r')).toEqual(['Methods']);
  });
});

describe('buildPassages', () => {
  const bbox: Position = { type: 'BBOX', page_number: 2, bbox: { x0: 1, y0: 2, x1: 3, y1: 4 } };
  const cell = (id: string, text: string, col: number): SourceNode => ({
    id,
    parentId: 'row',
    type: 'cell',
    text,
    positions: [{ type: 'CELL', sheet_name: 'Prices', row: 3, col }],
  });

  it('builds one passage per leaf with text, and one per row with a segment per cell', () => {
    const nodes: SourceNode[] = [
      { id: 'p', parentId: 'page', type: 'paragraph', text: 'Rent is due monthly.', positions: [bbox] },
      { id: 'row', parentId: 'table', type: 'row', text: '', positions: [] },
      cell('c1', 'Widget', 0),
      { id: 'blank', parentId: 'page', type: 'paragraph', text: '   ', positions: [] },
      { id: 'table', parentId: 'page', type: 'table', text: '', positions: [] },
      { id: 'lone', parentId: 'page', type: 'cell', text: 'orphan cell', positions: [] },
    ];
    const typeOf = new Map([
      ['row', 'row'],
      ['table', 'table'],
      ['page', 'page'],
    ]);
    const cells = new Map([['row', [cell('c1', ' Widget ', 0), cell('c2', '', 1), cell('c3', '4.50 EUR', 2)]]]);
    const passages = buildPassages(nodes, cells, typeOf, new Map([['row', ['Prices']]]));
    expect(passages.map((p) => p.nodeId)).toEqual(['p', 'row', 'lone']);
    expect(passages[0]).toEqual({
      nodeId: 'p',
      nodeType: 'paragraph',
      text: 'Rent is due monthly.',
      headings: [],
      segments: [{ nodeId: 'p', nodeType: 'paragraph', start: 0, end: 20, positions: [bbox] }],
    });
    const row = passages[1];
    expect(row.text).toBe('Widget | 4.50 EUR');
    expect(row.headings).toEqual(['Prices']);
    expect(row.segments.map((s) => [s.nodeId, row.text.slice(s.start, s.end), s.positions[0]])).toEqual([
      ['c1', 'Widget', { type: 'CELL', sheet_name: 'Prices', row: 3, col: 0 }],
      ['c3', '4.50 EUR', { type: 'CELL', sheet_name: 'Prices', row: 3, col: 2 }],
    ]);
  });
});

describe('table header rows', () => {
  const cell = (id: string, parentId: string, text: string): SourceNode => ({ id, parentId, type: 'cell', text, positions: [] });
  const row = (id: string, parentId: string): SourceNode => ({ id, parentId, type: 'row', text: '', positions: [] });

  it("gives every row but the first its table's first row as its innermost heading", () => {
    const outline: OutlineNode[] = [
      { ...o('t', 'table', 1), parentId: 'root' },
      { ...o('r0', 'row', 2), parentId: 't' },
      { ...o('r1', 'row', 2), parentId: 't' },
      { ...o('r2', 'row', 2), parentId: 't' },
    ];
    const rows = [row('r0', 't'), row('r1', 't'), row('r2', 't')];
    const headerOf = tableHeaderRows(outline, rows);
    expect(Object.fromEntries(headerOf)).toEqual({ r1: 'r0', r2: 'r0' });
    const headings = withTableHeaders(new Map([['r1', ['Prices']]]), headerOf);
    headings.fill(
      new Map([
        ['r0', [cell('c0', 'r0', 'Product'), cell('c1', 'r0', ' '), cell('c2', 'r0', 'Unit price')]],
        ['r1', [cell('c3', 'r1', 'Gadget'), cell('c4', 'r1', '12.5')]],
      ]),
    );
    expect(Object.fromEntries(headings.map)).toEqual({ r1: ['Prices', 'Product | Unit price'], r2: ['Product | Unit price'] });
  });
});

describe('long leaves', () => {
  it('are read in windows cut at sentence ends, whose LINE positions are the lines each window covers', () => {
    const lines = Array.from({ length: 300 }, (_, i) => `Line ${i} says the fee is ${i} EUR.`);
    const text = lines.join('\n');
    const positions: Position[] = lines.map((l, i) => ({
      type: 'LINE',
      line_number: i + 1,
      column_index_start: 0,
      column_index_stop: l.length,
    }));
    const node: SourceNode = { id: '00000000-0000-4000-8000-000000000001', parentId: 'root', type: 'paragraph', text, positions };
    const built = buildPassages([node], new Map(), new Map(), new Map());
    expect(built.length).toBeGreaterThan(3);
    expect(built[0].nodeId).toBe(node.id);
    expect(new Set(built.map((p) => p.nodeId)).size).toBe(built.length);
    expect(built.slice(1).every((p) => /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(p.nodeId))).toBe(true);
    expect(built.map((p) => p.text).join('\n')).toBe(text); // nothing lost, nothing doubled
    for (const p of built) {
      expect(p.text.length).toBeLessThanOrEqual(MAX_PASSAGE_CHARS);
      expect(p.text.endsWith('EUR.')).toBe(true);
      const [segment] = p.segments;
      expect(segment.nodeId).toBe(node.id);
      // Each window's lines are whole lines of the document, in order, and only those it holds.
      const shown = (segment.positions as Array<{ line_number: number }>).map((q) => lines[q.line_number - 1]).join('\n');
      expect(shown).toBe(p.text);
    }
  });

  it('cut a text without spaces anywhere, and keep a short text whole', () => {
    expect(textWindows('x'.repeat(4500))).toEqual([
      [0, 2000],
      [2000, 4000],
      [4000, 4500],
    ]);
    expect(textWindows('short')).toEqual([[0, 5]]);
    expect(windowId('00000000-0000-4000-8000-000000000001', 2)).toBe(windowId('00000000-0000-4000-8000-000000000001', 2));
  });
});
