import 'reflect-metadata';
import { DomainError } from './errors';
import {
  CreateFindSimilarJobRequestDto,
  FIND_SIMILAR_LIMITS,
  findSimilarStatistics,
  normalizeDoi,
  parseOpenAccessId,
  type SourceMatchesDto,
} from './find-similar';
import { validatePayload } from './validation';

async function problems(body: unknown): Promise<Array<{ field: string; problem: string }>> {
  try {
    await validatePayload(CreateFindSimilarJobRequestDto, body);
  } catch (err) {
    return (err as DomainError).details;
  }
  return [];
}

describe('CreateFindSimilarJobRequestDto', () => {
  it('accepts DOIs in the forms people write them, file ids and open-access ids', async () => {
    expect(
      await problems({
        sourceIdentifiers: [
          { doi: '10.7554/eLife.56337' },
          { doi: 'https://doi.org/10.1371/journal.pntd.0008301' },
          { doi: 'doi:10.1000/xyz(1)' },
          { id: '3f2b8c1e-1a2b-4c3d-8e9f-0a1b2c3d4e5f' },
          { openAccessId: 'arXiv:2101.00001v2' },
          { openAccessId: '2305.03393' },
          { openAccessId: 'hep-th/9901001' },
          { openAccessId: 'PMC1234567' },
        ],
      }),
    ).toEqual([]);
  });

  it.each([
    [{}, 'sourceIdentifiers', 'is required'],
    [{ sourceIdentifiers: [] }, 'sourceIdentifiers', 'must have at least one source identifier'],
    [{ sourceIdentifiers: 'x' }, 'sourceIdentifiers', 'must be an array'],
    [{ sourceIdentifiers: [{ doi: '10.1234/a' }, { id: 'x' }, { doi: 'not a doi' }] }, 'sourceIdentifiers[2].doi', 'must be a DOI'],
    [{ sourceIdentifiers: [{ id: 'x' }] }, 'sourceIdentifiers[0].id', 'must be a file id (a UUID)'],
    [{ sourceIdentifiers: [{ openAccessId: 'PMID123' }] }, 'sourceIdentifiers[0].openAccessId', 'must be an arXiv id'],
    [{ sourceIdentifiers: [{ doi: 42 }] }, 'sourceIdentifiers[0].doi', 'must be a string'],
    [{ sourceIdentifiers: [{ doi: `10.1234/${'x'.repeat(400)}` }] }, 'sourceIdentifiers[0].doi', 'must be at most 300 characters'],
    [{ sourceIdentifiers: [{ doi: '10.1234/a\u0000b' }] }, 'sourceIdentifiers[0].doi', 'must not contain the NUL character (U+0000)'],
    [
      { sourceIdentifiers: Array.from({ length: FIND_SIMILAR_LIMITS.sources + 1 }, () => ({ doi: '10.1234/a' })) },
      'sourceIdentifiers',
      `must have at most ${FIND_SIMILAR_LIMITS.sources} source identifiers`,
    ],
  ])('refuses %j naming %s', async (body, field, problem) => {
    const found = await problems(body);
    expect(found).toEqual(expect.arrayContaining([{ field, problem: expect.stringContaining(problem) as string }]));
  });
});

describe('identifier normalisation', () => {
  it('gives DOIs in canonical form', () => {
    expect(normalizeDoi('https://doi.org/10.7554/eLife.56337.')).toBe('10.7554/elife.56337');
    expect(normalizeDoi('doi: 10.1371/JOURNAL.pntd.0008301')).toBe('10.1371/journal.pntd.0008301');
    expect(normalizeDoi('11.1/x')).toBeNull();
  });
  it('reads arXiv and PMC ids, dropping versions and prefixes', () => {
    expect(parseOpenAccessId('arXiv:2101.00001v2')).toEqual({ kind: 'arxiv', id: '2101.00001' });
    expect(parseOpenAccessId('hep-th/9901001v1')).toEqual({ kind: 'arxiv', id: 'hep-th/9901001' });
    expect(parseOpenAccessId('pmc7000123')).toEqual({ kind: 'pmc', id: 'PMC7000123' });
    expect(parseOpenAccessId('PMID 123')).toBeNull();
  });
});

describe('findSimilarStatistics', () => {
  const entry = (
    match: SourceMatchesDto['match'],
    remoteSearch: SourceMatchesDto['remoteSearch'],
    files = 0,
    meta = 0,
    lookupErrors?: Record<string, string>,
  ): SourceMatchesDto => ({
    source: { doi: '10.1/x' },
    files: Array.from({ length: files }, (_, i) => ({
      fileId: `f${i}`,
      providerId: 'p',
      path: 'a',
      name: 'a',
      checksum: null,
      ontologies: [],
      score: 1,
      isSource: false,
    })),
    metadataOnly: Array.from({ length: meta }, (_, i) => ({ searchResultId: `W${i}`, ontologies: [] })),
    match,
    remoteSearch,
    ...(lookupErrors ? { lookupErrors } : {}),
  });

  it('counts sources by how they matched, and files and works found', () => {
    const stats = findSimilarStatistics([entry('LOCAL', 'NOT_NEEDED', 4), entry('REMOTE', 'FOUND', 2, 1), entry('NONE', 'NOT_FOUND')]);
    expect(stats).toEqual({
      sourcesQueried: 3,
      sourcesMatchedLocally: 1,
      sourcesMatchedRemotely: 1,
      sourcesUnmatched: 1,
      remoteSearchStatus: 'OK',
      totalFileMatches: 6,
      totalMetadataOnlyMatches: 1,
      errorsBySearchResultId: {},
    });
  });

  it('says whether the remote search was off, not needed, or failing', () => {
    expect(findSimilarStatistics([entry('LOCAL', 'NOT_NEEDED', 1)]).remoteSearchStatus).toBe('NOT_NEEDED');
    expect(findSimilarStatistics([entry('LOCAL', 'NOT_NEEDED', 1), entry('NONE', 'DISABLED')]).remoteSearchStatus).toBe('DISABLED');
    const failing = findSimilarStatistics([entry('NONE', 'FAILED', 0, 0, { 'doi:10.1/x': 'HTTP 500' }), entry('REMOTE', 'FOUND', 0, 1)]);
    expect(failing).toMatchObject({
      remoteSearchStatus: 'PARTIAL',
      errorsBySearchResultId: { 'doi:10.1/x': 'HTTP 500' },
      sourcesUnmatched: 1,
    });
    expect(findSimilarStatistics([entry('NONE', 'FAILED', 0, 0, { 'doi:10.1/x': 'timeout' })]).remoteSearchStatus).toBe('FAILED');
  });
});
