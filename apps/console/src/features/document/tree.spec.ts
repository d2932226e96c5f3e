import type { Box } from '../../router/document-links';
import {
  boxesOnPage,
  formulaLatex,
  indexTree,
  lineRange,
  nodeLabel,
  nodesOnPage,
  pageCount,
  pageOf,
  pagesWith,
  resolveTarget,
  tableRows,
  textRuns,
  type DocumentNode,
} from './tree';

let ids = 0;
/** A node as GET /files/{id}/document answers it. */
function node(type: DocumentNode['type'], init: Partial<DocumentNode> = {}, children: DocumentNode[] = []): DocumentNode {
  return { id: init.id ?? `n${++ids}`, type, text: '', positions: [], children, ...init };
}
const at = (page: number, bbox: Box): DocumentNode['positions'] => [{ type: 'BBOX', page_number: page, bbox }];
const line = (n: number, start = 0, stop = 10) => ({
  type: 'LINE' as const,
  line_number: n,
  column_index_start: start,
  column_index_stop: stop,
});

/** A two-page PDF: a heading on page 1, a table and a formula on page 2. */
function pdf() {
  const cell = (id: string, text: string, x0: number, y0: number, header = false) =>
    node('cell', { id, text, positions: at(2, { x0, y0, x1: x0 + 40, y1: y0 + 10 }), ...(header ? { attributes: { header: true } } : {}) });
  return node('document', { id: 'root' }, [
    node('page', { id: 'p1', positions: at(1, { x0: 0, y0: 0, x1: 612, y1: 792 }) }, [
      node('heading', { id: 'h', text: 'Results', level: 1, positions: at(1, { x0: 72, y0: 90, x1: 180, y1: 104 }) }),
    ]),
    node('page', { id: 'p2', positions: at(2, { x0: 0, y0: 0, x1: 595, y1: 842 }) }, [
      node('table', { id: 't', positions: at(2, { x0: 100, y0: 100, x1: 200, y1: 130 }) }, [
        node('row', { id: 'r0', positions: at(2, { x0: 100, y0: 100, x1: 200, y1: 110 }) }, [
          cell('a', 'Country', 100, 100, true),
          cell('b', 'Capital', 150, 100, true),
        ]),
        node('row', { id: 'r1', positions: at(2, { x0: 100, y0: 120, x1: 200, y1: 130 }) }, [
          cell('c', 'Austria', 100, 120),
          cell('d', 'Vienna', 150, 120),
        ]),
      ]),
      node('formula', {
        id: 'f',
        text: 'a + 8 = 12',
        attributes: { notation: 'text', latex: 'a+8=12' },
        positions: at(2, { x0: 280, y0: 365, x1: 330, y1: 375 }),
      }),
    ]),
  ]);
}

const paragraph = (n: number, start = 0, stop = 20) => ({
  type: 'PARAGRAPH' as const,
  paragraph_index: n,
  column_index_start: start,
  column_index_stop: stop,
});

/** A DOCX tree as the parser writes it: PARAGRAPH positions, a table whose only row has one cell. */
function docx() {
  const positions = (...p: ReturnType<typeof paragraph>[]) => p as unknown as DocumentNode['positions'];
  return node('document', { id: 'root' }, [
    node('heading', { id: 'h', text: 'Summer activities', level: 1, positions: positions(paragraph(0, 0, 17)) }),
    node('paragraph', { id: 'p', text: 'Let us swim, then eat.', positions: positions(paragraph(1, 0, 22)) }),
    node('table', { id: 't', positions: positions(paragraph(2, 0, 6), paragraph(3, 0, 9)) }, [
      node('row', { id: 'r', positions: positions(paragraph(2, 0, 6), paragraph(3, 0, 9)) }, [
        node('cell', { id: 'c', text: 'Leaves\nAsh, Elm', positions: positions(paragraph(2, 0, 6), paragraph(3, 0, 9)) }),
      ]),
    ]),
  ]);
}

describe('the node tree of the document view', () => {
  it('finds the node of a Word citation by its paragraphs when the node id is gone', () => {
    const index = indexTree(docx());
    expect(resolveTarget(index, { paragraph: 1 }).node?.id).toBe('p');
    expect(resolveTarget(index, { paragraph: 1, columnStart: 4, columnStop: 8 }).node?.id).toBe('p');
    // The cell, not the row or the table that carry the same paragraphs.
    expect(resolveTarget(index, { paragraph: 2, paragraphEnd: 3 }).node?.id).toBe('c');
    expect(resolveTarget(index, { paragraph: 3, columnStart: 0, columnStop: 3 }).node?.id).toBe('c');
    // The node id wins while the tree has it; a stale one falls back to the paragraphs.
    expect(resolveTarget(index, { nodeId: 'h', paragraph: 1 }).node?.id).toBe('h');
    expect(resolveTarget(index, { nodeId: 'gone', paragraph: 0 }).node?.id).toBe('h');
    expect(resolveTarget(index, { paragraph: 9 }).node).toBeNull();
  });

  it('finds an HTML node by its source lines, preferring the element that holds the cited columns', () => {
    // <p> spanning lines 4-5, and two <li> on line 7.
    const index = indexTree(
      node('document', { id: 'root' }, [
        node('paragraph', { id: 'p', text: 'A long paragraph', positions: [line(4, 6, 40), line(5, 0, 12)] }),
        node('list', { id: 'l', positions: [line(7, 4, 60)] }, [
          node('list_item', { id: 'a', text: 'Ducks', positions: [line(7, 8, 22)] }),
          node('list_item', { id: 'b', text: 'Geese', positions: [line(7, 27, 41)] }),
        ]),
      ]),
    );
    expect(resolveTarget(index, { line: 4, lineEnd: 5 }).node?.id).toBe('p');
    expect(resolveTarget(index, { line: 7, columnStart: 30, columnStop: 35 }).node?.id).toBe('b');
    expect(resolveTarget(index, { line: 7, columnStart: 10, columnStop: 12 }).node?.id).toBe('a');
  });

  it('knows pages, the page of each node and the boxes drawn on a page', () => {
    const index = indexTree(pdf());
    expect(pageCount(index)).toBe(2);
    expect(index.order.map((n) => n.id).slice(0, 5)).toEqual(['root', 'p1', 'h', 'p2', 't']);
    expect(pageOf(index.root)).toBe(1);
    expect(pageOf(index.byId.get('t') as DocumentNode)).toBe(2);
    // Pages and rows are not drawn: their boxes repeat the page's or their cells'.
    expect(boxesOnPage(index, 2).map((b) => b.node.id)).toEqual(['t', 'a', 'b', 'c', 'd', 'f']);
    expect(boxesOnPage(index, 1).map((b) => b.node.id)).toEqual(['h']);
    expect(boxesOnPage(index, 3)).toEqual([]);
    expect(nodesOnPage(index, 2, ['table', 'formula']).map((n) => n.id)).toEqual(['t', 'f']);
    expect(pagesWith(index, ['table', 'formula'])).toEqual([2]);
  });

  it('resolves a target: by node id, else by box, else only the cited box', () => {
    const index = indexTree(pdf());
    expect(resolveTarget(index, { nodeId: 'd' })).toEqual({ node: index.byId.get('d'), page: 2, box: null });
    // An unknown node (a reindexed file) falls back to the positions.
    const vienna = { x0: 150, y0: 120, x1: 190, y1: 130 };
    expect(resolveTarget(index, { nodeId: 'gone', page: 2, box: vienna }).node?.id).toBe('d');
    // A box around the whole table is the table, not one of its cells.
    expect(resolveTarget(index, { page: 2, box: { x0: 99, y0: 99, x1: 201, y1: 131 } }).node?.id).toBe('t');
    const elsewhere = { x0: 400, y0: 600, x1: 500, y1: 620 };
    expect(resolveTarget(index, { page: 2, box: elsewhere })).toEqual({ node: null, page: 2, box: elsewhere });
    expect(resolveTarget(index, { page: 2 })).toEqual({ node: null, page: 2, box: null });
    expect(resolveTarget(index, {})).toEqual({ node: null, page: null, box: null });
  });

  it('resolves spreadsheet cells and text lines to the smallest node there', () => {
    const cellAt = (row: number, col: number) => [{ type: 'CELL' as const, sheet_name: 'S', row, col }];
    const sheet = indexTree(
      node('document', {}, [
        node('table', {}, [
          node('row', { id: 'row1', positions: cellAt(1, 0) }, [
            node('cell', { id: 'x', text: 'Gadget', positions: cellAt(1, 0) }),
            node('cell', { id: 'y', text: '12.5', positions: cellAt(1, 1) }),
          ]),
        ]),
      ]),
    );
    expect(resolveTarget(sheet, { sheet: 'S', row: 1, col: 0 }).node?.id).toBe('x');
    expect(resolveTarget(sheet, { row: 1, col: 1 }).node?.id).toBe('y');
    expect(resolveTarget(sheet, { sheet: 'Other', row: 1, col: 1 }).node).toBeNull();

    const text = indexTree(
      node('document', {}, [
        node('paragraph', { id: 'p', text: 'one\ntwo\nthree', positions: [line(3), line(4), line(5)] }),
        node('table', {}, [
          node('row', { id: 'csvrow', positions: [line(8, 0, 20)] }, [
            node('cell', { id: 'k', text: 'key', positions: [line(8, 0, 3)] }),
            node('cell', { id: 'v', text: 'value', positions: [line(8, 4, 9)] }),
          ]),
        ]),
      ]),
    );
    expect(resolveTarget(text, { line: 4 }).node?.id).toBe('p');
    expect(resolveTarget(text, { line: 8, columnStart: 5, columnStop: 7 }).node?.id).toBe('v');
    expect(resolveTarget(text, { line: 99 }).node).toBeNull();
    expect(lineRange(text.byId.get('p') as DocumentNode)).toEqual({ start: 3, end: 5 });
    expect(lineRange(text.root)).toBeNull();
  });

  it('lays a table out as rows of cells with headers and spans', () => {
    const table = node('table', {}, [
      node('row', {}, [node('cell', { text: 'A', attributes: { header: true, colSpan: 2 } })]),
      node('row', {}, [
        node('cell', { text: 'x', attributes: { rowSpan: 2 } }),
        node('cell', { text: 'y', attributes: { rowSpan: 'no' } }),
      ]),
      node('cell', { text: 'stray' }),
    ]);
    const rows = tableRows(table);
    expect(rows.map((r) => r.map((c) => [c.node.text, c.header, c.rowSpan, c.colSpan]))).toEqual([
      [['A', true, 1, 2]],
      [
        ['x', false, 2, 1],
        ['y', false, 1, 1],
      ],
      [['stray', false, 1, 1]],
    ]);
  });

  it('finds the LaTeX of formulas, and cuts text around the formulas found in it', () => {
    expect(formulaLatex(node('formula', { text: 'a + 8 = 12', attributes: { notation: 'text', latex: 'a+8=12' } }))).toBe('a+8=12');
    expect(formulaLatex(node('formula', { text: '\\frac{1}{2}', attributes: { notation: 'latex' } }))).toBe('\\frac{1}{2}');
    expect(formulaLatex(node('formula', { text: 'x = y', attributes: { notation: 'text' } }))).toBeNull();

    const text = 'The energy is $E = mc^2$ here.';
    const p = node('paragraph', {
      text,
      attributes: { formulas: [{ latex: 'E = mc^2', reading: 'E = mc^2', display: false, start: 14, end: 24 }] },
    });
    expect(textRuns(p)).toEqual([
      { text: 'The energy is ' },
      { latex: 'E = mc^2', display: false, start: 14, end: 24 },
      { text: ' here.' },
    ]);
    // Offsets outside the text are ignored.
    expect(textRuns(node('paragraph', { text: 'short', attributes: { formulas: [{ latex: 'x', start: 2, end: 50 }] } }))).toEqual([
      { text: 'short' },
    ]);
    expect(textRuns(node('paragraph', { text: '' }))).toEqual([{ text: '' }]);
  });

  it('labels nodes by type and text', () => {
    const index = indexTree(pdf());
    expect(nodeLabel(index.byId.get('h') as DocumentNode)).toBe('Heading 1: Results');
    expect(nodeLabel(index.byId.get('r1') as DocumentNode)).toBe('Table row: Austria Vienna');
    expect(nodeLabel(node('cell'))).toBe('Table cell');
  });
});
