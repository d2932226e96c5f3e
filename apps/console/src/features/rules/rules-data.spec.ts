import { matchRoute, paths } from '../../router/routes';
import { describeKeySchema, filterSummary, triggerTitle } from './rules-data';

describe('the rules pages', () => {
  it('have their URLs', () => {
    expect(paths.rules()).toBe('/rules');
    expect(paths.rule('node_embedding')).toBe('/rules/node_embedding');
    expect(matchRoute('/rules')).toEqual({ name: 'rules' });
    expect(matchRoute('/rules/corpus_parsing')).toEqual({ name: 'rule', triggerId: 'corpus_parsing' });
    expect(matchRoute(paths.rule('a b'))).toEqual({ name: 'rule', triggerId: 'a b' });
    expect(matchRoute('/rules/a/b').name).toBe('notFound');
  });

  it('name triggers, filters and filter keys for a person', () => {
    expect(triggerTitle('formula_augmentation')).toBe('Formula augmentation');
    expect(filterSummary({})).toBe('{} (matches everything)');
    expect(filterSummary({ mime_types: ['application/pdf'] })).toBe('{"mime_types":["application/pdf"]}');
    expect(describeKeySchema({ type: 'array', items: { type: 'string' }, maxItems: 100, uniqueItems: true })).toBe(
      'array of strings, at most 100, no repeats',
    );
    expect(describeKeySchema({ type: 'integer', minimum: 0 })).toBe('integer ≥ 0');
    expect(describeKeySchema({ enum: ['a', 'b'] })).toBe('one of "a", "b"');
    expect(describeKeySchema(undefined)).toBe('');
  });
});
