import { matchRoute, paths } from './routes';
import { citationTarget, documentLink, hasTarget, MAX_QUOTE, readDocumentTarget, type DocumentTarget } from './document-links';

const FILE = '3f1c5a52-2f7c-4b5e-8d4e-1a2b3c4d5e6f';
const NODE = '0d6c3f2e-1111-4222-8333-444455556666';

/** What the document route reads back from a URL. */
const readBack = (url: string) => {
  const u = new URL(url, 'http://console');
  return matchRoute(u.pathname, u.search);
};

describe('documentLink', () => {
  it('links the document view without a target', () => {
    expect(documentLink(FILE)).toBe(`/files/${FILE}/document`);
    expect(documentLink(FILE, null)).toBe(`/files/${FILE}/document`);
    expect(documentLink(FILE, {})).toBe(`/files/${FILE}/document`);
    expect(documentLink('a/b c')).toBe('/files/a%2Fb%20c/document');
  });

  it('writes a PDF citation (node, page and box) that the route reads back', () => {
    const citation = {
      type: 'DOCUMENT_STATEMENT',
      documentId: FILE,
      documentName: 'paper.pdf',
      content: 'Vienna',
      nodeId: NODE,
      positions: [{ type: 'BBOX', page_number: 3, bbox: { x0: 356.12, y0: 165, x1: 387.5, y1: 174.333 } }],
    };
    const url = documentLink(FILE, citation);
    expect(url).toBe(`/files/${FILE}/document?node=${NODE}&page=3&box=356.12%2C165%2C387.5%2C174.33`);
    expect(readBack(url)).toEqual({
      name: 'document',
      fileId: FILE,
      target: { nodeId: NODE, page: 3, box: { x0: 356.12, y0: 165, x1: 387.5, y1: 174.33 } },
    });
    // A whole annotation links the same place as its data.
    expect(documentLink(FILE, { data: citation })).toBe(url);
  });

  it('joins the boxes of the first page a citation spans', () => {
    const target = citationTarget({
      positions: [
        { type: 'BBOX', page_number: 2, bbox: { x0: 72, y0: 700, x1: 300, y1: 720 } },
        { type: 'BBOX', page_number: 2, bbox: { x0: 310, y0: 80, x1: 540, y1: 100 } },
        { type: 'BBOX', page_number: 3, bbox: { x0: 72, y0: 72, x1: 300, y1: 90 } },
      ],
    });
    expect(target).toEqual({ page: 2, box: { x0: 72, y0: 80, x1: 540, y1: 720 } });
  });

  it('writes Word paragraphs (DOCX, DOC) that the route reads back', () => {
    const words = documentLink(FILE, {
      nodeId: NODE,
      positions: [{ type: 'PARAGRAPH', paragraph_index: 17, column_index_start: 4, column_index_stop: 19 }],
    });
    expect(words).toBe(`/files/${FILE}/document?node=${NODE}&paragraph=17&columns=4-19`);
    expect(readBack(words)).toMatchObject({ target: { nodeId: NODE, paragraph: 17, columnStart: 4, columnStop: 19 } });

    // A table cell of two paragraphs: the range, no columns (they belong to one paragraph).
    const cell = documentLink(FILE, {
      positions: [
        { type: 'PARAGRAPH', paragraph_index: 30, column_index_start: 0, column_index_stop: 5 },
        { type: 'PARAGRAPH', paragraph_index: 31, column_index_start: 0, column_index_stop: 8 },
      ],
    });
    expect(cell).toBe(`/files/${FILE}/document?paragraph=30&paragraphEnd=31`);
    expect(readBack(cell)).toMatchObject({ target: { paragraph: 30, paragraphEnd: 31 } });
    expect(readDocumentTarget(new URLSearchParams('paragraph=x&columns=1-2'))).toEqual({});
  });

  it('writes spreadsheet cells and text lines', () => {
    const cell = documentLink(FILE, { positions: [{ type: 'CELL', sheet_name: 'Q3 sales', row: 4, col: 0 }] });
    expect(cell).toBe(`/files/${FILE}/document?sheet=Q3+sales&row=4&col=0`);
    expect(readBack(cell)).toMatchObject({ target: { sheet: 'Q3 sales', row: 4, col: 0 } });

    const words = documentLink(FILE, {
      nodeId: NODE,
      positions: [{ type: 'LINE', line_number: 6, column_index_start: 21, column_index_stop: 30 }],
    });
    expect(words).toBe(`/files/${FILE}/document?node=${NODE}&line=6&columns=21-30`);
    expect(readBack(words)).toMatchObject({ target: { nodeId: NODE, line: 6, columnStart: 21, columnStop: 30 } });

    const lines = documentLink(FILE, {
      positions: [
        { type: 'LINE', line_number: 9, column_index_start: 0, column_index_stop: 12 },
        { type: 'LINE', line_number: 8, column_index_start: 0, column_index_stop: 40 },
      ],
    });
    expect(lines).toBe(`/files/${FILE}/document?line=8&lineEnd=9`);
    expect(readBack(lines)).toMatchObject({ target: { line: 8, lineEnd: 9 } });
  });

  it("carries the quote the view marks the sentence of, cut to a URL's length; a quote alone names no place", () => {
    const target = { ...citationTarget({ nodeId: NODE, positions: [] }), quote: ' 1,250 EUR ' };
    const url = documentLink(FILE, target);
    expect(url).toBe(`/files/${FILE}/document?node=${NODE}&quote=1%2C250+EUR`);
    expect(readBack(url)).toMatchObject({ target: { nodeId: NODE, quote: '1,250 EUR' } });
    const long = readDocumentTarget(new URLSearchParams({ node: NODE, quote: 'x'.repeat(MAX_QUOTE + 50) }));
    expect(long.quote).toHaveLength(MAX_QUOTE);
    expect(hasTarget({ quote: 'anything' })).toBe(false);
    expect(hasTarget({ nodeId: NODE, quote: 'anything' })).toBe(true);
    expect(readDocumentTarget(new URLSearchParams('quote=%20%20'))).toEqual({});
  });

  it('takes a target as it is, and paths.document is the same link', () => {
    const target: DocumentTarget = { nodeId: NODE, page: 2 };
    expect(documentLink(FILE, target)).toBe(`/files/${FILE}/document?node=${NODE}&page=2`);
    expect(paths.document(FILE, target)).toBe(documentLink(FILE, target));
    expect(readBack(paths.document(FILE))).toEqual({ name: 'document', fileId: FILE, target: {} });
  });

  it('ignores malformed positions and parameters', () => {
    expect(
      citationTarget({ positions: [{ type: 'BBOX', page_number: 'one' }, { type: 'CELL', row: 1 }, { type: 'LINE' }, { type: 'OTHER' }] }),
    ).toEqual({});
    expect(citationTarget({ nodeId: null, positions: null })).toEqual({});
    const q = (s: string) => readDocumentTarget(new URLSearchParams(s));
    expect(q('page=0&box=1,2,3&row=1&line=-2&columns=9-3')).toEqual({});
    expect(q('page=2.5&box=5,5,1,1&col=3')).toEqual({});
    expect(q('page=4&box=1,2,3,4&line=3&lineEnd=2')).toEqual({ page: 4, box: { x0: 1, y0: 2, x1: 3, y1: 4 }, line: 3 });
  });
});
