import { citedSentence, columnsRange, findQuote, markRuns, quoteRange, sentenceRange, sentenceStarts, type TextRange } from './quote';
import { textRuns, type DocumentNode } from './tree';

type Position = DocumentNode['positions'][number];

const node = (
  text: string,
  positions: ReadonlyArray<Record<string, unknown>> = [],
  type: DocumentNode['type'] = 'paragraph',
): DocumentNode => ({ id: 'n1', type, text, children: [], positions: positions as Position[] }) as DocumentNode;

/** The text of a range, to read expectations as sentences rather than offsets. */
const cut = (text: string, r: TextRange | null) => (r ? text.slice(r.start, r.end) : null);

/** LINE positions of a text paragraph: each line from column 0 to its length. */
const linesOf = (text: string, first: number) =>
  text.split('\n').map((l, i) => ({ type: 'LINE', line_number: first + i, column_index_start: 0, column_index_stop: l.length }));

const CONTRACT = 'This agreement starts on 1 May 2026. Either party may end it with a notice period of 90 days. Payments are due monthly.';

describe('sentenceRange', () => {
  it('widens a quote to the sentence that holds it', () => {
    const at = CONTRACT.indexOf('90 days');
    expect(cut(CONTRACT, sentenceRange(CONTRACT, { start: at, end: at + 7 }))).toBe(
      'Either party may end it with a notice period of 90 days.',
    );
    expect(cut(CONTRACT, sentenceRange(CONTRACT, { start: 0, end: 4 }))).toBe('This agreement starts on 1 May 2026.');
    expect(cut(CONTRACT, sentenceRange(CONTRACT, { start: CONTRACT.length - 3, end: CONTRACT.length }))).toBe('Payments are due monthly.');
  });

  it('keeps every sentence a quote runs across', () => {
    const from = CONTRACT.indexOf('2026');
    const to = CONTRACT.indexOf('Either') + 6;
    expect(cut(CONTRACT, sentenceRange(CONTRACT, { start: from, end: to }))).toBe(
      'This agreement starts on 1 May 2026. Either party may end it with a notice period of 90 days.',
    );
  });

  it('does not end a sentence at abbreviations, initials, decimals or a lower-case word after a stop', () => {
    const text = 'Dr. Smith paid 3.5 EUR, e.g. for J. Doe. No. 7 is due. Then all was settled.';
    expect(sentenceStarts(text).map((s) => text.slice(s, s + 4))).toEqual(['Dr. ', 'No. ', 'Then']);
  });

  it('ends a sentence at ? and ! and after a closing quote or bracket', () => {
    const text = 'Is it due? Yes! He said "paid." (It was.) Done.';
    expect(sentenceStarts(text).map((s) => text.slice(s, s + 3))).toEqual(['Is ', 'Yes', 'He ', '(It', 'Don']);
  });

  it('cuts at a title line and at a blank line, not inside a hard-wrapped sentence', () => {
    const text = 'INVOICE 2026-031\nThe invoice total is 1,250 EUR, due on 12 March 2026.\nPayment by bank transfer to Initech.';
    const at = text.indexOf('1,250');
    expect(cut(text, sentenceRange(text, { start: at, end: at + 5 }))).toBe('The invoice total is 1,250 EUR, due on 12 March 2026.');

    const wrapped = 'The contract was signed by\nAlice Martin on 14 March, and\nthe budget agreed.\n\nNext point';
    const alice = wrapped.indexOf('Alice');
    expect(cut(wrapped, sentenceRange(wrapped, { start: alice, end: alice + 5 }))).toBe(
      'The contract was signed by\nAlice Martin on 14 March, and\nthe budget agreed.',
    );
    expect(sentenceStarts('A title\n\nsmall print').map((s) => 'A title\n\nsmall print'.slice(s))).toEqual([
      'A title\n\nsmall print',
      'small print',
    ]);
  });
});

describe('findQuote and quoteRange', () => {
  it('finds a quote as written, else ignoring case and white space', () => {
    expect(findQuote(CONTRACT, '90 days')).toEqual({ start: CONTRACT.indexOf('90 days'), end: CONTRACT.indexOf('90 days') + 7 });
    const text = 'The  Notice\nperiod is long.';
    expect(cut(text, findQuote(text, 'notice period'))).toBe('Notice\nperiod');
    expect(findQuote(text, '  ')).toBeNull();
    expect(findQuote(text, 'ninety days')).toBeNull();
  });

  it('finds the values of a list answer, from the first to the last', () => {
    const text = 'Meetings on 1 March, 1 April and 1 May.';
    expect(cut(text, quoteRange(text, '1 March; 1 May'))).toBe('1 March, 1 April and 1 May');
    expect(cut(text, quoteRange(text, '1 June; 1 May'))).toBe('1 May');
    expect(quoteRange(text, '1 June; 1 July')).toBeNull();
  });
});

describe('columnsRange', () => {
  it('maps the columns of one line onto the text of a paragraph of several lines', () => {
    const text = 'INVOICE 2026-031\nThe invoice total is 1,250 EUR.\nPaid.';
    const n = node(text, linesOf(text, 4));
    const col = 'The invoice total is '.length;
    expect(cut(text, columnsRange(n, { line: 5, columnStart: col, columnStop: col + 5 }))).toBe('1,250');
    // Columns on a line the node does not have, or a node whose lines do not add up to its text.
    expect(columnsRange(n, { line: 9, columnStart: 0, columnStop: 3 })).toBeNull();
    expect(columnsRange(node('something else', linesOf(text, 4)), { line: 5, columnStart: 0, columnStop: 3 })).toBeNull();
    expect(columnsRange(n, { line: 5 })).toBeNull();
  });

  it("maps a Word paragraph's columns onto its node", () => {
    const n = node(CONTRACT, [{ type: 'PARAGRAPH', paragraph_index: 7, column_index_start: 0, column_index_stop: CONTRACT.length }]);
    const at = CONTRACT.indexOf('monthly');
    expect(cut(CONTRACT, columnsRange(n, { paragraph: 7, columnStart: at, columnStop: at + 7 }))).toBe('monthly');
    expect(columnsRange(n, { paragraph: 8, columnStart: at, columnStop: at + 7 })).toBeNull();
  });
});

describe('citedSentence', () => {
  const contract = node(CONTRACT, [{ type: 'LINE', line_number: 3, column_index_start: 0, column_index_stop: CONTRACT.length }]);

  it('marks the sentence the citation columns name', () => {
    const at = CONTRACT.indexOf('90 days');
    expect(cut(CONTRACT, citedSentence(contract, { line: 3, columnStart: at, columnStop: at + 7 }))).toBe(
      'Either party may end it with a notice period of 90 days.',
    );
  });

  it('uses the quote when the columns are the whole node, or absent', () => {
    expect(cut(CONTRACT, citedSentence(contract, { line: 3, columnStart: 0, columnStop: CONTRACT.length, quote: 'monthly' }))).toBe(
      'Payments are due monthly.',
    );
    const pdfParagraph = node(CONTRACT, [{ type: 'BBOX', page_number: 1, bbox: { x0: 0, y0: 0, x1: 10, y1: 10 } }]);
    expect(cut(CONTRACT, citedSentence(pdfParagraph, { page: 1, quote: '1 MAY 2026' }))).toBe('This agreement starts on 1 May 2026.');
  });

  it('falls back to the whole node when the quote is not in it, or the sentence is all of it', () => {
    expect(citedSentence(contract, { quote: '120 days' })).toBeNull();
    expect(citedSentence(contract, {})).toBeNull();
    expect(citedSentence(node('Widget', [], 'cell'), { quote: 'Widget' })).toBeNull();
    expect(citedSentence(node('  One sentence only.  '), { quote: 'only' })).toBeNull();
    expect(citedSentence(node(''), { quote: 'x' })).toBeNull();
  });
});

describe('markRuns', () => {
  it('cuts the text at the mark, around formulas', () => {
    const text = 'Energy is $E = mc^2$ at rest. Mass is not.';
    const n = {
      ...node(text),
      attributes: { formulas: [{ latex: 'E = mc^2', display: false, start: 10, end: 20 }] },
    } as DocumentNode;
    const runs = markRuns(textRuns(n), { start: 0, end: 29 });
    expect(runs.map((r) => ('latex' in r ? `[${r.latex}]` : r.text))).toEqual(['Energy is ', '[E = mc^2]', ' at rest.', ' Mass is not.']);
    expect(runs.map((r) => r.marked)).toEqual([true, true, true, false]);
    expect(markRuns(textRuns(node(CONTRACT)), null)).toEqual([{ text: CONTRACT, marked: false }]);
  });
});
