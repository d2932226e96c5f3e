import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Ontology } from '@docintel/api-client';
import { REPO_ROOT, TestStack } from '@docintel/testing';
import { jobEnded, ok } from './support/client';
import { errorBody } from './support/http';
import { Indexer, type IndexedFile } from './support/indexing';
import type { OpenApiDocument } from './support/openapi-compat';

/**
 * Find-similar jobs through the HTTP API with every service running for real and the remote
 * bibliographic search off (its default): real corpus documents are uploaded and indexed (two
 * journal articles whose own DOIs the ontologies find, an arXiv paper page and a football
 * article), and jobs name them by file id, DOI and arXiv id.
 */

const ELIFE_DOI = '10.7554/elife.56337';
const PLOS_DOI = '10.1371/journal.pntd.0008301';

describe('find-similar jobs', () => {
  let stack: TestStack;
  let alice: Indexer;
  let bob: Indexer;
  let carol: Indexer;
  const files: Record<'elife' | 'plos' | 'otsl' | 'norwich', IndexedFile> = {} as never;

  beforeAll(async () => {
    stack = await TestStack.start({ label: 'findsim' });
    alice = await Indexer.forNamespace(stack, 'findsim', 'alice@findsim.test');
    bob = await Indexer.forNamespace(stack, 'findsim', 'bob@findsim.test');
    carol = await Indexer.forNamespace(stack, 'elsewhere', 'carol@elsewhere.test');
    files.elife = await alice.index('papers/docling_elife-56337.xml', { corpus: 'xml/docling_elife-56337.xml' });
    files.plos = await alice.index('papers/docling_pntd.0008301.xml', { corpus: 'xml/docling_pntd.0008301.xml' });
    files.otsl = await alice.index('papers/docling_2305.03393v1-pg9.pdf', { corpus: 'pdf/docling_2305.03393v1-pg9.pdf' });
    files.norwich = await alice.index('misc/unstructured_norwich-city.txt', { corpus: 'txt/unstructured_norwich-city.txt' });
    for (const key of Object.keys(files) as Array<keyof typeof files>) {
      files[key] = await alice.stepsSettled(files[key].id.id, ['node_embedding', 'ontologies'], 240_000);
      expect(files[key].lastIndexationInfos.status).toBe('SUCCESS');
    }
    // Carol's namespace holds the same article: it must never show up for Alice.
    const theirs = await carol.index('papers/elife.xml', { corpus: 'xml/docling_elife-56337.xml' });
    await carol.stepsSettled(theirs.id.id, ['node_embedding', 'ontologies'], 240_000);
  }, 600_000);

  afterAll(async () => {
    await stack?.stop();
  });

  const finished = (jobId: string, who = alice) => jobEnded(who.api, 'find-similar', jobId);

  it("finds each source among the caller's files, puts it first, ranks the others, and leaves an unknown DOI unmatched with the remote search off", async () => {
    const sources = [
      { id: files.elife.id.id },
      { doi: `https://doi.org/${PLOS_DOI.toUpperCase()}` },
      { doi: '10.9999/not.in.this.namespace' },
    ];
    const created = await ok(alice.api.POST('/api/core/find-similar/jobs', { body: { sourceIdentifiers: sources } }));
    expect(['PENDING', 'RUNNING']).toContain(created.status);
    expect(created.sources).toEqual({ sourceIdentifiers: sources });
    expect(created.statistics).toMatchObject({ remoteSearchStatus: expect.any(String) });

    const job = await finished(created.jobId);
    expect(job).toMatchObject({ status: 'COMPLETED', createdTime: created.createdTime });
    expect(job.executionTimeMs).toBeGreaterThanOrEqual(0);
    expect(job.errorMessage).toBeUndefined();
    const [byId, byDoi, unknown] = job.result;

    // The source file itself first, with its metadata; then the others, best first, never the source again.
    expect(byId.match).toBe('LOCAL');
    expect(byId.files[0]).toMatchObject({
      fileId: files.elife.id.id,
      name: 'docling_elife-56337.xml',
      path: 'papers/docling_elife-56337.xml',
      isSource: true,
      score: 1,
    });
    expect(byId.files[0].checksum).toBe(files.elife.checksum);
    // The document types a match's ontologies as free-form objects: they are the file's ontologies (OntologyDto).
    const metadata = (byId.files[0].ontologies as Ontology[]).find((o) => o.name === 'Document metadata');
    expect(metadata?.metas?.doi?.metaValue).toBe(ELIFE_DOI);
    const others = byId.files.slice(1);
    expect(others.map((f) => f.fileId)).not.toContain(files.elife.id.id);
    for (let i = 1; i < others.length; i++) expect(others[i - 1].score).toBeGreaterThanOrEqual(others[i].score);
    others.forEach((f) => expect(f.score).toBeLessThan(1));
    // The other journal article is closer to the eLife article than the football club's history.
    const plosAt = others.findIndex((f) => f.fileId === files.plos.id.id);
    const norwichAt = others.findIndex((f) => f.fileId === files.norwich.id.id);
    expect(plosAt).toBeGreaterThanOrEqual(0);
    if (norwichAt >= 0) expect(plosAt).toBeLessThan(norwichAt);

    expect(byDoi.match).toBe('LOCAL');
    expect(byDoi.files[0]).toMatchObject({ fileId: files.plos.id.id, isSource: true, score: 1 });
    // Seen from the other article, the eLife article is the closest file too.
    expect(byDoi.files[1]).toMatchObject({ fileId: files.elife.id.id, isSource: false });
    expect(unknown).toMatchObject({ match: 'NONE', remoteSearch: 'DISABLED', files: [], metadataOnly: [] });

    expect(job.statistics).toEqual({
      sourcesQueried: 3,
      sourcesMatchedLocally: 2,
      sourcesMatchedRemotely: 0,
      sourcesUnmatched: 1,
      remoteSearchStatus: 'DISABLED',
      totalFileMatches: byId.files.length + byDoi.files.length,
      totalMetadataOnlyMatches: 0,
      errorsBySearchResultId: {},
    });
  }, 180_000);

  it('finds an arXiv paper by its open-access id, and never a file of another namespace', async () => {
    const carolsFile = (
      await ok(carol.api.GET('/api/core/files', { params: { query: { providerId: carol.providerId, page: 0, pageSize: 10 } } }))
    ).data[0];
    const created = await ok(
      alice.api.POST('/api/core/find-similar/jobs', {
        body: { sourceIdentifiers: [{ openAccessId: 'arXiv:2305.03393v1' }, { id: carolsFile.id.id }] },
      }),
    );
    const job = await finished(created.jobId);
    expect(job.status).toBe('COMPLETED');
    expect(job.result[0].files[0]).toMatchObject({ fileId: files.otsl.id.id, isSource: true });
    expect(job.result[1]).toMatchObject({ match: 'NONE', files: [] });
    const everyFile = job.result.flatMap((r) => r.files.map((f) => f.fileId));
    expect(everyFile).not.toContain(carolsFile.id.id);
    expect(job.statistics).toMatchObject({ sourcesMatchedLocally: 1, sourcesUnmatched: 1, remoteSearchStatus: 'NOT_NEEDED' });
  }, 180_000);

  it.each([
    [{}, 'sourceIdentifiers'],
    [{ sourceIdentifiers: [] }, 'sourceIdentifiers'],
    [{ sourceIdentifiers: [{ doi: '10.1234/a' }, { id: 'f00' }, { doi: 'not-a-doi' }] }, 'sourceIdentifiers[2].doi'],
    [{ sourceIdentifiers: [{ doi: '10.1234/a' }, {}] }, 'sourceIdentifiers[1]'],
    [{ sourceIdentifiers: [{ openAccessId: 'arXiv:2101.00001\u0000' }] }, 'sourceIdentifiers[0].openAccessId'],
    [{ sourceIdentifiers: Array.from({ length: 101 }, () => ({ doi: '10.1234/a' })) }, 'sourceIdentifiers'],
  ])('refuses %j with 400 naming %s', async (body, field) => {
    const res = await alice.call('POST', '/api/core/find-similar/jobs', body);
    expect((await errorBody(res, 400, 'VALIDATION_FAILED')).details.map((d) => d.field)).toContain(field);
  });

  it("lists the caller's jobs only, and another user's or namespace's job is 404", async () => {
    const created = await ok(alice.api.POST('/api/core/find-similar/jobs', { body: { sourceIdentifiers: [{ doi: ELIFE_DOI }] } }));
    await finished(created.jobId);
    const page = await ok(
      alice.api.GET('/api/core/find-similar/jobs', { params: { query: { page: 0, pageSize: 100, sortOrder: 'desc' } } }),
    );
    expect(page.data[0]).toMatchObject({
      jobId: created.jobId,
      status: 'COMPLETED',
      result: [expect.objectContaining({ match: 'LOCAL' })],
      statistics: expect.objectContaining({ sourcesQueried: 1 }),
    });
    expect(page.totalElements).toBeGreaterThanOrEqual(3);
    expect((await ok(bob.api.GET('/api/core/find-similar/jobs', { params: { query: { page: 0, pageSize: 10 } } }))).totalElements).toBe(0);
    await errorBody(await bob.call('GET', `/api/core/find-similar/jobs/${created.jobId}`), 404, 'NOT_FOUND');
    await errorBody(await carol.call('GET', `/api/core/find-similar/jobs/${created.jobId}`), 404, 'NOT_FOUND');
    expect((await errorBody(await alice.call('GET', '/api/core/find-similar/jobs/nope'), 400, 'VALIDATION_FAILED')).details).toEqual([
      { field: 'jobId', problem: 'must be a UUID' },
    ]);
    expect(
      (await errorBody(await alice.call('GET', '/api/core/find-similar/jobs'), 400, 'VALIDATION_FAILED')).details
        .map((d) => d.field)
        .sort(),
    ).toEqual(['page', 'pageSize']);
    // The job is no QA job either.
    await errorBody(await alice.call('GET', `/api/core/qa/jobs/${created.jobId}`), 404, 'NOT_FOUND');
  }, 180_000);

  it('documents the find-similar operations', async () => {
    const ours = (await (await stack.request('/api/docs-json')).json()) as OpenApiDocument;
    expect(Object.keys(ours.paths['/api/core/find-similar/jobs'])).toEqual(expect.arrayContaining(['get', 'post']));
    expect(Object.keys(ours.paths['/api/core/find-similar/jobs/{jobId}'])).toEqual(['get']);
    // Not in the reference document: COMPAT.md gives these shapes.
    const reference = JSON.parse(
      readFileSync(join(REPO_ROOT, '..', 'shared', 'spec', 'reference-openapi.json'), 'utf8'),
    ) as OpenApiDocument;
    expect(Object.keys(reference.paths).filter((p) => p.includes('find-similar'))).toEqual([]);
  });
});
