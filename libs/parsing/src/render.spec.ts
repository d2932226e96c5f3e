import type { DocumentNode, NodeAttributes, NodeType } from './model';
import { tableGrid } from './render-common';
import { renderMarkdown } from './render-markdown';
import { renderText } from './render-text';
import { heading, node } from './support/nodes';

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

// A second document (from the suite of the renderer that libs/parsing had before it took over the
// indexing service's): pipes in text and cells, a column span, an ordered list with a nested one,
// formula and code without attributes.
const results: DocumentNode = node('document', '', [
  node('section', '', [
    heading('Results', 1),
    node('paragraph', 'The table shows | pipes.'),
    node('list', '', [node('list_item', 'first'), node('list_item', 'second', [node('list', '', [node('list_item', 'nested')])])], [], {
      ordered: true,
    }),
    node('table', '', [
      node('row', '', [node('cell', 'Name', [], [], { header: true, colSpan: 2 }), node('cell', 'Score')]),
      node('row', '', [node('cell', 'a'), node('cell', 'b|c'), node('cell', '1')]),
    ]),
    node('formula', 'E = mc^2'),
    node('code', 'print(1)'),
  ]),
]);

describe('rendering', () => {
  // Where the two former renderers disagreed, this is the output GET /files/{id}/document has always given:
  // a column span leaves its other positions empty, a list nested under "2." is indented past the
  // marker, and a formula is a display block.
  it('renders Markdown in reading order with tables as Markdown tables', () => {
    expect(renderMarkdown(results)).toBe(
      [
        '# Results',
        '',
        'The table shows | pipes.',
        '',
        '1. first',
        '2. second',
        '   - nested',
        '',
        '| Name |  | Score |',
        '| --- | --- | --- |',
        '| a | b\\|c | 1 |',
        '',
        '$$',
        'E = mc^2',
        '$$',
        '',
        '```',
        'print(1)',
        '```',
        '',
      ].join('\n'),
    );
  });

  it('renders plain text with tab-separated table rows', () => {
    const text = renderText(results);
    expect(text).toContain('Results\n\nThe table shows | pipes.');
    expect(text).toContain('Name\t\tScore\na\tb|c\t1');
    expect(text).not.toContain('#');
  });
});
