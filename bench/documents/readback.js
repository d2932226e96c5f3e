'use strict';
/*
 * Reads back the ORIGINAL file at a citation's positions, as a person checking the citation would,
 * without the parser that produced the positions (only its charset decoding, which the LINE contract
 * names): LINE the decoded source lines (markup stripped for HTML and XML), CELL the sheet cell as
 * displayed, BBOX on a PDF page the words of its text layer whose box centre lies inside, BBOX on an
 * image (or a PDF page without a text layer) the OCR words of the stored node tree inside it (OCR
 * again would be too slow), PARAGRAPH the DOCX <w:p> or the DOC body paragraph.
 */
const { readFileSync } = require('node:fs');
const { dirname, extname, join } = require('node:path');
const { parseDocument } = require('htmlparser2');
const { unzipSync } = require('fflate');
const XLSX = require('xlsx');
const WordExtractor = require('word-extractor');
const { declaredCharset, decodeText } = require('@docintel/parsing/dist/support/decode');

const MARKUP = new Set(['html', 'htm', 'xml']);
const IMAGES = new Set(['jpg', 'jpeg', 'png', 'webp', 'bmp', 'tif', 'tiff', 'gif']);

/** Lines as the LINE contract counts them: split at \n, \r\n and a lone \r. */
const splitLines = (text) => text.split(/\r\n|\n|\r/);

/** The text of a markup fragment: tags stripped, entities decoded. */
function markupText(fragment) {
  const out = [];
  const walk = (nodes) => {
    for (const n of nodes) {
      if (n.type === 'text') out.push(n.data);
      else if (n.type === 'cdata' || n.type === 'tag' || n.type === 'script' || n.type === 'style') walk(n.children ?? []);
    }
  };
  walk(parseDocument(fragment, { decodeEntities: true }).children);
  return out.join('');
}

/** DOCX paragraph texts per the PARAGRAPH contract: the n-th <w:p> in document order, nested ones apart. */
function docxParagraphs(bytes) {
  const files = unzipSync(new Uint8Array(bytes), { filter: (f) => f.name === 'word/document.xml' });
  const xml = Buffer.from(files['word/document.xml']).toString('utf8');
  const paragraphs = [];
  const visit = (el) => {
    if (el.type !== 'tag') return;
    if (el.name === 'w:p') {
      const index = paragraphs.length;
      paragraphs.push('');
      const parts = [];
      const collect = (n) => {
        if (n.type !== 'tag') return;
        if (n.name === 'w:p') return visit(n); // nested (text box): its own paragraph, numbered when met
        if (n.name === 'w:pPr' || n.name === 'w:rPr') return; // tab stops and properties are not text
        if (n.name === 'w:t') parts.push(n.children.map((c) => c.data ?? '').join(''));
        else if (n.name === 'w:tab' && n.parent?.name === 'w:r') parts.push('\t');
        else if ((n.name === 'w:br' || n.name === 'w:cr') && n.parent?.name === 'w:r') parts.push('\n');
        else for (const c of n.children) collect(c);
      };
      for (const c of el.children) collect(c);
      paragraphs[index] = parts.join('');
      return;
    }
    for (const c of el.children) visit(c);
  };
  for (const c of parseDocument(xml, { xmlMode: true, decodeEntities: true }).children) visit(c);
  return paragraphs;
}

let pdfjsLib;
async function pdfjs() {
  pdfjsLib ??= await import(join(dirname(require.resolve('pdfjs-dist/package.json')), 'legacy/build/pdf.mjs'));
  return pdfjsLib;
}

/**
 * Words of a PDF page's text layer with their boxes, in top-left-origin points (the viewport at
 * scale 1 flips PDF user space). A text item is split into words with widths in proportion to their
 * characters, so that a box over part of a line keeps only the words it covers.
 */
async function pdfPageWords(bytes, pageNumber) {
  const lib = await pdfjs();
  const doc = await lib.getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, useSystemFonts: false, verbosity: 0 }).promise;
  try {
    if (pageNumber < 1 || pageNumber > doc.numPages) return [];
    const page = await doc.getPage(pageNumber);
    const viewport = page.getViewport({ scale: 1 });
    const { items } = await page.getTextContent();
    const words = [];
    for (const it of items) {
      if (!it.str || !it.str.trim()) continue;
      const m = lib.Util.transform(viewport.transform, it.transform);
      const size = Math.hypot(m[2], m[3]) || it.height || 1;
      const scale =
        Math.hypot(it.transform[0], it.transform[1]) > 0 ? Math.hypot(m[0], m[1]) / Math.hypot(it.transform[0], it.transform[1]) : 1;
      const width = Math.abs(it.width) * scale;
      const angle = Math.atan2(m[1], m[0]);
      const dx = Math.cos(angle);
      const dy = Math.sin(angle);
      for (const w of it.str.matchAll(/\S+/g)) {
        const along = ((w.index + w[0].length / 2) / it.str.length) * width;
        // Centre of the glyph box: along the baseline, then up by a third of the font size.
        words.push({ text: w[0], cx: m[4] + dx * along + dy * size * 0.3, cy: m[5] + dy * along - dx * size * 0.3, size });
      }
    }
    return words;
  } finally {
    await doc.destroy();
  }
}

const inside = (b, x, y, slack = 1) => x >= b.x0 - slack && x <= b.x1 + slack && y >= b.y0 - slack && y <= b.y1 + slack;

/** Words in reading order: lines top to bottom (a line is within half a font size), left to right. */
function readingOrder(words) {
  const sorted = [...words].sort((a, b) => a.cy - b.cy);
  const lines = [];
  for (const w of sorted) {
    const line = lines.find((l) => Math.abs(l.cy - w.cy) < (w.size ?? 8) * 0.5);
    if (line) line.words.push(w);
    else lines.push({ cy: w.cy, words: [w] });
  }
  return lines
    .map((l) =>
      l.words
        .sort((a, b) => a.cx - b.cx)
        .map((w) => w.text)
        .join(' '),
    )
    .join('\n');
}

/** OCR words of the stored node tree (attributes.words), per page number of their node. */
function ocrWordsOf(root) {
  const byPage = new Map();
  const walk = (n, page) => {
    const p = n.positions?.find((x) => x.type === 'BBOX')?.page_number ?? page;
    for (const w of n.attributes?.words ?? []) {
      const b = w.bbox;
      if (!byPage.has(p)) byPage.set(p, []);
      byPage.get(p).push({ text: w.text, cx: (b.x0 + b.x1) / 2, cy: (b.y0 + b.y1) / 2, size: b.y1 - b.y0 });
    }
    for (const c of n.children ?? []) walk(c, p);
  };
  walk(root, 1);
  return byPage;
}

/**
 * A reader of one original file. `loadTree` (async, optional) returns the stored node tree, needed
 * only for BBOX positions on images or on PDF pages without a text layer.
 */
function fileReader(path, { loadTree } = {}) {
  const ext = extname(path).slice(1).toLowerCase();
  const cache = new Map();
  const once = (key, make) => {
    if (!cache.has(key)) cache.set(key, make());
    return cache.get(key);
  };
  const bytes = () => once('bytes', () => readFileSync(path));
  const lines = () =>
    once('lines', () => {
      const b = bytes();
      return splitLines(decodeText(b, MARKUP.has(ext) ? declaredCharset(b) : undefined));
    });
  const ocr = () => once('ocr', async () => (loadTree ? ocrWordsOf(await loadTree()) : new Map()));

  async function bboxText(pos) {
    let words = [];
    let source = 'ocr';
    if (ext === 'pdf') {
      words = await once(`page${pos.page_number}`, () => pdfPageWords(bytes(), pos.page_number));
      source = 'pdf';
    }
    if (!words.length) {
      words = (await ocr()).get(pos.page_number) ?? [];
      source = 'ocr';
    }
    return { text: readingOrder(words.filter((w) => inside(pos.bbox, w.cx, w.cy))), source };
  }

  /** The text at one position, and how it was read. */
  async function read(pos) {
    switch (pos.type) {
      case 'LINE': {
        const line = lines()[pos.line_number - 1];
        if (line === undefined) return { text: '', source: 'line', error: `no line ${pos.line_number}` };
        const slice = line.slice(pos.column_index_start, pos.column_index_stop);
        return { text: slice, source: 'line' };
      }
      case 'CELL': {
        const wb = once('workbook', () => XLSX.read(bytes(), { type: 'buffer', cellDates: true, cellFormula: false, cellHTML: false }));
        const sheet = wb.Sheets[pos.sheet_name];
        if (!sheet) return { text: '', source: 'cell', error: `no sheet ${pos.sheet_name}` };
        const cell = sheet[XLSX.utils.encode_cell({ r: pos.row, c: pos.col })];
        const shown =
          !cell || cell.v === undefined || cell.v === null
            ? ''
            : (cell.w ?? (cell.v instanceof Date ? cell.v.toISOString().slice(0, 10) : String(cell.v)));
        return { text: shown, source: 'cell' };
      }
      case 'BBOX':
        if (ext !== 'pdf' && !IMAGES.has(ext)) return { text: '', source: 'bbox', error: `a BBOX on a .${ext} file` };
        return bboxText(pos);
      case 'PARAGRAPH': {
        const paragraphs =
          ext === 'docx'
            ? once('docx', () => docxParagraphs(bytes()))
            : await once('doc', async () => splitLines((await new WordExtractor().extract(path)).getBody()));
        const p = paragraphs[pos.paragraph_index];
        if (p === undefined) return { text: '', source: 'paragraph', error: `no paragraph ${pos.paragraph_index}` };
        return { text: p.slice(pos.column_index_start, pos.column_index_stop), source: 'paragraph' };
      }
      default:
        return { text: '', source: 'unknown', error: `unknown position type ${pos.type}` };
    }
  }

  /**
   * The text of all positions of a citation, in order. LINE slices of a markup file are joined
   * first and then stripped, since one element may span several lines.
   */
  async function readAll(positions) {
    const parts = [];
    const errors = [];
    let markup = [];
    const flush = () => {
      if (markup.length) parts.push(markupText(markup.join('\n')));
      markup = [];
    };
    for (const pos of positions) {
      const r = await read(pos);
      if (r.error) errors.push(r.error);
      if (pos.type === 'LINE' && MARKUP.has(ext)) markup.push(r.text);
      else {
        flush();
        parts.push(r.text);
      }
    }
    flush();
    return {
      text: parts
        .join('\n')
        .replace(/[ \t\u00a0]+/g, ' ')
        .trim(),
      errors,
    };
  }

  return { read, readAll };
}

module.exports = { fileReader, docxParagraphs, markupText, splitLines, readingOrder };
