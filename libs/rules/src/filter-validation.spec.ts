import { filterProblems, MAX_FILTER_PROBLEMS } from './filter-validation';
import { FILTER_LIMITS } from './filter-limits';
import { TRIGGERS } from './triggers';

describe('filterProblems', () => {
  it('accepts the empty filter and every documented key for each trigger', () => {
    expect(filterProblems('corpus_parsing', {})).toEqual([]);
    expect(filterProblems('corpus_parsing', { mime_types: ['application/pdf'], exclude_mime_types: ['image/*'] })).toEqual([]);
    expect(
      filterProblems('node_embedding', {
        mime_types: ['application/pdf'],
        node_types: ['paragraph'],
        classifications: ['abstract'],
        content_patterns: ['^Table \\d+'],
        min_file_size: 0,
        max_file_size: 10_000_000,
      }),
    ).toEqual([]);
  });

  it('limits corpus_parsing to mime_types and exclude_mime_types, naming each unknown key', () => {
    const problems = filterProblems('corpus_parsing', { max_file_size: 10, colour: 'red' });
    expect(problems.map((p) => p.field).sort()).toEqual(['filter.colour', 'filter.max_file_size']);
    expect(problems[0].problem).toContain('allowed: mime_types, exclude_mime_types');
  });

  it('names wrong types field by field, down to array items', () => {
    const problems = filterProblems('node_embedding', { mime_types: 'application/pdf', max_file_size: '10MB', node_types: ['table', 3] });
    expect(problems).toEqual(
      expect.arrayContaining([
        { field: 'filter.mime_types', problem: 'must be an array' },
        { field: 'filter.max_file_size', problem: 'must be of type integer' },
        { field: 'filter.node_types[1]', problem: 'must be of type string' },
      ]),
    );
  });

  it('rejects min_file_size above max_file_size and negative sizes', () => {
    expect(filterProblems('node_embedding', { min_file_size: 100, max_file_size: 10 })).toEqual([
      { field: 'filter.min_file_size', problem: 'must not be above max_file_size (10)' },
    ]);
    expect(filterProblems('formula_augmentation', { max_file_size: -1 })).toEqual([
      { field: 'filter.max_file_size', problem: 'must be 0 or greater' },
    ]);
  });

  it('rejects content patterns that are not regular expressions, by index', () => {
    const problems = filterProblems('node_embedding', { content_patterns: ['ok', '(unclosed', '[z-a]'] });
    expect(problems.map((p) => p.field)).toEqual(['filter.content_patterns[1]', 'filter.content_patterns[2]']);
    expect(problems[0].problem).toMatch(/^is not a valid regular expression/);
  });

  it('rejects a filter that is not an object', () => {
    expect(filterProblems('corpus_parsing', ['application/pdf'])).toEqual([{ field: 'filter', problem: 'must be an object' }]);
  });

  it('publishes a draft-07 schema per trigger that forbids unknown keys', () => {
    for (const t of Object.values(TRIGGERS)) {
      expect(t.schema).toMatchObject({ type: 'object', additionalProperties: false });
    }
    expect(Object.keys(TRIGGERS.corpus_parsing.schema.properties as object)).toEqual(['mime_types', 'exclude_mime_types']);
  });
});

describe('filterProblems: limits and unsafe values', () => {
  const huge = 'a'.repeat(600_000);

  it('names a string over the length limit and a filter over the size limit', () => {
    const problems = filterProblems('corpus_parsing', { mime_types: [huge] });
    expect(problems).toEqual([
      { field: 'filter.mime_types[0]', problem: 'must be at most 1000 characters long' },
      { field: 'filter', problem: 'is 600019 bytes as JSON, the limit is 16384 bytes' },
    ]);
  });

  it('limits the items of each list and the size of the whole filter', () => {
    const many = Array.from({ length: FILTER_LIMITS.maxItems + 1 }, (_, i) => `type/${i}`);
    expect(filterProblems('corpus_parsing', { mime_types: many })).toEqual([
      { field: 'filter.mime_types', problem: 'must have at most 100 items' },
    ]);
    const long = Array.from({ length: 20 }, (_, i) => `${i}/${'x'.repeat(990)}`);
    const problems = filterProblems('node_embedding', { mime_types: long });
    expect(problems).toEqual([{ field: 'filter', problem: expect.stringMatching(/^is \d+ bytes as JSON, the limit is 16384 bytes$/) }]);
    expect(filterProblems('node_embedding', { mime_types: long.slice(0, 15) })).toEqual([]);
  });

  it('publishes the limits in each schema', () => {
    const items = (TRIGGERS.node_embedding.schema.properties as Record<string, Record<string, unknown>>).content_patterns;
    expect(items).toMatchObject({ maxItems: 100, items: { maxLength: 1000, pattern: expect.any(String) } });
  });

  it('refuses NUL, other control characters and unpaired surrogates, naming the field', () => {
    expect(filterProblems('corpus_parsing', { mime_types: ['application/pdf\u0000'] })).toEqual([
      {
        field: 'filter.mime_types[0]',
        problem:
          'must not contain the NUL character (U+0000) (control characters other than tab, line feed and carriage return, and unpaired surrogates, are not allowed)',
      },
    ]);
    expect(filterProblems('node_embedding', { node_types: ['para\u0007graph'] })[0]).toMatchObject({
      field: 'filter.node_types[0]',
      problem: expect.stringContaining('the control character U+0007'),
    });
    expect(filterProblems('node_embedding', { content_patterns: ['ab\ud800'] })[0]).toMatchObject({
      field: 'filter.content_patterns[0]',
      problem: expect.stringContaining('an unpaired surrogate (U+D800)'),
    });
    // Tabs and new lines may be written in a pattern; a pair of surrogates is one character.
    expect(filterProblems('node_embedding', { content_patterns: ['a\tb\nc', '😀'] })).toEqual([]);
  });

  it('refuses lookaround and backreferences by index, and patterns too complex to run cheaply', () => {
    const problems = filterProblems('node_embedding', { content_patterns: ['ok', '(?<=a)b', '(a)\\1', '[a-z]{1000}x'] });
    expect(problems.map((p) => p.field)).toEqual([
      'filter.content_patterns[1]',
      'filter.content_patterns[2]',
      'filter.content_patterns[3]',
    ]);
    expect(problems[0].problem).toMatch(/^is not a valid regular expression: .*RE2 syntax/);
    expect(problems[2].problem).toMatch(/^is too complex/);
    const heavy = Array.from({ length: 5 }, (_, i) => `${i}[a-z]{900}`);
    expect(filterProblems('node_embedding', { content_patterns: heavy })).toEqual([
      { field: 'filter.content_patterns', problem: expect.stringMatching(/^compile to \d+ RE2 instructions together, the limit is 4000/) },
    ]);
  });

  it('lists at most MAX_FILTER_PROBLEMS problems and says how many more there were', () => {
    const bad = Array.from({ length: 60 }, (_, i) => `t${i}\u0000`);
    const problems = filterProblems('corpus_parsing', { mime_types: bad, exclude_mime_types: bad });
    expect(problems).toHaveLength(MAX_FILTER_PROBLEMS);
    expect(problems[MAX_FILTER_PROBLEMS - 1]).toEqual({ field: 'filter', problem: 'has 101 more problems not listed here' });
  });

  it('names an unknown key by its beginning only', () => {
    const [problem] = filterProblems('corpus_parsing', { [huge]: 1 });
    expect(problem.field).toBe(`filter.${'a'.repeat(100)}...`);
  });
});
