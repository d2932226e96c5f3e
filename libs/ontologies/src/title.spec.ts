import { findTitle, isPlausibleTitle } from './title';
import { anInput } from './testing/factories';

describe('title', () => {
  it('takes a plausible embedded title and says it came from the PDF metadata', () => {
    const found = findTitle(
      anInput({ embeddedMetadata: { title: '  Attention Is All You Need ' }, headings: [{ level: 1, text: 'Other' }] }),
    );
    expect(found).toEqual({ value: 'Attention Is All You Need', explanation: 'PDF metadata Title' });
  });

  it.each([
    'Microsoft Word - report_final.docx',
    'Paper Title (use style: paper title)',
    'untitled',
    'Document1',
    'paper_v2_final',
    'scan0001',
    'C:\\temp\\x.pdf',
    'slides.pptx',
    '  ',
  ])('rejects the tool-made title %p', (title) => expect(isPlausibleTitle(title)).toBe(false));

  it('falls back to the first level-1 heading on the first page when the embedded title is junk', () => {
    const found = findTitle(
      anInput({
        embeddedMetadata: { title: 'Microsoft Word - draft.docx' },
        headings: [
          { level: 2, text: 'A Survey', page: 1 },
          { level: 1, text: 'Deep Learning for Tables', page: 1 },
          { level: 1, text: 'Another Level One', page: 2 },
        ],
      }),
    );
    expect(found).toEqual({ value: 'Deep Learning for Tables', explanation: 'first level-1 heading on page 1' });
  });

  it('takes the largest heading of the first page when none is level 1, skipping section headings', () => {
    const found = findTitle(
      anInput({
        headings: [
          { level: 2, text: 'Abstract', page: 1 },
          { level: 2, text: 'Dense Passage Retrieval', page: 1 },
          { level: 3, text: '1 Introduction', page: 1 },
        ],
      }),
    );
    expect(found).toEqual({ value: 'Dense Passage Retrieval', explanation: 'largest heading (level 2) on page 1' });
  });

  it('does not take a heading further into the document for the title', () => {
    const found = findTitle(
      anInput({
        headings: [{ level: 1, text: 'Results and Discussion', page: 3 }],
        firstPageText: 'Microrobots in Practice\n\nBody.',
        text: '',
      }),
    );
    expect(found).toEqual({ value: 'Microrobots in Practice', explanation: 'first non-empty line of the text' });
  });

  it('uses the first line that reads like a title when there are no headings', () => {
    const text =
      '12\n\n] L C . s c [\n\nthe end of a sentence from the previous page.\n\n2.1 Methods\n\nA Study of Ducks\n\nDucks are birds.';
    expect(findTitle(anInput({ text }))).toEqual({ value: 'A Study of Ducks', explanation: 'first non-empty line of the text' });
  });

  it('ends with the file name, without folders or extension', () => {
    expect(findTitle(anInput({ fileName: 'reports/2021/annual-report.pdf', text: '1 2 3' }))).toEqual({
      value: 'annual-report',
      explanation: 'file name',
    });
  });

  it('takes no heading of JSON or a spreadsheet (property and sheet names) for the title', () => {
    const found = findTitle(
      anInput({ fileName: 'records.json', mediaType: 'application/json', headings: [{ level: 1, text: 'metadata' }] }),
    );
    expect(found).toEqual({ value: 'records', explanation: 'file name' });
  });

  it('does not take a chapter line for the title', () => {
    expect(findTitle(anInput({ fileName: 'book.txt', mediaType: 'text/plain', text: 'CHAPTER I\n\nWar and Peace' })).value).toBe(
      'War and Peace',
    );
  });

  it('does not call the header row of a spreadsheet a title', () => {
    const found = findTitle(
      anInput({ fileName: 'data.csv', mediaType: 'text/csv', text: 'Name | City | Country\n\nAnn | Paris | France' }),
    );
    expect(found.explanation).toBe('file name');
  });
});
