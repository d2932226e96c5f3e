import * as XLSX from 'xlsx';
import type { DocumentNode, LinePosition, NodeType, ParsedDocument } from './model';
import { ParsePool } from './pool/parse-pool';
import { renderMarkdown } from './render-markdown';
import { renderText } from './render-text';
import { makeDocx, makePdf, para } from './testing/fixtures';

const all = (n: DocumentNode, type: NodeType): DocumentNode[] => [
  ...(n.type === type ? [n] : []),
  ...n.children.flatMap((c) => all(c, type)),
];

// Parser threads compile their TypeScript sources on start when run from the sources.
jest.setTimeout(60_000);

describe('parsers (through the worker pool)', () => {
  const pool = new ParsePool({ size: 2 });
  const parse = (content: string | Buffer, fileName: string): Promise<ParsedDocument> =>
    pool.parse({ source: Buffer.isBuffer(content) ? content : Buffer.from(content), fileName });

  afterAll(() => pool.close());

  it('text: paragraphs separated by blank lines, each line with its LINE position', async () => {
    const doc = await parse('First line\n  second line\n\nNext paragraph\n', 'notes.txt');
    const paras = all(doc.root, 'paragraph');
    expect(paras.map((p) => p.text)).toEqual(['First line\nsecond line', 'Next paragraph']);
    expect(paras[0].positions[1]).toEqual({ type: 'LINE', line_number: 2, column_index_start: 2, column_index_stop: 13 });
    expect(paras[1].positions[0]).toMatchObject({ line_number: 4 });
  });

  it('csv: sniffs the delimiter, keeps quoted cells whole and locates every cell', async () => {
    const doc = await parse('name;city;note\n"Doe; Jane";Paris;"said ""hi"""\nRoe;Oslo;x\n', 'people.csv');
    const [table] = all(doc.root, 'table');
    expect(table.children.map((r) => r.children.map((c) => c.text))).toEqual([
      ['name', 'city', 'note'],
      ['Doe; Jane', 'Paris', 'said "hi"'],
      ['Roe', 'Oslo', 'x'],
    ]);
    const paris = table.children[1].children[1].positions[0] as LinePosition;
    expect(paris).toEqual({ type: 'LINE', line_number: 2, column_index_start: 12, column_index_stop: 17 });
    expect(renderMarkdown(doc.root)).toContain('| Doe; Jane | Paris | said "hi" |');
  });

  it('csv: numbers lines from 1 whatever the line endings (CRLF, CR, LF), blank lines and multi-line cells included', async () => {
    for (const eol of ['\r\n', '\r', '\n']) {
      const doc = await parse(['a,b', '1,2', '', '"x', 'y",3'].join(eol) + eol, `eol.csv`);
      const [table] = all(doc.root, 'table');
      const lineOf = (row: number, col: number) => (table.children[row].children[col].positions[0] as LinePosition).line_number;
      expect({ eol: JSON.stringify(eol), lines: [lineOf(0, 0), lineOf(1, 1), lineOf(2, 0), lineOf(2, 1)] }).toEqual({
        eol: JSON.stringify(eol),
        lines: [1, 2, 4, 5],
      });
    }
  });

  it('json: keeps structure (sections, key/value paragraphs, record tables) with line positions', async () => {
    const json =
      '{\n  "title": "Report",\n  "author": {"name": "Ada"},\n  "rows": [\n    {"a": 1, "b": 2},\n    {"a": 3, "b": 4}\n  ]\n}\n';
    const doc = await parse(json, 'data.json');
    const title = all(doc.root, 'paragraph').find((p) => p.text === 'title: Report');
    expect(title?.positions[0]).toEqual({ type: 'LINE', line_number: 2, column_index_start: 2, column_index_stop: 19 });
    expect(all(doc.root, 'heading').map((h) => h.text)).toEqual(['author', 'rows']);
    const [table] = all(doc.root, 'table');
    expect(table.children.map((r) => r.children.map((c) => c.text))).toEqual([
      ['a', 'b'],
      ['1', '2'],
      ['3', '4'],
    ]);
    // Header cells are citable too: each at the key where its column is first written (`"b"` on line 5).
    expect(table.children[0].children[1].positions).toEqual([
      { type: 'LINE', line_number: 5, column_index_start: 13, column_index_stop: 16 },
    ]);
  });

  it('json: an unclosed document fails with a clear message', async () => {
    await expect(parse('[1, 2,\n 3', 'broken.json')).rejects.toMatchObject({
      code: 'CORRUPT',
      message: expect.stringMatching(/JSON ends before/),
    });
  });

  it('xml: keeps the element structure, maps tables, and locates elements by line', async () => {
    const xml =
      '<?xml version="1.0"?>\n<article>\n  <title>On Ducks</title>\n  <sec>\n    <title>Intro</title>\n    <p>Ducks <i>swim</i>.</p>\n    <table><tr><th>k</th><th>v</th></tr><tr><td>a</td><td>1</td></tr></table>\n  </sec>\n  <meta><year>2020</year></meta>\n</article>\n';
    const doc = await parse(xml, 'a.xml');
    expect(all(doc.root, 'heading').map((h) => [h.text, h.level])).toEqual([
      ['On Ducks', 1],
      ['Intro', 2],
    ]);
    const p = all(doc.root, 'paragraph').find((n) => n.text === 'Ducks swim.');
    expect(p?.positions[0]).toMatchObject({ type: 'LINE', line_number: 6, column_index_start: 4 });
    expect(all(doc.root, 'paragraph').map((n) => n.text)).toContain('year: 2020');
    expect(all(doc.root, 'cell').map((c) => c.text)).toEqual(['k', 'v', 'a', '1']);
  });

  it("xml (JATS): the article's own authors, title and publication date, not its editors' or references' names", async () => {
    const xml = `<?xml version="1.0"?><article><front><article-meta>
      <title-group><article-title>Ducks <italic>in</italic> Rain</article-title></title-group>
      <contrib-group>
        <contrib contrib-type="author"><name><surname>de Iaco</surname><given-names>Alberto</given-names></name></contrib>
        <contrib contrib-type="author"><name><surname>Wolf</surname><given-names>Gernot</given-names></name></contrib>
        <contrib contrib-type="author"><collab>Duck Consortium</collab></contrib>
      </contrib-group>
      <contrib-group><contrib contrib-type="editor"><name><surname>Editor</surname><given-names>Eve</given-names></name></contrib></contrib-group>
      <pub-date pub-type="collection"><year>2020</year></pub-date>
      <pub-date pub-type="epub"><day>1</day><month>6</month><year>2020</year></pub-date>
    </article-meta></front><back><ref-list><ref><element-citation><person-group><name><surname>Cited</surname><given-names>Carl</given-names></name></person-group></element-citation></ref></ref-list></back></article>`;
    const doc = await parse(xml, 'paper.xml');
    expect(doc.metadata).toMatchObject({
      title: 'Ducks in Rain',
      authors: ['Alberto de Iaco', 'Gernot Wolf', 'Duck Consortium'],
      creationDate: '2020-06-01',
    });
    // A date without its day stays out rather than becoming the first of a month.
    const undated = await parse(xml.replace('<day>1</day>', ''), 'paper.xml');
    expect(undated.metadata.creationDate).toBeUndefined();
  });

  it('html: structure, tables and lists; scripts, styles and hidden parts dropped; MathML kept', async () => {
    const html = `<html lang="en"><head><title>T</title><style>p{}</style><script>var secret=1</script></head><body>
      <h1>Main</h1><p>Hello <b>world</b></p><div style="display:none">hidden text</div>
      <ul><li>one</li><li>two<ol><li>two.a</li></ol></li></ul>
      <table><tr><th>h1</th><th>h2</th></tr><tr><td colspan="2">wide</td></tr></table>
      <math display="block"><mi>x</mi><mo>=</mo><mn>2</mn></math><h2>Sub</h2><p>after</p></body></html>`;
    const doc = await parse(html, 'page.html');
    const text = renderText(doc.root);
    expect(text).not.toMatch(/secret|hidden text|p\{\}/);
    expect(doc.metadata).toMatchObject({ title: 'T', language: 'en' });
    expect(all(doc.root, 'section').length).toBe(2);
    expect(all(doc.root, 'list_item').map((i) => i.text)).toEqual(['one', 'two', 'two.a']);
    expect(all(doc.root, 'cell')[2].attributes).toMatchObject({ colSpan: 2 });
    expect(all(doc.root, 'formula')[0].text).toBe('x = 2');
  });

  it('docx: headings, nested lists, tables with spans, OMML formulas and core metadata', async () => {
    const body = [
      para('Introduction', 'Heading1'),
      para('Plain text.'),
      para('bullet', undefined, { numId: 1, ilvl: 0 }),
      para('numbered child', undefined, { numId: 1, ilvl: 1 }),
      '<w:tbl><w:tr><w:tc><w:tcPr><w:gridSpan w:val="2"/></w:tcPr><w:p><w:r><w:t>Both</w:t></w:r></w:p></w:tc></w:tr><w:tr><w:tc><w:p><w:r><w:t>L</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>R</w:t></w:r></w:p></w:tc></w:tr></w:tbl>',
      '<w:p><m:oMathPara><m:oMath><m:f><m:num><m:r><m:t>a</m:t></m:r></m:num><m:den><m:r><m:t>b</m:t></m:r></m:den></m:f></m:oMath></m:oMathPara></w:p>',
    ].join('');
    const doc = await parse(makeDocx(body, 'My Title'), 'doc.docx');
    expect(doc.metadata).toMatchObject({ title: 'My Title', authors: ['Ada Lovelace'] });
    expect(all(doc.root, 'heading')[0]).toMatchObject({ text: 'Introduction', level: 1 });
    const [outer] = all(doc.root, 'list');
    expect(outer.attributes).toMatchObject({ ordered: false });
    expect(outer.children[0].text).toBe('bullet');
    expect(outer.children[0].children[0]).toMatchObject({ type: 'list', attributes: { ordered: true } });
    expect(all(doc.root, 'cell')[0]).toMatchObject({ text: 'Both', attributes: { colSpan: 2 } });
    expect(all(doc.root, 'formula')[0].text).toBe('\\frac{a}{b}');
  });

  it('docx: numbered headings carry the numbers Word displays', async () => {
    const body = [
      para('Intro', 'Heading1', { numId: 2, ilvl: 0 }),
      para('Scope', 'Heading2', { numId: 2, ilvl: 1 }),
      para('Terms', 'Heading2', { numId: 2, ilvl: 1 }),
      para('Method', 'Heading1', { numId: 2, ilvl: 0 }),
      para('Data', 'Heading2', { numId: 2, ilvl: 1 }),
    ].join('');
    const doc = await parse(makeDocx(body), 'numbered.docx');
    expect(all(doc.root, 'heading').map((h) => [h.text, h.level])).toEqual([
      ['1 Intro', 1],
      ['1.1 Scope', 2],
      ['1.2 Terms', 2],
      ['2 Method', 1],
      ['2.1 Data', 2],
    ]);
    expect(all(doc.root, 'list')).toHaveLength(0);
  });

  it('docx: a truncated package fails as truncated', async () => {
    const bytes = makeDocx(para('x'));
    await expect(parse(bytes.subarray(0, Math.floor(bytes.length * 0.6)), 'cut.docx')).rejects.toMatchObject({ code: 'TRUNCATED' });
  });

  it('xlsx: every sheet a table with 0-based CELL positions and formatted values', async () => {
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(
      wb,
      XLSX.utils.aoa_to_sheet([
        ['Item', 'Qty'],
        ['Pens', 3],
      ]),
      'Stock',
    );
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([[], [null, 'lonely']]), 'Other');
    const bytes = XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
    const doc = await parse(bytes, 'book.xlsx');
    expect(all(doc.root, 'heading').map((h) => h.text)).toEqual(['Stock', 'Other']);
    const cells = all(doc.root, 'cell');
    expect(cells.find((c) => c.text === 'Pens')?.positions).toEqual([{ type: 'CELL', sheet_name: 'Stock', row: 1, col: 0 }]);
    expect(cells.find((c) => c.text === 'lonely')?.positions).toEqual([{ type: 'CELL', sheet_name: 'Other', row: 1, col: 1 }]);
    expect(doc.metadata.sheetCount).toBe(2);
  });

  it('pdf: reads two columns in order, finds headings by size and font, keeps page boxes', async () => {
    const left = Array.from({ length: 12 }, (_, i) => ({ text: `Left column line number ${i + 1} with words`, x: 72, y: 640 - i * 14 }));
    const right = Array.from({ length: 12 }, (_, i) => ({ text: `Right column line number ${i + 1} with words`, x: 330, y: 640 - i * 14 }));
    const pdf = makePdf([[{ text: 'A Study of Columns', x: 200, y: 720, size: 20, font: 'F2' }, ...left, ...right]]);
    const doc = await parse(pdf, 'paper.pdf');
    const [page] = all(doc.root, 'page');
    expect(page.positions[0]).toEqual({ type: 'BBOX', page_number: 1, bbox: { x0: 0, y0: 0, x1: 612, y1: 792 } });
    const title = all(doc.root, 'heading')[0];
    expect(title).toMatchObject({ text: 'A Study of Columns', level: 1 });
    const box = (title.positions[0] as { bbox: { x0: number; y0: number } }).bbox;
    expect(box.x0).toBeCloseTo(200, 0);
    expect(box.y0).toBeLessThan(792 - 720);
    const text = renderText(doc.root);
    expect(text.indexOf('Left column line number 12')).toBeLessThan(text.indexOf('Right column line number 1 '));
    expect(doc.metadata.pageCount).toBe(1);
  });

  it('pdf: a file cut short fails as truncated', async () => {
    const pdf = makePdf([[{ text: 'hello', x: 72, y: 700 }]]);
    await expect(parse(pdf.subarray(0, pdf.length - 60), 'cut.pdf')).rejects.toMatchObject({ code: 'TRUNCATED' });
  });
});
