import type { DocumentNode, NodeAttributes, NodeType } from '@docintel/contracts';
import { buildTree, type NodeRow } from './node-tree';
import { tableGrid } from './render-common';
import { renderMarkdown } from './render-markdown';
import { renderText } from './render-text';

// Tree factories: n(type, text, children, extra).
const n = (type: NodeType, text = '', children: DocumentNode[] = [], extra: Partial<DocumentNode> = {}): DocumentNode => ({
  type,
  text,
  children,
  positions: [],
  ...extra,
});
const doc = (...children: DocumentNode[]) => n('document', '', children);
const h = (level: number, text: string) => n('heading', text, [], { level });
const p = (text: string) => n('paragraph', text);
const cell = (text: string, attributes?: NodeAttributes) => n('cell', text, [], attributes ? { attributes } : {});
const row = (...cells: DocumentNode[]) => n('row', '', cells);
const table = (...rows: DocumentNode[]) => n('table', '', rows);
const item = (text: string, ...children: DocumentNode[]) => n('list_item', text, children);
const list = (ordered: boolean, ...items: DocumentNode[]) => n('list', '', items, { attributes: { ordered } });

const report = doc(
  h(1, 'Annual report'),
  n('section', '', [
    h(2, 'Results'),
    p('Revenue grew by 12%.'),
    table(row(cell('Year', { header: true }), cell('Revenue')), row(cell('2023'), cell('1.2')), row(cell('2024'), cell('1.34'))),
  ]),
  n('page', '', [p('Second page text.')]),
  list(false, item('first'), item('second', list(true, item('a'), item('b')))),
);

describe('renderMarkdown', () => {
  it('renders a document in reading order with headings, paragraphs, tables and nested lists', () => {
    expect(renderMarkdown(report)).toBe(
      [
        '# Annual report',
        '',
        '## Results',
        '',
        'Revenue grew by 12%.',
        '',
        '| Year | Revenue |',
        '| --- | --- |',
        '| 2023 | 1.2 |',
        '| 2024 | 1.34 |',
        '',
        'Second page text.',
        '',
        '- first',
        '- second',
        '  1. a',
        '  2. b',
        '',
      ].join('\n'),
    );
  });

  it('clamps heading levels to 1..6 and puts a missing level at 1', () => {
    expect(renderMarkdown(doc(h(9, 'Deep'), n('heading', 'None'), h(0, 'Zero')))).toBe('###### Deep\n\n# None\n\n# Zero\n');
  });

  it('escapes pipes inside table cells and keeps each row on one line', () => {
    const md = renderMarkdown(doc(table(row(cell('a|b'), cell('line\nbreak')))));
    expect(md).toBe('| a\\|b | line break |\n| --- | --- |\n');
  });

  it('lays out row and column spans on a rectangular grid', () => {
    const t = table(
      row(cell('Arm', { rowSpan: 2 }), cell('Outcome', { colSpan: 2 })),
      row(cell('n'), cell('%')),
      row(cell('A'), cell('10'), cell('50')),
    );
    expect(tableGrid(t)).toEqual([
      ['Arm', 'Outcome', ''],
      ['', 'n', '%'],
      ['A', '10', '50'],
    ]);
    expect(renderMarkdown(doc(t))).toBe('| Arm | Outcome |  |\n| --- | --- | --- |\n|  | n | % |\n| A | 10 | 50 |\n');
  });

  it('pads short rows and takes the text of cells made of paragraphs', () => {
    const t = table(row(cell('a'), cell('b'), cell('c')), row(n('cell', '', [p('x'), p('y')])));
    expect(tableGrid(t)).toEqual([
      ['a', 'b', 'c'],
      ['x y', '', ''],
    ]);
  });

  it('keeps paragraph text from turning into markup', () => {
    expect(renderMarkdown(doc(p('# not a heading'), p('- not a list\n1. nor this')))).toBe(
      '\\# not a heading\n\n\\- not a list\n\\1. nor this\n',
    );
  });

  it('renders formulas as display math, code fenced with its language, figures by their caption', () => {
    const md = renderMarkdown(
      doc(
        n('formula', 'E = mc^2', [], { attributes: { notation: 'latex' } }),
        n('formula', 'x ≤ 3', [], { attributes: { notation: 'text' } }),
        n('code', 'const a = "```";\n', [], { attributes: { language: 'ts' } }),
        n('figure', 'Figure 1: Kaplan-Meier curve'),
      ),
    );
    expect(md).toBe('$$\nE = mc^2\n$$\n\n`x ≤ 3`\n\n````ts\nconst a = "```";\n````\n\n*Figure 1: Kaplan-Meier curve*\n');
  });

  it('shows the text of a container that has no children, and nothing for an empty document', () => {
    expect(renderMarkdown(n('document', 'Plain text file body'))).toBe('Plain text file body\n');
    expect(renderMarkdown(doc())).toBe('');
  });
});

describe('renderText', () => {
  it('renders the same document as plain text, tables as tab-separated rows', () => {
    expect(renderText(report)).toBe(
      [
        'Annual report',
        '',
        'Results',
        '',
        'Revenue grew by 12%.',
        '',
        'Year\tRevenue',
        '2023\t1.2',
        '2024\t1.34',
        '',
        'Second page text.',
        '',
        '- first',
        '- second',
        '  1. a',
        '  2. b',
        '',
      ].join('\n'),
    );
  });

  it('keeps code and formula text as it is', () => {
    expect(renderText(doc(n('code', 'a\n  b\n'), n('formula', 'x^2')))).toBe('a\n  b\n\nx^2\n');
  });
});

describe('buildTree', () => {
  const r = (id: string, parent: string | null, ordinal: number, type: NodeType, text = '', extra: Partial<NodeRow> = {}): NodeRow => ({
    id,
    parent_id: parent,
    ordinal,
    type,
    text,
    level: null,
    positions: [],
    metadata: {},
    ...extra,
  });

  it('orders children by ordinal whatever the row order, and keeps level, positions and attributes', () => {
    const pos = { type: 'BBOX' as const, page_number: 1, bbox: { x0: 1, y0: 2, x1: 3, y1: 4 } };
    const tree = buildTree(
      [
        r('p2', 'd', 2, 'paragraph', 'second', { positions: [pos] }),
        r('h', 'd', 0, 'heading', 'Title', { level: 1 }),
        r('d', null, 0, 'document'),
        r('p1', 'd', 1, 'paragraph', 'first', { metadata: { confidence: 93 } }),
      ],
      'file',
    );
    expect(tree).toEqual({
      id: 'd',
      type: 'document',
      text: '',
      positions: [],
      children: [
        { id: 'h', type: 'heading', text: 'Title', level: 1, positions: [], children: [] },
        { id: 'p1', type: 'paragraph', text: 'first', positions: [], attributes: { confidence: 93 }, children: [] },
        { id: 'p2', type: 'paragraph', text: 'second', positions: [pos], children: [] },
      ],
    });
  });

  it('puts several top-level nodes under one document node named by the file', () => {
    const tree = buildTree([r('b', null, 1, 'paragraph', 'b'), r('a', null, 0, 'paragraph', 'a')], 'file-id');
    expect(tree?.id).toBe('file-id');
    expect(tree?.children.map((c) => c.id)).toEqual(['a', 'b']);
  });

  it('has no tree without rows', () => {
    expect(buildTree([], 'f')).toBeNull();
  });
});
