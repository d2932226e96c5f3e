import { findDescription, MAX_DESCRIPTION } from './description';
import { anInput, PROSE } from './testing/factories';

describe('description', () => {
  it('takes the abstract section after an "Abstract" heading', () => {
    const text = 'A Title\n\nJane Smith\n\nAbstract\n\nWe study ducks. Ducks are birds that swim.\n\n1 Introduction\n\nLong text.';
    const input = anInput({
      headings: [
        { level: 1, text: 'A Title' },
        { level: 2, text: 'Abstract' },
        { level: 2, text: '1 Introduction' },
      ],
    });
    expect(findDescription(input, text, 'A Title')).toEqual({
      value: 'We study ducks. Ducks are birds that swim.',
      explanation: 'abstract section at offset 21',
    });
  });

  it('takes an inline abstract ("Abstract—...")', () => {
    const text = 'Title\n\nAbstract—Tables are everywhere in documents and hard to read for machines.';
    expect(findDescription(anInput(), text, 'Title')?.value).toBe('Tables are everywhere in documents and hard to read for machines.');
  });

  it('otherwise takes the first substantial paragraph, not the title, lists or short lines', () => {
    const text = `Title\n\n- item one, a list item\n- item two\n- item three\n\nShort line.\n\n${PROSE}`;
    const found = findDescription(anInput(), text, 'Title');
    expect(found?.value).toMatch(/^Table structure recognition turns an image of a table/);
    expect(found?.explanation).toMatch(/^first substantial paragraph, at offset \d+$/);
  });

  it('cuts at a sentence boundary within ~500 characters', () => {
    const long = Array.from({ length: 30 }, (_, i) => `Sentence number ${i} talks about tables and cells.`).join(' ');
    const found = findDescription(anInput(), long, undefined);
    expect(found?.value.length).toBeLessThanOrEqual(MAX_DESCRIPTION);
    expect(found?.value).toMatch(/cells\.$/);
  });

  it('has none for a document without prose', () => {
    expect(findDescription(anInput(), 'a | b\n\n1 | 2', undefined)).toBeUndefined();
  });
});
