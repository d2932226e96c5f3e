import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { parseDocument } from 'htmlparser2';
import WordExtractor from 'word-extractor';
import type { DocumentNode, LinePosition, ParagraphPosition, ParsedDocument, Position } from '../model';
import { ParserRegistry } from '../registry';
import { CORPUS_DIR } from '../testing/corpus';
import { makeDocx, para } from '../testing/fixtures';
import { DocParser } from './doc-parser';
import { DocxParser } from './docx-parser';
import { HtmlParser } from './html-parser';

// Every node with text must be citable: it has a position, and reading the ORIGINAL file at that
// position by the contract's rule (libs/parsing README) gives back its text. The readers below work
// on the raw bytes on their own, without the parsers' code.

jest.setTimeout(60_000);

const registry = new ParserRegistry([new HtmlParser(), new DocxParser(), new DocParser()]);
const parseFile = async (rel: string): Promise<{ doc: ParsedDocument; bytes: Buffer }> => {
  const bytes = readFileSync(join(CORPUS_DIR, rel));
  return { doc: await registry.parse({ source: bytes, fileName: rel.split('/').pop()! }), bytes };
};

const withText = (n: DocumentNode): DocumentNode[] => [...(n.text ? [n] : []), ...n.children.flatMap(withText)];
/** Whitespace does not count: a tag or a <br> between two words may or may not read back as a space. */
const squash = (s: string) => s.replace(/[\s\u00a0]+/g, '');

/**
 * HTML: the source lines of the positions, comments, scripts and styles removed, an image standing
 * for its alt text, other tags removed, entities decoded.
 */
function readHtml(lines: string[], positions: Position[]): string {
  const slices = (positions as LinePosition[]).map((p) => {
    expect(p.type).toBe('LINE');
    return lines[p.line_number - 1].slice(p.column_index_start, p.column_index_stop);
  });
  const stripped = slices
    .join('\n')
    .replace(/<!--[\s\S]*?-->|<(script|style)\b[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<img\b[^>]*?\balt\s*=\s*("[^"]*"|'[^']*')[^>]*>/gi, (_, alt: string) => ` ${alt.slice(1, -1)} `)
    .replace(/<[^>]*>/g, '');
  const decoded = parseDocument(stripped, { decodeEntities: true });
  return decoded.children.map((c) => ('data' in c ? String(c.data) : '')).join('');
}

/** DOCX: the text of every <w:p> of word/document.xml in start-tag order, by the contract's rule. */
function docxParagraphs(bytes: Buffer): string[] {
  const xml = Buffer.from(unzipSync(bytes, { filter: (f) => f.name === 'word/document.xml' })['word/document.xml']).toString('utf8');
  const texts: string[] = [];
  const open: number[] = [];
  let inText = false;
  let inProps = 0;
  const entity = (s: string) =>
    s.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_, e: string) =>
      e[0] === '#'
        ? String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1)))
        : ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" } as Record<string, string>)[e],
    );
  for (const m of xml.matchAll(/<(\/?)([\w:.-]+)[^>]*?(\/?)>|([^<]+)/g)) {
    const [, close, name, selfClose, text] = m;
    if (text !== undefined) {
      if (inText && open.length) texts[open[open.length - 1]] += entity(text);
      continue;
    }
    if (name === 'w:p') {
      if (close) open.pop();
      else {
        texts.push('');
        if (!selfClose) open.push(texts.length - 1);
      }
    } else if (name === 'w:pPr' || name === 'w:rPr') {
      if (!selfClose) inProps += close ? -1 : 1;
    } else if (name === 'w:t') inText = !close && !selfClose;
    else if (!inProps && open.length && !close && (name === 'w:tab' || name === 'w:br' || name === 'w:cr')) {
      texts[open[open.length - 1]] += name === 'w:tab' ? '\t' : '\n';
    }
  }
  return texts;
}

const readParagraphs = (paragraphs: string[], positions: Position[]) =>
  (positions as ParagraphPosition[])
    .map((p) => {
      expect(p.type).toBe('PARAGRAPH');
      expect(p.column_index_stop).toBeLessThanOrEqual(paragraphs[p.paragraph_index].length);
      return paragraphs[p.paragraph_index].slice(p.column_index_start, p.column_index_stop);
    })
    .join('\n');

/** The text a citation of `n` must hold: Word's computed heading number is not in the document's text. */
const ownText = (n: DocumentNode) => (typeof n.attributes?.label === 'string' ? n.text.slice(n.attributes.label.length) : n.text);

/** Nodes whose text is not the document's characters: formulas (LaTeX-like), images' alt text. */
const readable = (n: DocumentNode) => n.type !== 'formula' && !(n.type === 'figure' && n.children.length === 0);

function expectCitable(doc: ParsedDocument, read: (positions: Position[]) => string): number {
  const nodes = withText(doc.root);
  expect(nodes.length).toBeGreaterThan(0);
  const misses: string[] = [];
  for (const n of nodes) {
    if (n.positions.length === 0) misses.push(`${n.type} without position: ${n.text.slice(0, 60)}`);
    else if (readable(n) && !squash(read(n.positions)).includes(squash(ownText(n)))) {
      misses.push(`${n.type} "${n.text.slice(0, 60)}" reads back as "${read(n.positions).slice(0, 120)}"`);
    }
  }
  expect(misses).toEqual([]);
  return nodes.length;
}

describe('HTML: LINE positions in the decoded source', () => {
  it.each([
    ['html/docling_example_03.html', 'utf-8'],
    ['html/docling_html_rich_table_cells.html', 'utf-8'],
    ['html/docling_wiki_duck.html', 'utf-8'],
    ['html/edgartools_adi_2019_R2.htm', 'utf-8'],
    ['html/unstructured_example-steelJIS-datasheet.html', 'utf-8'],
    ['html/unstructured_example-10k.html', 'utf-8'],
    ['html/unstructured_fake-html-pre.htm', 'utf-8'],
    ['html/edgartools_aapl-20250329.htm', 'utf-8'],
    ['html/unstructured_fake-html-cp1252.html', 'windows-1252'],
    ['html/tika_testHTML_charset_utf16le.html', 'utf-16le'],
  ])('%s: every node with text reads back from its lines', async (file, encoding) => {
    const { doc, bytes } = await parseFile(file);
    const lines = new TextDecoder(encoding).decode(bytes).split(/\r\n|\r|\n/);
    expectCitable(doc, (positions) => readHtml(lines, positions));
  });

  it('a paragraph of several inline pieces spans them; headings and cells are their own elements', async () => {
    const html =
      '<html><body>\n<h1>Annual <em>report</em></h1>\n<p>Revenue rose\n  to <b>4.2 M&euro;</b> in\n2024.</p>\n<table><tr><td>Q1</td><td>12</td></tr><tr><td>Q2</td><td>14</td></tr></table>\n</body></html>';
    const doc = await registry.parse({ source: Buffer.from(html), fileName: 'r.html' });
    const [h, p, table] = doc.root.children[0].children;
    expect(h.positions).toEqual([{ type: 'LINE', line_number: 2, column_index_start: 0, column_index_stop: 31 }]);
    expect(p.text).toBe('Revenue rose to 4.2 M€ in 2024.');
    expect(p.positions).toEqual([
      { type: 'LINE', line_number: 3, column_index_start: 3, column_index_stop: 15 },
      { type: 'LINE', line_number: 4, column_index_start: 0, column_index_stop: 26 },
      { type: 'LINE', line_number: 5, column_index_start: 0, column_index_stop: 5 },
    ]);
    const line6 = html.split('\n')[5];
    const q2 = line6.indexOf('<td>14</td>');
    expect(table.children[1].children[1].positions).toEqual([
      { type: 'LINE', line_number: 6, column_index_start: q2, column_index_stop: q2 + 11 },
    ]);
  });
});

describe('DOCX: PARAGRAPH positions over the <w:p> elements of word/document.xml', () => {
  it.each([
    'docx/docling_word_sample.docx',
    'docx/docling_word_tables.docx',
    'docx/docling_docx_rich_tables_01.docx',
    'docx/docling_docx_lists.docx',
    'docx/docling_textbox.docx',
    'docx/docling_unit_test_headers_numbered.docx',
    'docx/unstructured_docx-tables.docx',
    'docx/unstructured_docx-hdrftr.docx',
    'docx/unstructured_handbook-1p.docx',
    'docx/tika_testWORD.docx',
  ])('%s: every node with text reads back from its paragraphs', async (file) => {
    const { doc, bytes } = await parseFile(file);
    const paragraphs = docxParagraphs(bytes);
    expectCitable(doc, (positions) => readParagraphs(paragraphs, positions));
  });

  it('docling_equations.docx: formulas cite the paragraph that holds them', async () => {
    const { doc } = await parseFile('docx/docling_equations.docx');
    const formulas = withText(doc.root).filter((n) => n.type === 'formula');
    expect(formulas.length).toBeGreaterThan(0);
    for (const f of formulas) expect(f.positions[0]).toMatchObject({ type: 'PARAGRAPH' });
  });

  it('counts paragraphs in tables and text boxes, and cuts leading and trailing space', async () => {
    const cell = (t: string) => `<w:tc>${para(t)}</w:tc>`;
    const textbox = `<w:p><w:r><w:t xml:space="preserve">  Host </w:t></w:r><w:r><w:txbxContent>${para('Boxed')}</w:txbxContent></w:r></w:p>`;
    const bytes = makeDocx(`${para('Intro')}<w:tbl><w:tr>${cell('A1')}${cell('B1')}</w:tr></w:tbl>${textbox}${para('End')}`);
    const doc = await registry.parse({ source: bytes, fileName: 'x.docx' });
    const byText = new Map(withText(doc.root).map((n) => [n.text, n.positions]));
    const at = (i: number, start: number, stop: number) => [
      { type: 'PARAGRAPH', paragraph_index: i, column_index_start: start, column_index_stop: stop },
    ];
    expect(byText.get('Intro')).toEqual(at(0, 0, 5));
    expect(byText.get('B1')).toEqual(at(2, 0, 2));
    expect(byText.get('Host')).toEqual(at(3, 2, 6));
    expect(byText.get('Boxed')).toEqual(at(4, 0, 5));
    expect(byText.get('End')).toEqual(at(5, 0, 3));
  });
});

describe('DOC: PARAGRAPH positions over the body text', () => {
  it.each([
    'doc/docling_legacy_sample.doc',
    'doc/docling_greek_heading_styles.doc',
    'doc/unstructured_simple.doc',
    'doc/tika_testWORD_numbered_list.doc',
    'doc/tika_testMSEquation-govdocs-863534.doc',
  ])('%s: every node with text reads back from its paragraphs', async (file) => {
    const { doc, bytes } = await parseFile(file);
    const d = await new WordExtractor().extract(bytes);
    const texts = [d.getBody(), d.getTextboxes({ includeHeadersAndFooters: false }), d.getFootnotes(), d.getEndnotes()];
    const paragraphs = texts.flatMap((t) => t.split(/\r\n|\r|\n/));
    expectCitable(doc, (positions) => readParagraphs(paragraphs, positions));
  });
});
