import 'reflect-metadata';
import { checkExpectedAnswer } from './expected-answer';

describe('checkExpectedAnswer', () => {
  it.each([
    ['12500', '12,500.00', { doubleValue: 12500 }, { dataType: 'FLOAT' as const }, 1],
    ['12,000', '12,500.00', { doubleValue: 12500 }, { dataType: 'FLOAT' as const }, 0],
    ['2023-03-14', '14/03/2023', { dateValue: '2023-03-14T00:00:00.000Z' }, { dataType: 'DATE' as const, dateFormat: 'EUR' as const }, 1],
    ['yes', 'true', { boolValue: true }, { dataType: 'BOOL' as const }, 1],
    ['no', 'true', { boolValue: true }, { dataType: 'BOOL' as const }, 0],
    ['The Globex Corporation', 'Globex Corporation.', { strValue: 'Globex Corporation.' }, { dataType: 'STRING' as const }, 1],
    ['Initech', 'Globex', { strValue: 'Globex' }, { dataType: 'STRING' as const }, 0],
  ])('expected %s, answered %s: %s', (expected, raw, value, type, validity) => {
    expect(checkExpectedAnswer(expected, raw, value, type).validity).toBe(validity);
  });

  it('says why when there is no answer', () => {
    expect(checkExpectedAnswer('90', '', null, { dataType: 'INT' })).toEqual({
      validity: 0,
      explanation: 'No answer was found; expected "90".',
    });
  });
});
