import { findEnumMentions, labelSimilarity, matchEnum } from './enums';

const values = ['Fixed price', 'Time and materials', 'Cost plus', 'Café'];

describe('matchEnum', () => {
  it.each([
    ['fixed price', 'Fixed price'],
    ['FIXED-PRICE', 'Fixed price'],
    ['a fixed price contract', 'Fixed price'],
    ['time & materials', 'Time and materials'],
    ['Time and material', 'Time and materials'],
    ['cafe', 'Café'],
    ['Cost-plus', 'Cost plus'],
  ])('%s is %s', (raw, expected) => {
    expect(matchEnum(raw, values)?.value).toBe(expected);
  });

  it('refuses text close to none of the values', () => {
    expect(matchEnum('hourly rate', values)).toBeNull();
  });

  it('never returns a rejected value, nor the nearest other value instead of it', () => {
    expect(matchEnum('fixed price', values, ['Fixed price'])).toBeNull();
    expect(matchEnum('Cost plus', values, ['Fixed price'])?.value).toBe('Cost plus');
  });
});

describe('findEnumMentions', () => {
  it('finds values in text with offsets, tolerating case, plurals and a typo', () => {
    const text = 'Billing is on a Time and Materials basis; earlier work was fixed-price. Cafes nearby.';
    const found = findEnumMentions(text, values);
    expect(found.map((m) => [m.value, m.text])).toEqual([
      ['Time and materials', 'Time and Materials'],
      ['Fixed price', 'fixed-price'],
      ['Café', 'Cafes'],
    ]);
  });

  it('skips rejected values', () => {
    expect(findEnumMentions('fixed price', values, ['fixed price'])).toEqual([]);
  });

  it('scores similarity between 0 and 1', () => {
    expect(labelSimilarity('Cost plus', 'cost-plus')).toBe(1);
    expect(labelSimilarity('abc', 'xyz')).toBeLessThan(0.5);
  });
});
