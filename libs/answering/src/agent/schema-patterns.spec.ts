import { compileOutputSchema } from './output-schema';
import { SCHEMA_PATTERN_MAX_LENGTH, schemaPatternProblems } from './schema-patterns';

// Thirty a's and a "!": a backtracking engine tries 2^30 ways to split them before failing.
const HOSTILE_NAME = `${'a'.repeat(30)}!`;
const NESTED_QUANTIFIER = '^(a+)+$';

describe('output schema patterns', () => {
  it('checks propertyNames.pattern in linear time: a catastrophic pattern answers at once', () => {
    const check = compileOutputSchema({ type: 'object', propertyNames: { pattern: NESTED_QUANTIFIER } });
    expect(check({ [HOSTILE_NAME]: 1 }).problems).toContain('(the answer) must match pattern "^(a+)+$"');
    expect(check({ aaaa: 1 }).problems).toEqual([]);
  });

  it('checks pattern and patternProperties in linear time too, nested and through $defs', () => {
    const check = compileOutputSchema({
      type: 'object',
      properties: { code: { $ref: '#/$defs/code' } },
      patternProperties: { [NESTED_QUANTIFIER]: { type: 'integer' } },
      $defs: { code: { type: 'string', pattern: NESTED_QUANTIFIER } },
    });
    expect(check({ code: HOSTILE_NAME }).problems).toEqual(['/code must match pattern "^(a+)+$"']);
    expect(check({ code: 'aaa', [HOSTILE_NAME]: 'not checked: the name does not match' }).problems).toEqual([]);
    expect(check({ aaa: 'x' }).problems).toEqual(['/aaa must be integer']);
  });

  it('keeps what patterns mean: unanchored search, classes, counted repetition, unicode', () => {
    const check = compileOutputSchema({
      type: 'object',
      properties: {
        invoice: { type: 'string', pattern: '^[A-Z]{3}-\\d{2,4}$' },
        word: { type: 'string', pattern: 'tax' },
        name: { type: 'string', pattern: '^\\p{L}+$' },
      },
    });
    expect(check({ invoice: 'INV-2024', word: 'the tax rate', name: 'Zoë' }).problems).toEqual([]);
    expect(check({ invoice: 'inv-2024', word: 'rate', name: 'Zoë 2' }).problems).toHaveLength(3);
  });

  it('names the path of every pattern RE2 cannot run, with the reason', () => {
    const problems = schemaPatternProblems({
      type: 'object',
      properties: {
        x: { type: 'string', pattern: '(a)\\1' },
        list: { type: 'array', items: [{ type: 'string', pattern: '(?=a)b' }] },
        ok: { type: 'string', pattern: '^(a+)+$' },
      },
      patternProperties: { '(?<!a)b': {} },
      propertyNames: { pattern: 'x{2,1001}' },
      $defs: { 'a b': { anyOf: [{ pattern: '(?!x)' }] } },
    });
    expect(problems).toEqual([
      {
        path: 'properties.x.pattern',
        problem: expect.stringMatching(/^is not a regular expression that can run in linear time: .*backreferences/),
      },
      { path: 'properties.list.items[0].pattern', problem: expect.stringMatching(/lookahead/) },
      { path: 'patternProperties["(?<!a)b"]', problem: expect.stringMatching(/linear time/) },
      { path: 'propertyNames.pattern', problem: expect.stringMatching(/invalid repeat count/) },
      { path: '$defs["a b"].anyOf[0].pattern', problem: expect.stringMatching(/linear time/) },
    ]);
  });

  it('does not read data as schemas: enum, const, default and examples may hold any "pattern"', () => {
    expect(
      schemaPatternProblems({
        type: 'object',
        properties: { pattern: { type: 'string', enum: ['(a)\\1'], default: '(a)\\1' } },
        const: { pattern: '(a)\\1' },
        examples: [{ pattern: '(a)\\1' }],
      }),
    ).toEqual([]);
  });

  it('refuses patterns too long or compiling to too large a program', () => {
    expect(schemaPatternProblems({ pattern: 'a'.repeat(SCHEMA_PATTERN_MAX_LENGTH + 1) })).toEqual([
      {
        path: 'pattern',
        problem: `is ${SCHEMA_PATTERN_MAX_LENGTH + 1} characters long; at most ${SCHEMA_PATTERN_MAX_LENGTH} are accepted`,
      },
    ]);
    expect(schemaPatternProblems({ pattern: '[a-z]{1000}x{100}' })).toEqual([
      { path: 'pattern', problem: expect.stringMatching(/too complex/) },
    ]);
  });

  it('bounds the distinct patterns of a schema together; a pattern repeated on many fields counts once', () => {
    const fields = (n: number, pattern: (i: number) => string) =>
      Object.fromEntries(Array.from({ length: n }, (_, i) => [`f${i}`, { type: 'string', pattern: pattern(i) }]));
    expect(schemaPatternProblems({ properties: fields(500, () => '^\\d{4}-\\d{2}-\\d{2}$') })).toEqual([]);
    expect(schemaPatternProblems({ properties: fields(6, (i) => `^[a-z]{${900 + i}}$`) })).toEqual([
      { path: '', problem: expect.stringMatching(/^has patterns that compile to \d+ RE2 instructions together; at most 4000/) },
    ]);
  });

  it('makes a schema with a pattern RE2 refuses fail to compile, should it get past the check', () => {
    expect(() => compileOutputSchema({ properties: { x: { pattern: '(a)\\1' } } })).toThrow(/not a valid JSON Schema.*linear time/);
  });
});
