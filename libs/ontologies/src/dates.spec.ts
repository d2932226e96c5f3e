import { findDates, findPublicationDate, isoDate, parseEmbeddedDate } from './dates';
import { anInput } from './testing/factories';

describe('dates', () => {
  it('reads the usual shapes as ISO 8601 at their precision', () => {
    const text = '2021-03-12, 12 March 2021, March 12, 2021, 3rd of Sept. 2020, Dec 2019, 2018/07/04';
    expect(findDates(text).map((d) => d.iso)).toEqual(['2021-03-12', '2021-03-12', '2021-03-12', '2020-09-03', '2019-12', '2018-07-04']);
  });

  it('rejects impossible dates', () => {
    expect(isoDate(2021, 2, 30)).toBeUndefined();
    expect(isoDate(1850, 1, 1)).toBeUndefined();
    expect(findDates('31 February 2021')).toEqual([]);
  });

  it('parses embedded PDF and ISO dates', () => {
    expect(parseEmbeddedDate("D:20210312120000+01'00'")).toBe('2021-03-12');
    expect(parseEmbeddedDate('2019-11-05T08:00:00Z')).toBe('2019-11-05');
    expect(parseEmbeddedDate(new Date(Date.UTC(2020, 0, 2)))).toBe('2020-01-02');
    expect(parseEmbeddedDate('garbage')).toBeUndefined();
  });

  it('prefers a labelled date near the top to the embedded creation date', () => {
    const input = anInput({ embeddedMetadata: { creationDate: '2022-01-01' } });
    const text = 'A Title\n\nReceived: 1 January 2020\nPublished: 12 March 2021\n\nBody';
    expect(findPublicationDate(input, text)).toEqual({
      value: '2021-03-12',
      explanation: 'date labelled "Published" in text at offset 45',
    });
  });

  it('uses the embedded creation date when the text has no labelled date', () => {
    const input = anInput({ embeddedMetadata: { creationDate: 'D:20210312120000Z' } });
    expect(findPublicationDate(input, 'No dates here.')).toEqual({ value: '2021-03-12', explanation: 'PDF metadata CreationDate' });
  });

  it('falls back to the first date near the top that is not a review date', () => {
    const text = 'Received 5 May 2019; accepted 6 June 2019\n\nGeneva, 7 July 2019';
    expect(findPublicationDate(anInput(), text)?.value).toBe('2019-07-07');
  });
});
