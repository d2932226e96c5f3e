import { checkFilter, compileFilterSchema, describeProblem, fieldOf, formatAjvErrors, parseJson, positionAt } from './filter-validation';

/** A filter schema shaped like the one GET /v1/rules/triggers/node_embedding/schema serves. */
const stringList = {
  type: 'array',
  items: {
    type: 'string',
    minLength: 1,
    maxLength: 1000,
    pattern: '^[^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F\\uD800-\\uDFFF]*$',
  },
  uniqueItems: true,
  maxItems: 100,
};
const schema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'https://docintel.dev/schemas/rules/node_embedding.json',
  title: 'node_embedding filter',
  type: 'object',
  additionalProperties: false,
  properties: {
    mime_types: stringList,
    node_types: stringList,
    min_file_size: { type: 'integer', minimum: 0 },
    max_file_size: { type: 'integer', minimum: 0 },
  },
  $comment: 'The filter serialised as JSON is at most 16384 bytes.',
};

const syntaxError = (text: string) => {
  const parsed = parseJson(text);
  if (parsed.ok) throw new Error(`expected a syntax error in ${text}`);
  return parsed.error;
};

describe('parseJson', () => {
  it('parses what JSON.parse parses and records where each value is', () => {
    const text = '{\n  "mime_types": ["application/pdf", "image/*"],\n  "max_file_size": 10\n}';
    const parsed = parseJson(text);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.value).toEqual(JSON.parse(text));
    expect(parsed.locations.get('')).toMatchObject({ line: 1, column: 1 });
    expect(parsed.locations.get('/mime_types')).toMatchObject({ line: 2, column: 3 }); // where its key starts
    expect(parsed.locations.get('/mime_types/1')).toMatchObject({ line: 2, column: 37 });
    expect(parsed.locations.get('/max_file_size')).toMatchObject({ line: 3, column: 3 });
    for (const ok of ['{}', '[]', '"a\\u00e9\\n"', '-0.5e+3', 'true', ' null ', '{"a~b/c": {"": [1, {"x": false}]}}']) {
      expect(parseJson(ok)).toMatchObject({ ok: true, value: JSON.parse(ok) });
    }
    expect((parseJson('{"a~b/c": 1}') as { locations: Map<string, unknown> }).locations.has('/a~0b~1c')).toBe(true);
  });

  it('gives the line and column of a syntax error and says what was expected', () => {
    expect(syntaxError('{\n  "mime_types": ["a",]\n}')).toMatchObject({
      line: 2,
      column: 22,
      message: expect.stringMatching(/trailing comma/),
    });
    expect(syntaxError('{"a": 1,}')).toMatchObject({ line: 1, column: 9, message: expect.stringMatching(/trailing comma/) });
    expect(syntaxError('{\n  mime_types: []\n}')).toMatchObject({
      line: 2,
      column: 3,
      message: expect.stringMatching(/double-quoted property name/),
    });
    expect(syntaxError("{'a': 1}")).toMatchObject({ line: 1, column: 2, message: expect.stringMatching(/double quotes/) });
    expect(syntaxError('{"a" 1}')).toMatchObject({ column: 6, message: expect.stringMatching(/':' after the property name "a"/) });
    expect(syntaxError('{"a": 1 "b": 2}')).toMatchObject({ column: 9, message: expect.stringMatching(/',' or '}'/) });
    expect(syntaxError('[1 2]')).toMatchObject({ column: 4, message: expect.stringMatching(/',' or '\]'/) });
    expect(syntaxError('{"a": [1,\n')).toMatchObject({ line: 2, column: 1, message: expect.stringMatching(/Unexpected end of the text/) });
    expect(syntaxError('{"a": "x')).toMatchObject({ column: 7, message: expect.stringMatching(/Unterminated string/) });
    expect(syntaxError('{"a": "x\ny"}')).toMatchObject({ line: 1, column: 9, message: expect.stringMatching(/line break/) });
    expect(syntaxError('{"a": "\\x"}')).toMatchObject({ message: expect.stringMatching(/Bad escape \\x/) });
    expect(syntaxError('{"a": "\\u12"}')).toMatchObject({ message: expect.stringMatching(/four hexadecimal digits/) });
    expect(syntaxError('{"a": 01}')).toMatchObject({ column: 7, message: 'Bad number' });
    expect(syntaxError('{"a": 1.}')).toMatchObject({ message: 'Bad number' });
    expect(syntaxError('{"a": tru}')).toMatchObject({ column: 7, message: expect.stringMatching(/expected a value/) });
    expect(syntaxError('{} {}')).toMatchObject({ column: 4, message: expect.stringMatching(/after the end of the JSON value/) });
    expect(syntaxError('')).toMatchObject({ line: 1, column: 1, message: expect.stringMatching(/end of the text/) });
  });

  it('counts lines and columns from 1', () => {
    expect(positionAt('ab\ncd', 0)).toEqual({ offset: 0, line: 1, column: 1 });
    expect(positionAt('ab\ncd', 4)).toEqual({ offset: 4, line: 2, column: 2 });
    expect(positionAt('ab', 99)).toEqual({ offset: 2, line: 1, column: 3 });
  });
});

describe('fieldOf', () => {
  it('names a JSON Pointer as the server names a field', () => {
    expect(fieldOf('')).toBe('filter');
    expect(fieldOf('/mime_types/0')).toBe('filter.mime_types[0]');
    expect(fieldOf('/a~1b/c d/x~0')).toBe('filter["a/b"]["c d"]["x~"]');
  });
});

describe('formatAjvErrors and checkFilter', () => {
  const validator = compileFilterSchema(schema);
  const problems = (text: string) => checkFilter(text, validator).problems.map(describeProblem);

  it('compiles the API schema (draft-07, $id, $comment) and reads its size limit', () => {
    expect(validator.compileError).toBeNull();
    expect(validator.maxBytes).toBe(16384);
    // Compiling it again (a reload) does not clash on its $id.
    expect(compileFilterSchema(schema).compileError).toBeNull();
  });

  it('accepts a valid filter', () => {
    expect(checkFilter('{"mime_types": ["application/pdf"], "max_file_size": 1048576}', validator)).toEqual({
      ok: true,
      filter: { mime_types: ['application/pdf'], max_file_size: 1048576 },
      problems: [],
    });
    expect(checkFilter('{}', validator).ok).toBe(true);
  });

  it('stops at a syntax error and gives its position', () => {
    expect(problems('{\n  "mime_types": [application/pdf]\n}')).toEqual([
      "JSON syntax (line 2, column 18): Unexpected 'a': expected a value (an object, an array, a string, a number, true, false or null)",
    ]);
    expect(problems('  ')).toEqual([expect.stringMatching(/The filter is empty/)]);
  });

  it('names each schema problem by its field, with where it is, in the order of the text', () => {
    const text = [
      '{',
      '  "min_file_size": -1,',
      '  "mime_types": ["application/pdf", 42, "", "application/pdf"],',
      '  "colour": "blue"',
      '}',
    ].join('\n');
    expect(problems(text)).toEqual([
      'filter.min_file_size (line 2, column 3): must be 0 or more',
      'filter.mime_types (line 3, column 3): must not repeat a value (items 0 and 3 are the same)',
      'filter.mime_types[1] (line 3, column 37): must be a string',
      'filter.mime_types[2] (line 3, column 41): must not be empty',
      'filter.colour (line 4, column 3): is not a key this filter accepts (allowed: mime_types, node_types, min_file_size, max_file_size)',
    ]);
  });

  it('words types, limits and patterns for a person', () => {
    expect(problems('{"max_file_size": 1.5, "node_types": "table"}')).toEqual([
      'filter.max_file_size (line 1, column 2): must be an integer',
      'filter.node_types (line 1, column 24): must be an array',
    ]);
    expect(problems(JSON.stringify({ node_types: Array.from({ length: 101 }, (_, i) => `t${i}`) }))).toEqual([
      'filter.node_types (line 1, column 2): must have at most 100 items',
    ]);
    expect(problems('{"mime_types": ["text/\\u0000plain"]}')).toEqual([
      expect.stringMatching(/^filter\.mime_types\[0\] \(line 1, column 17\): must not contain the character U\+0000/),
    ]);
    expect(problems('[]')).toEqual(['filter (line 1, column 1): must be a JSON object ({} matches everything)']);
  });

  it('checks the size of the whole filter when the schema states it', () => {
    const big = JSON.stringify({ mime_types: Array.from({ length: 100 }, (_, i) => `application/${'x'.repeat(200)}${i}`) });
    expect(problems(big)).toEqual([expect.stringMatching(/^filter: is \d+ bytes as JSON; the limit is 16384 bytes$/)]);
  });

  it('formats errors it has no wording for with Ajv’s own message, and places a missing key at its object', () => {
    const parsed = parseJson('{\n  "a": {}\n}');
    const locations = parsed.ok ? parsed.locations : new Map();
    expect(
      formatAjvErrors(
        [
          { keyword: 'required', instancePath: '/a', schemaPath: '#/required', params: { missingProperty: 'b' } },
          {
            keyword: 'multipleOf',
            instancePath: '',
            schemaPath: '#/multipleOf',
            params: { multipleOf: 2 },
            message: 'must be multiple of 2',
          },
        ],
        locations,
      ).map(describeProblem),
    ).toEqual(['filter (line 1, column 1): must be multiple of 2', 'filter.a.b (line 2, column 3): is required']);
  });

  it('ignores unknown formats and keywords, and a $schema it has no meta-schema for', () => {
    const odd = compileFilterSchema({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { since: { type: 'string', format: 'date-time' }, re: { type: 'string', format: 'made-up' } },
      'x-docintel': true,
      examples: [{}],
    });
    expect(odd.compileError).toBeNull();
    expect(checkFilter('{"since": "not a date", "re": "?"}', odd).ok).toBe(true);
    expect(checkFilter('{"since": 1}', odd).problems.map(describeProblem)).toEqual(['filter.since (line 1, column 2): must be a string']);
  });

  it('still checks the syntax when the schema does not compile', () => {
    const broken = compileFilterSchema({ type: 'object', properties: { a: { $ref: '#/nowhere' } } });
    expect(broken.compileError).toMatch(/nowhere/);
    expect(checkFilter('{"a": 1}', broken).ok).toBe(true);
    expect(checkFilter('{"a": }', broken).ok).toBe(false);
  });
});
