import { buildOntologyInput, type TreeNode } from './node-tree';

const leaf = (type: string, text: string, page?: number, level?: number): TreeNode => ({
  type,
  text,
  ...(level !== undefined ? { level } : {}),
  children: [],
  positions: page !== undefined ? [{ type: 'BBOX', page_number: page }] : [],
});

describe('buildOntologyInput', () => {
  const tree: TreeNode = {
    type: 'document',
    text: '',
    children: [
      {
        type: 'page',
        text: '',
        positions: [{ page_number: 1 }],
        children: [
          leaf('heading', 'A Study of Ducks', undefined, 1),
          leaf('paragraph', 'Jane Smith and Peter Jones'),
          {
            type: 'table',
            text: '',
            children: [{ type: 'row', text: '', children: [leaf('cell', 'Species'), leaf('cell', 'Count')] }],
          },
        ],
      },
      {
        type: 'page',
        text: '',
        positions: [{ page_number: 2 }],
        children: [leaf('heading', 'Methods', undefined, 2), { type: 'list', text: '', children: [leaf('list_item', 'Count ducks.')] }],
      },
    ],
  };

  it('joins blocks in reading order with blank lines and renders table rows with " | "', () => {
    const input = buildOntologyInput(tree, { fileName: 'ducks.pdf', mediaType: 'application/pdf' });
    expect(input.text).toBe('A Study of Ducks\n\nJane Smith and Peter Jones\n\nSpecies | Count\n\nMethods\n\nCount ducks.');
  });

  it('lists headings with their levels and pages, and the first page text', () => {
    const input = buildOntologyInput(tree, { fileName: 'ducks.pdf', mediaType: 'application/pdf', embeddedMetadata: { title: 'T' } });
    expect(input.headings).toEqual([
      { level: 1, text: 'A Study of Ducks', page: 1 },
      { level: 2, text: 'Methods', page: 2 },
    ]);
    expect(input.firstPageText).toBe('A Study of Ducks\n\nJane Smith and Peter Jones\n\nSpecies | Count');
    expect(input.embeddedMetadata).toEqual({ title: 'T' });
  });

  it('has no first page for formats without pages, and stops collecting at maxChars', () => {
    const doc: TreeNode = { type: 'document', text: '', children: [leaf('paragraph', 'x'.repeat(50)), leaf('paragraph', 'more')] };
    const input = buildOntologyInput(doc, { fileName: 'a.txt', mediaType: 'text/plain', maxChars: 10 });
    expect(input.firstPageText).toBeUndefined();
    expect(input.text).toBe('x'.repeat(50));
  });

  it('drops the element or property name that XML and JSON nodes carry in their text', () => {
    const doc: TreeNode = {
      type: 'document',
      text: '',
      children: [
        { type: 'paragraph', text: 'surname: Wolf', attributes: { name: 'surname' }, children: [] },
        { type: 'paragraph', text: 'note: a: b', attributes: { name: 'other' }, children: [] },
      ],
    };
    expect(buildOntologyInput(doc, { fileName: 'a.xml', mediaType: 'application/xml' }).text).toBe('Wolf\n\nnote: a: b');
  });
});
