import type { ReaderPassage } from '../reader';
import { checkCitations, locateQuote } from './citations';

const passage = (id: string, text: string): ReaderPassage => ({
  id,
  fileId: 'f',
  fileName: 'f.txt',
  nodeType: 'paragraph',
  text,
  headings: [],
  score: 1,
});

describe('locateQuote', () => {
  const text = 'The  Supplier shall\npay “late fees” of 2 % – monthly.';
  const at = (quote: string) => {
    const span = locateQuote(text, quote);
    return span && text.slice(span.start, span.end);
  };

  it('finds an exact quote', () => {
    expect(locateQuote(text, 'shall')).toEqual({ start: 14, end: 19 });
  });

  it('ignores differences of whitespace, quotation marks, dashes and case, and maps back to the original text', () => {
    expect(at('The Supplier shall pay')).toBe('The  Supplier shall\npay');
    expect(at('  "late fees" of 2 % - monthly ')).toBe('“late fees” of 2 % – monthly');
    expect(at('the supplier SHALL')).toBe('The  Supplier shall');
  });

  it('finds nothing for words not in the text, or an empty quote', () => {
    expect(locateQuote(text, 'shall pay late fees of 3 %')).toBeUndefined();
    expect(locateQuote(text, '   ')).toBeUndefined();
  });
});

describe('checkCitations', () => {
  const passages = [passage('p1', 'Rent is EUR 900 per month.'), passage('p2', 'Deposit: EUR 1,800.')];

  it('maps valid quotes to spans, each once, and says why the others are not used', () => {
    const { valid, problems } = checkCitations(
      [
        { passageId: 'p1', quote: 'EUR 900' },
        { passageId: 'p1', quote: 'EUR  900' },
        { passageId: 'p2', quote: 'EUR 1,800' },
        { passageId: 'p3', quote: 'EUR 900' },
        { passageId: 'p2', quote: 'EUR 900' },
      ],
      passages,
    );
    expect(valid).toEqual([
      { passageId: 'p1', start: 8, end: 15 },
      { passageId: 'p2', start: 9, end: 18 },
    ]);
    expect(problems).toEqual(['passage "p3" is not one of the passages given', 'the quote "EUR 900" does not occur in passage "p2"']);
  });
});
