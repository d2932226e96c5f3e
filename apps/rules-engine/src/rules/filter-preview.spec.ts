import { FILTER_LIMITS, filterBytes } from '@docintel/rules';
import { filterPreview } from './filter-preview';

describe('filterPreview', () => {
  it('shows a filter within the size limit unchanged', () => {
    const filter = { mime_types: ['application/pdf'], max_file_size: 10 };
    expect(filterPreview(filter)).toEqual({ filter, truncated: false });
  });

  it('shortens a filter stored before the limits to fit them, keeping its keys in order', () => {
    const filter = {
      mime_types: ['a'.repeat(600_000), 'application/pdf'],
      exclude_mime_types: Array.from({ length: 5000 }, (_, i) => `type/${i}-${'x'.repeat(200)}`),
      max_file_size: 10,
    };
    const { filter: shown, truncated } = filterPreview(filter);
    expect(truncated).toBe(true);
    expect(filterBytes(shown)).toBeLessThanOrEqual(FILTER_LIMITS.maxFilterBytes);
    expect(shown.mime_types).toEqual(['a'.repeat(FILTER_LIMITS.maxStringLength), 'application/pdf']);
    expect(shown.exclude_mime_types?.length).toBeGreaterThan(0);
    expect(shown.exclude_mime_types?.length).toBeLessThan(FILTER_LIMITS.maxItems);
    expect(shown.exclude_mime_types?.[0]).toBe(filter.exclude_mime_types[0]);
  });

  it('stays within the limit whatever the shape', () => {
    for (const filter of [
      { mime_types: Array.from({ length: 100 }, () => 'é'.repeat(1000)) },
      { ['k'.repeat(20_000)]: 1, mime_types: ['a'] },
      { node_types: Array.from({ length: 300 }, () => ({ nested: 'x'.repeat(1000) })), content_patterns: ['"\\'.repeat(9000)] },
    ]) {
      const { filter: shown, truncated } = filterPreview(filter as never);
      expect(truncated).toBe(true);
      expect(filterBytes(shown)).toBeLessThanOrEqual(FILTER_LIMITS.maxFilterBytes);
    }
  });
});
