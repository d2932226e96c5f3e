import type { DocumentNode } from './model';
import { toMarkdown, toText } from './render';
import { heading, node } from './support/nodes';

const tree: DocumentNode = node('document', '', [
  node('section', '', [
    heading('Results', 1),
    node('paragraph', 'The table shows | pipes.'),
    node('list', '', [node('list_item', 'first'), node('list_item', 'second', [node('list', '', [node('list_item', 'nested')])])], [], { ordered: true }),
    node('table', '', [
      node('row', '', [node('cell', 'Name', [], [], { header: true, colSpan: 2 }), node('cell', 'Score')]),
      node('row', '', [node('cell', 'a'), node('cell', 'b|c'), node('cell', '1')]),
    ]),
    node('formula', 'E = mc^2'),
    node('code', 'print(1)'),
  ]),
]);

describe('rendering', () => {
  it('renders Markdown in reading order with tables as Markdown tables', () => {
    expect(toMarkdown(tree)).toBe(
      [
        '# Results',
        '',
        'The table shows | pipes.',
        '',
        '1. first',
        '2. second',
        '  - nested',
        '',
        '| Name | Name | Score |',
        '| --- | --- | --- |',
        '| a | b\\|c | 1 |',
        '',
        '$$E = mc^2$$',
        '',
        '```',
        'print(1)',
        '```',
        '',
      ].join('\n'),
    );
  });

  it('renders plain text with tab-separated table rows', () => {
    const text = toText(tree);
    expect(text).toContain('Results\n\nThe table shows | pipes.');
    expect(text).toContain('Name\tName\tScore\na\tb|c\t1');
    expect(text).not.toContain('#');
  });
});
