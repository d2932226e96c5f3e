import { filterProblems } from './filter-validation';
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
