import type { AnswerTypeDto } from '@docintel/contracts';
import { typedValueOf } from './typed-value';

describe('typedValueOf', () => {
  it.each<[string, unknown, AnswerTypeDto, object, string]>([
    ['STRING', 'Acme Corp', { dataType: 'STRING' }, { strValue: 'Acme Corp' }, 'Acme Corp'],
    ['INT', 1200, { dataType: 'INT' }, { longValue: 1200 }, '1200'],
    ['FLOAT, rounded', 3.14159, { dataType: 'FLOAT', decimalPrecision: 'TWO_DECIMALS' }, { doubleValue: 3.14 }, '3.14'],
    ['a small FLOAT', 0.0000001, { dataType: 'FLOAT' }, { doubleValue: 1e-7 }, '1e-7'],
    ['BOOL', false, { dataType: 'BOOL' }, { boolValue: false }, 'No'],
    [
      'DATE, written per dateFormat',
      '2024-03-01',
      { dataType: 'DATE', dateFormat: 'US' },
      { dateValue: '2024-03-01T00:00:00.000Z' },
      '03/01/2024',
    ],
    ['ENUM', 'high', { dataType: 'ENUM', enumValues: ['Low', 'High'] }, { strValue: 'High' }, 'High'],
    ['STRING list', ['a', 'b', 'a'], { dataType: 'STRING', multiValued: true }, { strListValue: ['a', 'b'] }, 'a; b'],
    ['INT list', [1, 2], { dataType: 'INT', multiValued: true }, { longListValue: [1, 2] }, '1; 2'],
    ['FLOAT list', [1.5], { dataType: 'FLOAT', multiValued: true }, { doubleListValue: [1.5] }, '1.5'],
    ['BOOL list', [true], { dataType: 'BOOL', multiValued: true }, { boolListValue: [true] }, 'Yes'],
    [
      'DATE list',
      ['2024-01-31', '2025-12-01'],
      { dataType: 'DATE', multiValued: true, dateFormat: 'EUR' },
      { dateListValue: ['2024-01-31T00:00:00.000Z', '2025-12-01T00:00:00.000Z'] },
      '31/01/2024; 01/12/2025',
    ],
    [
      'ENUM list',
      ['Low', 'High'],
      { dataType: 'ENUM', multiValued: true, enumValues: ['Low', 'High'] },
      { strListValue: ['Low', 'High'] },
      'Low; High',
    ],
  ])('reads %s', (_name, value, answerType, expected, rawValue) => {
    const typed = typedValueOf(value as never, answerType);
    expect(typed.value).toEqual(expected);
    expect(typed.rawValue).toBe(rawValue);
  });

  it('says why a value cannot be read, and keeps the items of a list that can', () => {
    expect(typedValueOf('2024-02-31', { dataType: 'DATE' })).toMatchObject({
      value: null,
      problems: [expect.stringContaining('2024-02-31')],
    });
    expect(typedValueOf(null, { dataType: 'STRING' })).toMatchObject({ value: null, problems: ['the value is empty'] });
    const list = typedValueOf(['2024-01-01', '2024-13-45'], { dataType: 'DATE', multiValued: true });
    expect(list.value).toEqual({ dateListValue: ['2024-01-01T00:00:00.000Z'] });
    expect(list.problems).toHaveLength(1);
  });
});
