import type { PassageDto } from '@docintel/contracts';
import { citationsToAnnotations, sourcedContent } from './citations';

const row: PassageDto = {
  id: 'row',
  fileId: 'f1',
  fileName: 'sheet.xlsx',
  nodeType: 'row',
  text: 'Gadget | 12.5 | 30',
  headings: [],
  score: 1,
  segments: [
    { nodeId: 'c0', nodeType: 'cell', start: 0, end: 6, positions: [{ type: 'CELL', sheet_name: 'S', row: 2, col: 0 }] },
    { nodeId: 'c1', nodeType: 'cell', start: 9, end: 13, positions: [{ type: 'CELL', sheet_name: 'S', row: 2, col: 1 }] },
    { nodeId: 'c2', nodeType: 'cell', start: 16, end: 18, positions: [{ type: 'CELL', sheet_name: 'S', row: 2, col: 2 }] },
  ],
};
const line: PassageDto = {
  id: 'line',
  fileId: 'f2',
  fileName: 'a.txt',
  nodeType: 'paragraph',
  text: 'The fee is 90 EUR.',
  headings: [],
  score: 1,
  segments: [
    {
      nodeId: 'p',
      nodeType: 'paragraph',
      start: 0,
      end: 18,
      positions: [{ type: 'LINE', line_number: 4, column_index_start: 2, column_index_stop: 20 }],
    },
  ],
};
const pdf: PassageDto = {
  ...line,
  id: 'pdf',
  segments: [
    {
      nodeId: 'q',
      nodeType: 'paragraph',
      start: 0,
      end: 18,
      positions: [{ type: 'BBOX', page_number: 2, bbox: { x0: 1, y0: 2, x1: 3, y1: 4 } }],
    },
  ],
};

describe('citationsToAnnotations', () => {
  it('cites the cell of a row that holds the span', () => {
    const [a, ...rest] = citationsToAnnotations([{ passageId: 'row', start: 9, end: 13 }], [row]);
    expect(rest).toEqual([]);
    expect(a.data).toMatchObject({ content: '12.5', nodeId: 'c1', documentId: 'f1', positions: [{ type: 'CELL', row: 2, col: 1 }] });
  });

  it('cites every cell a span crosses', () => {
    const cited = citationsToAnnotations([{ passageId: 'row', start: 0, end: 13 }], [row]);
    expect(cited.map((a) => a.data.nodeId)).toEqual(['c0', 'c1']);
  });

  it('narrows a LINE position to the cited characters, keeping the line offset', () => {
    const [a] = citationsToAnnotations([{ passageId: 'line', start: 11, end: 13 }], [line]);
    expect(a.data.positions).toEqual([{ type: 'LINE', line_number: 4, column_index_start: 13, column_index_stop: 15 }]);
    expect(a.data.content).toBe('The fee is 90 EUR.');
    expect(a.data.quote).toBe('90');
  });

  it('gives no quote when the whole node is cited', () => {
    const [a] = citationsToAnnotations([{ passageId: 'line', start: 0, end: 18 }], [line]);
    expect(a.data.quote).toBeUndefined();
  });

  it('narrows a paragraph of several lines to the lines and columns cited', () => {
    const paragraph: PassageDto = {
      ...line,
      id: 'para',
      text: 'First line here.\n  The fee is 90 EUR.\nLast.',
      segments: [
        {
          nodeId: 'p2',
          nodeType: 'paragraph',
          start: 0,
          end: 43,
          positions: [
            { type: 'LINE', line_number: 3, column_index_start: 0, column_index_stop: 16 },
            { type: 'LINE', line_number: 4, column_index_start: 2, column_index_stop: 22 },
            { type: 'LINE', line_number: 5, column_index_start: 0, column_index_stop: 5 },
          ],
        },
      ],
    };
    const at = paragraph.text.indexOf('90');
    const [a] = citationsToAnnotations([{ passageId: 'para', start: at, end: at + 2 }], [paragraph]);
    expect(a.data.positions).toEqual([
      { type: 'LINE', line_number: 4, column_index_start: 2 + at - 17, column_index_stop: 2 + at - 17 + 2 },
    ]);
    const across = citationsToAnnotations([{ passageId: 'para', start: 6, end: 22 }], [paragraph])[0];
    expect(across.data.positions).toEqual([
      { type: 'LINE', line_number: 3, column_index_start: 6, column_index_stop: 16 },
      { type: 'LINE', line_number: 4, column_index_start: 2, column_index_stop: 7 },
    ]);
  });

  it('keeps a BBOX as the node has it, and drops citations of passages it was not given', () => {
    const cited = citationsToAnnotations(
      [
        { passageId: 'pdf', start: 11, end: 13 },
        { passageId: 'unknown', start: 0, end: 1 },
      ],
      [pdf],
    );
    expect(cited.map((a) => a.data.positions)).toEqual([[{ type: 'BBOX', page_number: 2, bbox: { x0: 1, y0: 2, x1: 3, y1: 4 } }]]);
  });

  it('clamps spans to the passage', () => {
    const [a] = citationsToAnnotations([{ passageId: 'line', start: -5, end: 999 }], [line]);
    expect(a.data.positions).toEqual([{ type: 'LINE', line_number: 4, column_index_start: 2, column_index_stop: 20 }]);
    expect(sourcedContent([{ passageId: 'line', start: 0, end: 1 }], [row, line])).toBe('The fee is 90 EUR.');
  });
});
