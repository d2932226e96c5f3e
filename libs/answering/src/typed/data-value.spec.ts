import type { AnswerTypeDto } from '@docintel/contracts';
import { formatRawValue, roundTo, toDataValue } from './data-value';

const type = (t: Partial<AnswerTypeDto> & Pick<AnswerTypeDto, 'dataType'>): AnswerTypeDto => ({ multiValued: false, ...t });

describe('toDataValue', () => {
  it('reads INT and refuses fractions', () => {
    expect(toDataValue('1,234 employees', type({ dataType: 'INT' })).value).toEqual({ longValue: 1234 });
    expect(toDataValue('3.5 million', type({ dataType: 'INT' })).value).toEqual({ longValue: 3500000 });
    const r = toDataValue('3.7', type({ dataType: 'INT' }));
    expect(r.value).toBeNull();
    expect(r.problem).toMatch(/whole/);
  });

  it('reads FLOAT rounded to decimalPrecision', () => {
    expect(toDataValue('€1,200.456', type({ dataType: 'FLOAT', decimalPrecision: 'TWO_DECIMALS' })).value).toEqual({
      doubleValue: 1200.46,
    });
    expect(toDataValue('1.005', type({ dataType: 'FLOAT', decimalPrecision: 'TWO_DECIMALS' })).value).toEqual({ doubleValue: 1.01 });
    expect(toDataValue('(2.5)', type({ dataType: 'FLOAT' })).value).toEqual({ doubleValue: -2.5 });
  });

  it('reads DATE as an ISO date-time', () => {
    expect(toDataValue('March 1st, 2024', type({ dataType: 'DATE' })).value).toEqual({ dateValue: '2024-03-01T00:00:00.000Z' });
    expect(toDataValue('03/01/2024', type({ dataType: 'DATE', dateFormat: 'EUR' })).value).toEqual({
      dateValue: '2024-01-03T00:00:00.000Z',
    });
  });

  it('reads BOOL and ENUM', () => {
    expect(toDataValue('Yes', type({ dataType: 'BOOL' })).value).toEqual({ boolValue: true });
    expect(toDataValue('maybe', type({ dataType: 'BOOL' })).value).toBeNull();
    expect(toDataValue('fixed-price', type({ dataType: 'ENUM', enumValues: ['Fixed price', 'Cost plus'] })).value).toEqual({
      strValue: 'Fixed price',
    });
    expect(toDataValue('x', type({ dataType: 'ENUM' })).problem).toMatch(/enumValues/);
  });

  it('reads lists', () => {
    expect(toDataValue('Alice, Bob and Carol', type({ dataType: 'STRING', multiValued: true })).value).toEqual({
      strListValue: ['Alice', 'Bob', 'Carol'],
    });
    expect(toDataValue('1,200 and 3,400', type({ dataType: 'INT', multiValued: true })).value).toEqual({ longListValue: [1200, 3400] });
    expect(toDataValue('March 1, 2024 and April 2, 2024', type({ dataType: 'DATE', multiValued: true })).value).toEqual({
      dateListValue: ['2024-03-01T00:00:00.000Z', '2024-04-02T00:00:00.000Z'],
    });
  });
});

describe('formatRawValue', () => {
  it('writes dates per dateFormat', () => {
    const v = { dateValue: '2024-03-01T00:00:00.000Z' };
    expect(formatRawValue(v, type({ dataType: 'DATE', dateFormat: 'ISO' }))).toBe('2024-03-01');
    expect(formatRawValue(v, type({ dataType: 'DATE', dateFormat: 'EUR' }))).toBe('01/03/2024');
    expect(formatRawValue(v, type({ dataType: 'DATE', dateFormat: 'US' }))).toBe('03/01/2024');
  });

  it('writes floats with exactly the requested decimals, booleans and lists', () => {
    expect(formatRawValue({ doubleValue: 2.5 }, type({ dataType: 'FLOAT', decimalPrecision: 'TWO_DECIMALS' }))).toBe('2.50');
    expect(formatRawValue({ boolValue: false }, type({ dataType: 'BOOL' }))).toBe('No');
    expect(formatRawValue({ longListValue: [1, 2] }, type({ dataType: 'INT', multiValued: true }))).toBe('1; 2');
  });

  it('rounds half away from zero', () => {
    expect(roundTo(-1.005, 'TWO_DECIMALS')).toBe(-1.01);
    expect(roundTo(2.45, 'ONE_DECIMAL')).toBe(2.5);
    expect(roundTo(2.5, 'ZERO_DECIMALS')).toBe(3);
  });
});
