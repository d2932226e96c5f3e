#!/usr/bin/env node
/*
 * Writes the sample documents the README and the guides use: `node samples/make-samples.js`.
 * Everything in them is made up here (people, companies, figures), so the project may ship
 * them under its own licence. The output is deterministic: running it again changes nothing.
 */
'use strict';
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');
const XLSX = require('xlsx');

const dir = __dirname;

const CONTRACT = `SUPPLY AGREEMENT

This supply agreement is made between Northwind Traders Ltd (the Customer) and Globex Corporation (the Supplier).
This agreement was signed on 14 March 2023.
The Supplier is based in Rotterdam, where its head office and warehouse are located.
The Supplier delivers office furniture and spare parts to the Customer's sites.
The total fee is EUR 12,500.00 per year, invoiced quarterly.
Payment is due within 30 days of the invoice date.
Either party may terminate this agreement with a notice period of 90 days.
Non-compete clause: the contract includes a non-compete clause, so during its term the Supplier shall not supply the Customer's direct competitors in the Benelux.
This agreement is governed by the laws of the Netherlands.
`;

const FOOTBALLER = `Dylan Hafod

Dylan Hafod (born 3 September 1971) is a fictional Welsh footballer who played as a striker.

Early life
Hafod was born in Aberystwyth, Ceredigion, and grew up on a sheep farm near Tregaron.
His full name is Dylan Rhys Hafod.

Club career
Hafod joined Aberystwyth Town at sixteen and moved to Swansea City in 1990.
He scored 94 league goals for Swansea City before he retired in 2004.

International career
Hafod won 22 caps for Wales between 1993 and 2002 and scored 7 goals.
`;

const PAPER = {
  title: 'Reading Tables in Supplier Contracts',
  authors: 'Ada Marsh and Ben Okafor',
  lines: [
    'DOI: 10.5555/docintel.sample.2026',
    'Abstract',
    'We describe how a document intelligence service reads the tables of supplier contracts',
    'and inventories, and how every value it returns cites the cell it was read from.',
    'Keywords: table extraction, citations, supplier contracts',
    '1 Introduction',
    'Contracts and inventories keep their figures in tables. A reader that answers questions',
    'about them must say where each figure was read, so that a person can check it.',
    '2 Method',
    'Each table row is indexed as a passage; a question is answered from the best passages.',
    '3 Results',
    'On our sample inventory every unit price was read from the right cell.',
  ],
};

/** One page of text in Helvetica, written as a PDF 1.4 file with its cross-reference table. */
function pdf(title, authors, lines) {
  const esc = (t) => t.replace(/[()\\]/g, (c) => `\\${c}`);
  const text = [`BT /Bold 16 Tf 72 720 Td (${esc(title)}) Tj ET`, `BT /Body 11 Tf 72 696 Td (${esc(authors)}) Tj ET`];
  lines.forEach((line, i) => text.push(`BT /Body 10 Tf 72 ${664 - i * 18} Td (${esc(line)}) Tj ET`));
  const content = text.join('\n');
  const bodies = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /Body 5 0 R /Bold 6 0 R >> >> >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>',
    `<< /Title (${esc(title)}) /Author (${esc(authors)}) >>`,
  ];
  const parts = ['%PDF-1.4\n'];
  const at = [];
  let size = parts[0].length;
  bodies.forEach((body, n) => {
    const obj = `${n + 1} 0 obj\n${body}\nendobj\n`;
    at.push(size);
    parts.push(obj);
    size += obj.length;
  });
  const rows = at.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  parts.push(`xref\n0 ${bodies.length + 1}\n0000000000 65535 f \n${rows}`);
  parts.push(`trailer\n<< /Size ${bodies.length + 1} /Root 1 0 R /Info ${bodies.length} 0 R >>\nstartxref\n${size}\n%%EOF\n`);
  return Buffer.from(parts.join(''), 'latin1');
}

/** A workbook with one sheet, "Inventory": a header row and three products. */
function inventory() {
  const rows = [
    ['Product', 'Unit price', 'Currency', 'In stock'],
    ['Widget', 4.75, 'EUR', 120],
    ['Gadget', 12.5, 'EUR', 40],
    ['Sprocket', 0.95, 'EUR', 1000],
  ];
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), 'Inventory');
  // A fixed date keeps the file identical from one run to the next.
  book.Props = { Title: 'Inventory', CreatedDate: new Date('2026-01-01T00:00:00Z') };
  return XLSX.write(book, { type: 'buffer', bookType: 'xlsx', compression: true });
}

writeFileSync(join(dir, 'contract.txt'), CONTRACT);
writeFileSync(join(dir, 'footballer.txt'), FOOTBALLER);
writeFileSync(join(dir, 'paper.pdf'), pdf(PAPER.title, PAPER.authors, PAPER.lines));
writeFileSync(join(dir, 'inventory.xlsx'), inventory());
