import { OUTPUT_SCHEMA_MAX_FIELDS } from '@docintel/answering';
import { outputSchemaProblems } from './output-schema';

describe('outputSchemaProblems', () => {
  it('accepts a catastrophic-looking pattern: it runs on RE2, in linear time', () => {
    expect(outputSchemaProblems({ type: 'object', propertyNames: { pattern: '^(a+)+$' } })).toEqual([]);
  });

  it('names the path of a pattern RE2 cannot run, and why', () => {
    expect(
      outputSchemaProblems({
        type: 'object',
        properties: { x: { type: 'string', pattern: '(a)\\1' } },
        $defs: { y: { propertyNames: { pattern: '(?=a)' } } },
      }),
    ).toEqual([
      { field: 'output_model_schema.properties.x.pattern', problem: expect.stringMatching(/linear time: .*backreferences/) },
      { field: 'output_model_schema.$defs.y.propertyNames.pattern', problem: expect.stringMatching(/linear time: .*lookahead/) },
    ]);
  });

  it('refuses a schema by its expanded size, naming the limit: a 300-byte recursive $ref, a wide schema', () => {
    const recursive = {
      $ref: '#/$defs/n',
      $defs: { n: { type: 'object', properties: Object.fromEntries('abcdefghij'.split('').map((k) => [k, { $ref: '#/$defs/n' }])) } },
    };
    expect(outputSchemaProblems(recursive)).toEqual([
      {
        field: 'output_model_schema',
        problem: expect.stringMatching(
          new RegExp(`^expands to more than \\d+ fields .*; at most ${OUTPUT_SCHEMA_MAX_FIELDS} are accepted$`),
        ),
      },
    ]);
    const wide = { type: 'object', properties: Object.fromEntries(Array.from({ length: 1365 }, (_, i) => [`f${i}`, { type: 'string' }])) };
    expect(outputSchemaProblems(wide)).toEqual([
      {
        field: 'output_model_schema',
        problem: `expands to 1365 fields (properties at any depth, $ref resolved); at most ${OUTPUT_SCHEMA_MAX_FIELDS} are accepted`,
      },
    ]);
  });

  it('accepts a schema at the limit', () => {
    const atLimit = {
      type: 'object',
      properties: Object.fromEntries(
        Array.from({ length: OUTPUT_SCHEMA_MAX_FIELDS }, (_, i) => [`f${i}`, { type: 'string', pattern: '^\\S+$' }]),
      ),
    };
    expect(outputSchemaProblems(atLimit)).toEqual([]);
  });
});
