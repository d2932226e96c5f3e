import { decide, mimeMatches, nodeMatches } from './filter-matching';

describe('mimeMatches', () => {
  it('matches exact types, wildcards and ignores case and parameters', () => {
    expect(mimeMatches('application/pdf', 'application/pdf')).toBe(true);
    expect(mimeMatches('image/*', 'image/png')).toBe(true);
    expect(mimeMatches('image/*', 'application/pdf')).toBe(false);
    expect(mimeMatches('Text/Plain', 'text/plain; charset=utf-8')).toBe(true);
  });
});

describe('decide', () => {
  it('runs everything under the empty filter', () => {
    expect(decide({}, { mimeType: 'text/plain', size: 10 })).toEqual({ run: true, filter: {} });
  });

  it('skips files outside mime_types or inside exclude_mime_types, saying why', () => {
    const pdfOnly = decide({ mime_types: ['application/pdf'] }, { mimeType: 'text/plain', size: 10 });
    expect(pdfOnly.run).toBe(false);
    expect(pdfOnly.reason).toContain('text/plain');
    expect(decide({ exclude_mime_types: ['image/*'] }, { mimeType: 'image/tiff' }).run).toBe(false);
    expect(decide({ mime_types: ['application/pdf'] }, { mimeType: 'application/pdf' }).run).toBe(true);
  });

  it('applies inclusive size bounds', () => {
    expect(decide({ max_file_size: 100 }, { size: 100 }).run).toBe(true);
    expect(decide({ max_file_size: 100 }, { size: 101 }).reason).toContain('above');
    expect(decide({ min_file_size: 100 }, { size: 99 }).reason).toContain('below');
  });

  it('needs one qualifying node for node-level keys', () => {
    expect(decide({ node_types: ['formula'] }, { nodeTypes: ['paragraph', 'table'] }).run).toBe(false);
    expect(decide({ node_types: ['formula'] }, { nodeTypes: ['paragraph', 'formula'] }).run).toBe(true);
    expect(decide({ content_patterns: ['\\$\\$'] }, { texts: ['plain', 'E = $$mc^2$$'] }).run).toBe(true);
    expect(decide({ content_patterns: ['\\$\\$'] }, { texts: ['plain'] }).run).toBe(false);
  });
});

describe('nodeMatches', () => {
  it('selects nodes by type, classification and text', () => {
    const f = { node_types: ['paragraph'], content_patterns: ['dose'] };
    expect(nodeMatches(f, { type: 'paragraph', text: 'the dose was 5 mg' })).toBe(true);
    expect(nodeMatches(f, { type: 'heading', text: 'dose' })).toBe(false);
    expect(nodeMatches(f, { type: 'paragraph', text: 'unrelated' })).toBe(false);
    expect(nodeMatches({ classifications: ['abstract'] }, { type: 'paragraph', classifications: ['abstract'] })).toBe(true);
  });
});

describe('content patterns in decisions', () => {
  it('runs user patterns on RE2: a catastrophic backtracking pattern answers at once', () => {
    // A backtracking RegExp doubles its work with each 'a': minutes for 30 of them, days for 40.
    const text = `${'a'.repeat(40)}!`;
    expect(nodeMatches({ content_patterns: ['(a+)+$'] }, { type: 'paragraph', text })).toBe(false);
    expect(decide({ content_patterns: ['(a+)+$'] }, { texts: [text, 'plain'] }).run).toBe(false);
    expect(decide({ content_patterns: ['(a+)+$'] }, { texts: [text, 'aaa'] }).run).toBe(true);
  });

  it('lets a stored pattern that RE2 cannot compile match nothing instead of throwing', () => {
    expect(nodeMatches({ content_patterns: ['(?<=x)y'] }, { type: 'paragraph', text: 'xy' })).toBe(false);
  });
});
