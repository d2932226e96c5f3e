import type { Annotation } from '@docintel/api-client';
import { citationTarget, documentLink } from '../../router/document-links';
import { citationsFor, describeTarget } from './citations';

const FILE = '3f1c5a52-2f7c-4b5e-8d4e-1a2b3c4d5e6f';
const NODE = '9d8c7b6a-2f7c-4b5e-8d4e-1a2b3c4d5e6f';

const annotation = (id: string, documentName = 'invoice.txt'): Annotation => ({
  id: { id, entityType: 'ANNOTATION' },
  type: 'DOCUMENT_STATEMENT',
  status: 'VALID',
  space: { id: 'job', entityType: 'JOB' },
  owner: { id: 'alice@example.com' },
  lastModifier: { id: 'alice@example.com' },
  createdTime: 0,
  modifiedTime: 0,
  data: { type: 'DOCUMENT_STATEMENT', documentId: FILE, documentName, content: 'The invoice total is 1,250 EUR', positions: [] },
});

describe('citations', () => {
  it('says where a citation is in words', () => {
    expect(describeTarget({ line: 6 })).toBe('line 6');
    expect(describeTarget({ line: 6, lineEnd: 8 })).toBe('lines 6–8');
    expect(describeTarget({ page: 2, nodeId: NODE })).toBe('page 2');
    expect(describeTarget({ sheet: 'Prices', row: 2, col: 1 })).toBe('Prices, row 3, column 2');
    // Word paragraphs are 0-based in positions, counted from 1 in words.
    expect(describeTarget({ paragraph: 11, nodeId: NODE })).toBe('paragraph 12');
    expect(describeTarget({ paragraph: 0, paragraphEnd: 2 })).toBe('paragraphs 1–3');
    expect(describeTarget({ nodeId: NODE })).toBeNull();
  });

  it("links a citation to the document view at its line, through the document view's own link", () => {
    const target = citationTarget({ nodeId: NODE, positions: [{ type: 'LINE', line_number: 6 }] });
    expect(describeTarget(target)).toBe('line 6');
    expect(documentLink(FILE, target)).toBe(`/files/${FILE}/document?node=${NODE}&line=6`);
  });

  it('finds the annotations references name, in order, once each, by plain or entity ids', () => {
    const all = [annotation('a'), annotation('b'), annotation('c')];
    expect(citationsFor([{ id: 'c' }, { id: 'a' }, { id: 'c' }, { id: 'zz' }], all).map((a) => a.id.id)).toEqual(['c', 'a']);
    expect(citationsFor(['b'], all).map((a) => a.id.id)).toEqual(['b']);
    expect(citationsFor(undefined, all)).toEqual([]);
    expect(citationsFor(['a'], undefined)).toEqual([]);
  });
});
