import { findDates, formatDate, parseDate, toIsoDateTime } from './dates';

const iso = (raw: string, format?: 'ISO' | 'EUR' | 'US') => {
  const d = parseDate(raw, format);
  return d && formatDate(d);
};

describe('parseDate', () => {
  it.each([
    ['2024-03-01', '2024-03-01'],
    ['2024/03/01', '2024-03-01'],
    ['2024-03-01T10:15:00Z', '2024-03-01'],
    ['1 March 2024', '2024-03-01'],
    ['1st of March, 2024', '2024-03-01'],
    ['01-Mar-2024', '2024-03-01'],
    ['March 1st, 2024', '2024-03-01'],
    ['Mar. 1 2024', '2024-03-01'],
    ['01.03.2024', '2024-03-01'],
    ['13/01/2024', '2024-01-13'],
    ['01/13/2024', '2024-01-13'],
    ['March 2024', '2024-03-01'],
    ['Q3 2024', '2024-07-01'],
    ['signed in 1998', '1998-01-01'],
    ["1 Jan '99", '1999-01-01'],
  ])('%s is %s', (raw, expected) => {
    expect(iso(raw)).toBe(expected);
  });

  it('resolves 03/01/2024 by the requested format, else slashes read month first', () => {
    expect(iso('03/01/2024', 'EUR')).toBe('2024-01-03');
    expect(iso('03/01/2024', 'US')).toBe('2024-03-01');
    expect(iso('03/01/2024')).toBe('2024-03-01');
    expect(parseDate('03/01/2024')?.ambiguous).toBe(true);
    expect(iso('03.01.2024')).toBe('2024-01-03');
  });

  it('refuses impossible dates', () => {
    expect(parseDate('31 February 2024')?.precision).not.toBe('day');
    expect(parseDate('2023-02-29')).toBeNull();
  });

  it('records the precision', () => {
    expect(parseDate('March 2024')?.precision).toBe('month');
    expect(parseDate('Q1 2024')?.precision).toBe('quarter');
    expect(parseDate('2024')?.precision).toBe('year');
  });
});

describe('findDates', () => {
  it('finds dates with offsets, longest reading first', () => {
    const text = 'The agreement dated 1 March 2024 ends on 2026-02-28; renewal was discussed in Q4 2025.';
    const found = findDates(text);
    expect(found.map((d) => d.text)).toEqual(['1 March 2024', '2026-02-28', 'Q4 2025']);
    for (const d of found) expect(text.slice(d.start, d.end)).toBe(d.text);
  });

  it('does not take amounts for years', () => {
    expect(findDates('a fee of 2,500 and 1500.50')).toEqual([]);
  });
});

describe('formatting', () => {
  const d = { year: 2024, month: 3, day: 1 };
  it('writes every format', () => {
    expect(formatDate(d, 'ISO')).toBe('2024-03-01');
    expect(formatDate(d, 'EUR')).toBe('01/03/2024');
    expect(formatDate(d, 'US')).toBe('03/01/2024');
    expect(toIsoDateTime(d)).toBe('2024-03-01T00:00:00.000Z');
  });
});
