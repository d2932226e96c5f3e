import type { AnswerTypeDto } from '@docintel/contracts';
import { answerSchema, answerValidator, describeSchemaErrors, valueSchema, type LlmAnswerOutput } from './answer-schema';

const reply = (value: unknown, overrides: Partial<LlmAnswerOutput> = {}): unknown => ({
  found: true,
  value,
  explanation: 'Read from the passage.',
  citations: [{ passageId: 'p1', quote: 'x' }],
  ...overrides,
});

describe('the answer schema', () => {
  it.each<[string, AnswerTypeDto, object]>([
    ['STRING', { dataType: 'STRING' }, { type: 'string' }],
    ['INT', { dataType: 'INT' }, { type: 'integer' }],
    [
      'FLOAT',
      { dataType: 'FLOAT', decimalPrecision: 'TWO_DECIMALS' },
      { type: 'number', description: expect.stringContaining('Rounded to 2 decimals') as string },
    ],
    ['BOOL', { dataType: 'BOOL' }, { type: 'boolean' }],
    ['DATE', { dataType: 'DATE', dateFormat: 'US' }, { type: 'string', pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' }],
    [
      'ENUM',
      { dataType: 'ENUM', enumValues: ['Low', 'High', 'None'], rejectedEnumValues: ['None'] },
      { type: 'string', enum: ['Low', 'High'] },
    ],
    ['ENUM without values', { dataType: 'ENUM' }, { type: 'string' }],
  ])('types a %s value, or null', (_name, answerType, item) => {
    expect(valueSchema(answerType)).toMatchObject({ anyOf: [item, { type: 'null' }] });
    expect(valueSchema({ ...answerType, multiValued: true })).toMatchObject({ anyOf: [{ type: 'array', items: item }, { type: 'null' }] });
  });

  it('is an object OpenAI strict mode accepts: every property required, nothing else allowed', () => {
    const schema = answerSchema({ dataType: 'STRING' }, ['p1', 'p2', 'p1']);
    expect(schema).toMatchObject({
      type: 'object',
      required: ['found', 'value', 'explanation', 'citations'],
      additionalProperties: false,
      properties: {
        found: { type: 'boolean' },
        explanation: { type: 'string' },
        citations: {
          type: 'array',
          items: {
            required: ['passageId', 'quote'],
            additionalProperties: false,
            properties: { passageId: { enum: ['p1', 'p2'] }, quote: { type: 'string' } },
          },
        },
      },
    });
    expect(JSON.stringify(schema)).not.toContain('"format"');
  });

  describe('validator', () => {
    it('accepts replies of the answer type, and null when nothing was found', () => {
      expect(answerValidator({ dataType: 'INT' })(reply(12))).toBe(true);
      expect(answerValidator({ dataType: 'INT', multiValued: true })(reply([1, 2]))).toBe(true);
      expect(answerValidator({ dataType: 'DATE' })(reply('2024-02-29'))).toBe(true);
      expect(answerValidator({ dataType: 'BOOL' })(reply(null, { found: false, citations: [] }))).toBe(true);
    });

    it('refuses values of another type, values outside the enum and missing fields, saying where', () => {
      const int = answerValidator({ dataType: 'INT' });
      expect(int(reply(1.5))).toBe(false);
      expect(describeSchemaErrors(int.errors)).toContain('/value must be integer');
      const e = answerValidator({ dataType: 'ENUM', enumValues: ['Low', 'High'] });
      expect(e(reply('Medium'))).toBe(false);
      expect(describeSchemaErrors(e.errors)).toContain('/value must be equal to one of the allowed values ("Low", "High")');
      expect(answerValidator({ dataType: 'DATE' })(reply('31/12/2024'))).toBe(false);
      expect(answerValidator({ dataType: 'STRING' })(reply(['a']))).toBe(false);
      const s = answerValidator({ dataType: 'STRING' });
      expect(s({ found: true, value: 'a', explanation: '' })).toBe(false);
      expect(describeSchemaErrors(s.errors)).toContain("must have required property 'citations'");
      expect(s(reply('a', { extra: 1 } as Partial<LlmAnswerOutput>))).toBe(false);
    });

    it('leaves passage ids to the citation check', () => {
      expect(answerValidator({ dataType: 'STRING' })(reply('a', { citations: [{ passageId: 'unknown', quote: 'a' }] }))).toBe(true);
    });
  });
});
