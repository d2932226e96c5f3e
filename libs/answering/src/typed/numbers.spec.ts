import { findNumbers, parseNumber } from './numbers';

const value = (raw: string) => parseNumber(raw)?.value;

describe('parseNumber', () => {
  it.each([
    ['1,234,567', 1234567],
    ['1.234.567,89', 1234567.89],
    ['1.234,5', 1234.5],
    ['1 234', 1234],
    ['5\u00a0000 m²', 5000],
    ['12,5', 12.5],
    ['3.14', 3.14],
    ['12k', 12000],
    ['3.5 million', 3500000],
    ['1.1 million', 1100000],
    ['USD 3m', 3000000],
    ['€1,200.50', 1200.5],
    ['$2.5bn', 2500000000],
    ['-4', -4],
    ['−4', -4],
    ['(4)', -4],
    ['(1,250)', -1250],
    ['12.5%', 12.5],
    ['7 per cent', 7],
    ['twenty-five', 25],
    ['three', 3],
  ])('%s is %d', (raw, expected) => {
    expect(value(raw)).toBeCloseTo(expected, 6);
  });

  it('keeps units and currencies', () => {
    expect(parseNumber('12 kg')).toMatchObject({ value: 12, unit: 'kg', text: '12 kg' });
    expect(parseNumber('30 days')).toMatchObject({ value: 30, unit: 'days', text: '30 days' });
    expect(parseNumber('€1,200.50')).toMatchObject({ currency: 'EUR' });
    expect(parseNumber('1,000 USD')).toMatchObject({ value: 1000, currency: 'USD' });
    expect(parseNumber('45%')).toMatchObject({ percent: true });
    expect(parseNumber('12 employees')).toMatchObject({ value: 12, nextWord: 'employees', text: '12' });
  });

  it('reads 3m as metres unless it is money', () => {
    expect(parseNumber('3m')).toMatchObject({ value: 3, text: '3m', unit: 'm' });
  });

  it('tells whole from fractional numbers', () => {
    expect(parseNumber('3.7')?.fractional).toBe(true);
    expect(parseNumber('3.0')?.fractional).toBe(false);
    expect(parseNumber('3.5 million')?.fractional).toBe(false);
  });
});

describe('findNumbers', () => {
  it('finds every number with its offsets and skips identifiers', () => {
    const text = 'Revenue rose 12% to €1,200.50 in 2023 (A4 paper, COVID-19), with 30 days of notice.';
    const found = findNumbers(text);
    expect(found.map((n) => n.text)).toEqual(['12%', '€1,200.50', '2023', '30 days']);
    for (const n of found) expect(text.slice(n.start, n.end)).toBe(n.text);
  });

  it('reads Indian grouping and the lakh and crore scales', () => {
    expect(findNumbers('Market value ₹ 17,81,841 crore')[0]).toMatchObject({ value: 17818410000000, currency: 'INR' });
    expect(findNumbers('a prize of 2,50,000 rupees')[0]).toMatchObject({ value: 250000, text: '2,50,000' });
    expect(findNumbers('3 lakh visitors')[0]).toMatchObject({ value: 300000 });
  });

  it('says where a scaled number ends without its scale word', () => {
    const text = 'It holds 81.1M papers and $2.5 bn in assets, 40 k records and 3 m of cable.';
    const [papers, assets, records, cable] = findNumbers(text);
    expect(text.slice(papers.start, papers.scale?.bodyEnd)).toBe('81.1');
    expect(papers.scale).toMatchObject({ word: 'M', factor: 1e6 });
    expect(text.slice(assets.start, assets.scale?.bodyEnd)).toBe('$2.5');
    expect(text.slice(records.start, records.scale?.bodyEnd)).toBe('40');
    expect(cable.scale).toBeUndefined();
  });

  it('reads a parenthesised amount as an accounting negative', () => {
    const [n] = findNumbers('Net loss | (4,500) | 2023');
    expect(n).toMatchObject({ value: -4500, text: '(4,500)' });
    expect(findNumbers('Operating loss ($1.2m)')[0]).toMatchObject({ value: -1200000 });
  });

  it('keeps a measure or a percentage in parentheses positive', () => {
    expect(findNumbers('He is tall (1.91 m) and fast.')[0]).toMatchObject({ value: 1.91 });
    expect(findNumbers('Revenue grew (5%) last year.')[0]).toMatchObject({ value: 5, percent: true });
  });
});
