'use strict';
const { describe, it } = require('node:test');
const assert = require('node:assert/strict');
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const { fileReader, docxParagraphs } = require('./readback');

const CORPUS = join(__dirname, '../../../shared/corpus');
const at = (file, options) => fileReader(join(CORPUS, file), options);
const line = (line_number, column_index_start, column_index_stop) => ({ type: 'LINE', line_number, column_index_start, column_index_stop });

describe('read back LINE positions', () => {
  it('slices a UTF-8 text file by 1-based line and 0-based columns', async () => {
    const r = at('txt/unstructured_norwich-city.txt');
    assert.equal((await r.readAll([line(6, 14, 26)])).text, '26 June 1968');
  });

  it('decodes UTF-16 (big-endian, no BOM) before counting lines', async () => {
    const r = at('txt/unstructured_fake-text-utf-16-be.txt');
    assert.equal((await r.readAll([line(3, 0, 20)])).text, 'Doylestown, PA 18901');
  });

  it('decodes a cp1252 text file', async () => {
    const r = at('txt/tika_testTXT_win-1252.txt');
    assert.match((await r.readAll([line(1, 0, 200)])).text, /smart quotes/);
  });

  it('strips the tags of HTML slices and decodes them per the declared charset, joining lines of one element', async () => {
    const cp1252 = at('html/unstructured_fake-html-cp1252.html');
    assert.equal((await cp1252.readAll([line(5, 0, 25)])).text, 'My First Heading');
    assert.match((await cp1252.readAll([line(10, 0, 60)])).text, /^Die schöne Frau/);
    const utf16 = at('html/tika_testHTML_charset_utf16le.html');
    assert.equal((await utf16.readAll([line(7, 2, 39)])).text, 'This is a sample text');
  });

  it('reports a line past the end instead of inventing text', async () => {
    const { text, errors } = await at('txt/unstructured_norwich-city.txt').readAll([line(100000, 0, 5)]);
    assert.equal(text, '');
    assert.match(errors[0], /no line 100000/);
  });
});

describe('read back CELL positions', () => {
  it('reads the sheet cell as displayed (row and col 0-based)', async () => {
    const r = at('xlsx/docling_xlsx_01.xlsx');
    const cell = (sheet_name, row, col) => ({ type: 'CELL', sheet_name, row, col });
    assert.equal((await r.readAll([cell('Sheet1', 0, 2)])).text, 'third');
    assert.equal((await r.readAll([cell('Sheet1', 5, 2)])).text, '-3');
    assert.match((await r.readAll([cell('Nope', 0, 0)])).errors[0], /no sheet/);
  });
});

describe('read back BBOX positions', () => {
  it('keeps the words of the PDF text layer whose centre lies in the box (top-left origin, points)', async () => {
    const r = at('pdf/docling_multi_page.pdf');
    const top = await r.readAll([{ type: 'BBOX', page_number: 1, bbox: { x0: 0, y0: 0, x1: 1000, y1: 100 } }]);
    assert.match(top.text, /The Evolution of the Word Processor/);
    assert.doesNotMatch(top.text, /Sholes/);
    const all = await r.readAll([{ type: 'BBOX', page_number: 1, bbox: { x0: 0, y0: 0, x1: 1000, y1: 1000 } }]);
    assert.match(all.text, /Patented in 1868 by Christopher Latham Sholes/);
  });

  it('reads an image box from the OCR words of the stored node tree', async () => {
    const tree = {
      type: 'document',
      positions: [],
      children: [
        {
          type: 'paragraph',
          positions: [{ type: 'BBOX', page_number: 1, bbox: { x0: 10, y0: 10, x1: 200, y1: 30 } }],
          attributes: {
            words: [
              { text: 'Total', bbox: { x0: 10, y0: 10, x1: 50, y1: 30 }, confidence: 95 },
              { text: '42', bbox: { x0: 60, y0: 10, x1: 80, y1: 30 }, confidence: 95 },
              { text: 'EUR', bbox: { x0: 150, y0: 10, x1: 200, y1: 30 }, confidence: 95 },
            ],
          },
          children: [],
        },
      ],
    };
    const r = at('images/does-not-need-to-exist.png', { loadTree: async () => tree });
    assert.equal((await r.readAll([{ type: 'BBOX', page_number: 1, bbox: { x0: 0, y0: 0, x1: 100, y1: 40 } }])).text, 'Total 42');
  });
});

describe('read back PARAGRAPH positions', () => {
  it('DOCX: numbers every <w:p> in document order, text boxes included, tab stops not read as text', () => {
    const paragraphs = docxParagraphs(readFileSync(join(CORPUS, 'docx/docling_word_sample.docx')));
    assert.equal(paragraphs[0], 'Summer activities');
    assert.equal(paragraphs[1], 'Swimming in the lake');
    const boxes = docxParagraphs(readFileSync(join(CORPUS, 'docx/docling_textbox.docx')));
    // A text box's paragraph follows the one holding it and is not part of its text.
    assert.equal(boxes[4], 'Student falls ill');
    assert.ok(!boxes[3].includes('Student falls ill'));
  });

  it('DOCX: slices the paragraph by its columns', async () => {
    const r = at('docx/docling_word_sample.docx');
    assert.equal(
      (await r.readAll([{ type: 'PARAGRAPH', paragraph_index: 1, column_index_start: 12, column_index_stop: 20 }])).text,
      'the lake',
    );
  });

  it("DOC: reads word-extractor's body split at paragraph marks", async () => {
    const r = at('doc/unstructured_simple.doc');
    assert.equal(
      (await r.readAll([{ type: 'PARAGRAPH', paragraph_index: 0, column_index_start: 0, column_index_stop: 100 }])).text,
      'These are a few of my favorite things:',
    );
  });
});
