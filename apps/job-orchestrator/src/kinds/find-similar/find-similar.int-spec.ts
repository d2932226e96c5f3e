import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { type TestingModule } from '@nestjs/testing';
import {
  DomainError,
  ErrorCode,
  FindSimilarJobsCreate,
  FindSimilarJobsGet,
  FindSimilarJobsList,
  JobsCancel,
  JobsGet,
  JobsInputs,
  JobsResults,
  SimilarFilesBySource,
  SimilarFilesBySourceRequest,
  SimilarFilesByWork,
  SimilarFilesByWorkRequest,
  findSimilarStatistics,
  type FileMatchDto,
  type FindSimilarJobDto,
  type RpcContext,
  type SimilarFilesReply,
  type SourceMatchesDto,
} from '@docintel/contracts';
import { RpcClient, RpcHandler } from '@docintel/messaging';
import { createLogger } from '@docintel/observability';
import { startTestInfrastructure, type TestInfrastructure } from '@docintel/testing';
import { orchestratorTestEnv, startOrchestrator } from '../../testing/orchestrator-harness';
import { openAlexWork, startOpenAlexServer, type TestOpenAlexServer } from './openalex-test-server';

/**
 * Find-similar jobs on real PostgreSQL and NATS (the work.jobs.unit queue, request/reply), with
 * the remote search pointed at a local server speaking the OpenAlex works API. The indexing
 * service is played by handlers registered here (what they answer per source is set by each
 * test); the end-to-end test runs the real one.
 */

const logger = createLogger('find-similar-test', (process.env.TEST_LOG_LEVEL ?? 'silent') as 'silent');
const NS = randomUUID();
const OTHER_NS = randomUUID();
const alice: RpcContext = { requestId: 'test', namespaceId: NS, userId: 'alice@example.com' };
const bob: RpcContext = { requestId: 'test', namespaceId: NS, userId: 'bob@example.com' };
const aliceElsewhere: RpcContext = { requestId: 'test', namespaceId: OTHER_NS, userId: 'alice@example.com' };

const LOCAL = randomUUID();
const SIMILAR = randomUUID();
const match = (fileId: string, name: string, score: number, isSource = false): FileMatchDto => ({
  fileId,
  providerId: randomUUID(),
  path: `papers/${name}`,
  name,
  checksum: 'c0ffee',
  ontologies: [
    {
      conceptId: { id: randomUUID(), entityType: 'CONCEPT_NOTE' },
      name: 'Document metadata',
      metas: { title: { metaName: 'title', metaValue: name } },
    },
  ],
  score,
  isSource,
});

/** The indexing service as find-similar sees it: LOCAL is the caller's file (also by its DOI), SIMILAR resembles everything. */
const fake = {
  bySource: [] as Array<{ req: SimilarFilesBySourceRequest; ctx: RpcContext }>,
  byWork: [] as Array<{ req: SimilarFilesByWorkRequest; ctx: RpcContext }>,
  fail: null as DomainError | null,
  gate: null as Promise<void> | null,
};

@Injectable()
class FakeIndexing {
  @RpcHandler(SimilarFilesBySource)
  async bySource(req: SimilarFilesBySourceRequest, ctx: RpcContext): Promise<SimilarFilesReply> {
    fake.bySource.push({ req, ctx });
    if (fake.gate) await fake.gate;
    if (fake.fail) throw fake.fail;
    const mine = ctx.namespaceId === NS && (req.source.id === LOCAL || req.source.doi?.toLowerCase() === '10.1234/local');
    if (!mine) return { source: null, matchedBy: null, similar: [] };
    return {
      source: match(LOCAL, 'local.pdf', 1, true),
      matchedBy: req.source.id ? 'id' : 'doi',
      similar: [match(SIMILAR, 'similar.pdf', 0.71)].slice(0, req.limit),
    };
  }

  @RpcHandler(SimilarFilesByWork)
  byWork(req: SimilarFilesByWorkRequest, ctx: RpcContext): Pick<SimilarFilesReply, 'source' | 'similar'> {
    fake.byWork.push({ req, ctx });
    return { source: null, similar: [match(SIMILAR, 'similar.pdf', 0.52)] };
  }
}

let infra: TestInfrastructure;
let app: TestingModule;
let rpc: RpcClient;
let openalex: TestOpenAlexServer;

beforeAll(async () => {
  infra = await startTestInfrastructure('findsim');
  openalex = await startOpenAlexServer();
  openalex.addWork(
    ['doi:10.7554/elife.56337', 'pmcid:PMC7000123'],
    openAlexWork({
      id: 'https://openalex.org/W3034445466',
      doi: '10.7554/eLife.56337',
      title: 'KRAB-zinc finger protein gene expansion in response to active retrotransposons in the murine lineage',
      authors: ['Gernot Wolf', 'Alberto de Iaco'],
      year: 2020,
      abstract: 'The Krüppel-associated box zinc finger protein family expanded in mice.',
      keywords: ['KRAB zinc finger'],
    }),
  );
  const env = orchestratorTestEnv(infra, {
    JOB_MAX_DELIVER: 2,
    FIND_SIMILAR_REMOTE: 'openalex',
    FIND_SIMILAR_OPENALEX_URL: openalex.baseUrl,
    FIND_SIMILAR_REMOTE_TIMEOUT_MS: 300,
    FIND_SIMILAR_REMOTE_RETRIES: 1,
    FIND_SIMILAR_MAX_FILES: 5,
  });
  const reader = { name: 'unused', answer: () => Promise.reject(new Error('no reader in find-similar')) };
  app = await startOrchestrator({ env, logger, reader, standIns: [FakeIndexing] });
  rpc = app.get(RpcClient);
});

afterAll(async () => {
  await app?.close();
  await openalex?.stop();
  await infra?.teardown();
});

beforeEach(() => {
  fake.bySource.length = 0;
  fake.byWork.length = 0;
  fake.fail = null;
  fake.gate = null;
  openalex.reset();
});

/** The job as the gateway gives it: the head, the result read in parts, the statistics of that result. */
async function whole(jobId: string, ctx = alice): Promise<FindSimilarJobDto> {
  const head = await rpc.call(FindSimilarJobsGet, { jobId }, ctx);
  const result: SourceMatchesDto[] = [];
  for (let next: number | null = 0; next !== null;) {
    const part = await rpc.call(JobsResults, { kind: 'find-similar', jobId, fromUnit: next }, ctx);
    result.push(...(part.items as SourceMatchesDto[]));
    next = part.nextUnit;
  }
  return { ...head, result, statistics: findSimilarStatistics(result) };
}

async function settle(jobId: string, ctx = alice, timeoutMs = 20_000): Promise<FindSimilarJobDto> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const job = await rpc.call(FindSimilarJobsGet, { jobId }, ctx);
    if (['COMPLETED', 'FAILED', 'ABORTED'].includes(job.status)) return whole(jobId, ctx);
    if (Date.now() > until) throw new Error(`job ${jobId} still ${job.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function rejection(p: Promise<unknown>): Promise<DomainError> {
  try {
    await p;
  } catch (err) {
    return err as DomainError;
  }
  throw new Error('expected a rejection');
}

describe('find-similar jobs', () => {
  it('searches each source locally, then remotely, and ends COMPLETED with the result and its statistics', async () => {
    const sources = [
      { id: LOCAL },
      { doi: 'https://doi.org/10.7554/eLife.56337' },
      { doi: '10.9999/unknown' },
      { openAccessId: 'PMC7000123' },
      { id: randomUUID() },
    ];
    const created = await rpc.call(FindSimilarJobsCreate, { sourceIdentifiers: sources }, alice);
    expect(created).toMatchObject({
      status: 'PENDING',
      taskType: 'FIND_SIMILAR',
      sources: { sourceIdentifiers: sources },
      progress: { total: 5 },
    });
    expect(created).not.toHaveProperty('result');

    const job = await settle(created.jobId);
    expect(job.status).toBe('COMPLETED');
    expect(job.executionTimeMs).toBeGreaterThanOrEqual(0);
    const [local, remote, unknown, pmc, foreignId] = job.result;

    expect(local).toMatchObject({ source: { id: LOCAL }, match: 'LOCAL', remoteSearch: 'NOT_NEEDED', metadataOnly: [] });
    expect(local.files.map((f) => [f.fileId, f.isSource, f.score])).toEqual([
      [LOCAL, true, 1],
      [SIMILAR, false, 0.71],
    ]);

    expect(remote).toMatchObject({ match: 'REMOTE', remoteSearch: 'FOUND', files: [{ fileId: SIMILAR, score: 0.52 }] });
    expect(remote.metadataOnly).toEqual([
      {
        searchResultId: 'https://openalex.org/W3034445466',
        provider: 'openalex',
        ontologies: expect.arrayContaining([
          expect.objectContaining({
            name: 'Document metadata',
            metas: expect.objectContaining({ doi: expect.objectContaining({ metaValue: '10.7554/elife.56337' }) }),
          }),
          expect.objectContaining({ name: 'KRAB zinc finger' }),
        ]),
      },
    ]);
    // The files were ranked against the work's title, abstract, authors and keywords, in the caller's namespace.
    expect(fake.byWork[0].req).toMatchObject({
      title: expect.stringContaining('KRAB-zinc finger'),
      abstract: expect.stringContaining('Krüppel'),
      authors: ['Gernot Wolf', 'Alberto de Iaco'],
      limit: 5,
    });
    expect(fake.byWork[0].ctx.namespaceId).toBe(NS);

    expect(unknown).toMatchObject({ match: 'NONE', remoteSearch: 'NOT_FOUND', files: [], metadataOnly: [] });
    expect(pmc).toMatchObject({ match: 'REMOTE', remoteSearch: 'FOUND' });
    expect(foreignId).toMatchObject({ match: 'NONE', remoteSearch: 'NOT_NEEDED' }); // a file id is never looked up remotely
    expect(job.statistics).toEqual({
      sourcesQueried: 5,
      sourcesMatchedLocally: 1,
      sourcesMatchedRemotely: 2,
      sourcesUnmatched: 2,
      remoteSearchStatus: 'OK',
      totalFileMatches: 4,
      totalMetadataOnlyMatches: 2,
      errorsBySearchResultId: {},
    });
    expect(openalex.requests.map((r) => r.split('?')[0]).sort()).toEqual([
      '/works/doi:10.7554/elife.56337',
      '/works/doi:10.9999/unknown',
      '/works/pmcid:PMC7000123',
    ]);
    expect(await rpc.call(JobsInputs, { kind: 'find-similar', jobId: created.jobId }, alice)).toEqual({ sourceIdentifiers: sources });
  });

  it('records remote failures and timeouts on their sources after bounded retries, and still ends', async () => {
    openalex.failAlways({ status: 500 });
    const failing = await settle(
      (await rpc.call(FindSimilarJobsCreate, { sourceIdentifiers: [{ doi: '10.7554/elife.56337' }, { id: LOCAL }] }, alice)).jobId,
    );
    expect(failing.status).toBe('COMPLETED');
    expect(failing.result[0]).toMatchObject({ match: 'NONE', remoteSearch: 'FAILED', error: expect.stringContaining('HTTP 500') });
    expect(failing.statistics).toMatchObject({
      sourcesMatchedLocally: 1,
      sourcesUnmatched: 1,
      remoteSearchStatus: 'FAILED',
      errorsBySearchResultId: { 'doi:10.7554/elife.56337': expect.stringMatching(/after 2 attempts: HTTP 500/) },
    });
    expect(openalex.requests).toHaveLength(2); // one retry (FIND_SIMILAR_REMOTE_RETRIES=1)

    openalex.reset();
    openalex.failAlways('hang');
    const hanging = await settle(
      (await rpc.call(FindSimilarJobsCreate, { sourceIdentifiers: [{ openAccessId: 'arXiv:2305.03393v1' }] }, alice)).jobId,
    );
    expect(hanging.status).toBe('COMPLETED');
    expect(hanging.statistics).toMatchObject({
      sourcesUnmatched: 1,
      remoteSearchStatus: 'FAILED',
      errorsBySearchResultId: { 'doi:10.48550/arxiv.2305.03393': expect.stringContaining('no answer within 300 ms') },
    });
  });

  it('ends FAILED with the reason when the search itself breaks', async () => {
    fake.fail = new DomainError(ErrorCode.INTERNAL, 'the similarity index is unreadable');
    const job = await settle(
      (await rpc.call(FindSimilarJobsCreate, { sourceIdentifiers: [{ id: LOCAL }, { doi: '10.1234/local' }] }, alice)).jobId,
    );
    expect(job.status).toBe('FAILED');
    expect(job.errorMessage).toBe('Every part of the job failed; the first reason: the similarity index is unreadable');
    expect(job.result.map((r) => [r.match, r.error])).toEqual([
      ['NONE', 'the similarity index is unreadable'],
      ['NONE', 'the similarity index is unreadable'],
    ]);
    expect(job.statistics).toMatchObject({ sourcesQueried: 2, sourcesUnmatched: 2 });
  });

  it('returns the same job for the same Idempotency-Key and sources, and refuses other sources with that key', async () => {
    const body = { sourceIdentifiers: [{ id: LOCAL }], idempotencyKey: 'similar-key' };
    const first = await rpc.call(FindSimilarJobsCreate, body, alice);
    expect(await rpc.call(FindSimilarJobsCreate, body, alice)).toMatchObject({ jobId: first.jobId, taskType: 'FIND_SIMILAR' });
    const err = await rejection(rpc.call(FindSimilarJobsCreate, { ...body, sourceIdentifiers: [{ doi: '10.1234/local' }] }, alice));
    expect(err).toMatchObject({
      code: ErrorCode.CONFLICT,
      details: [{ field: 'Idempotency-Key', problem: expect.stringContaining(first.jobId) }],
    });
    await settle(first.jobId);
  });

  it('refuses a source naming nothing, naming it', async () => {
    const err = await rejection(rpc.call(FindSimilarJobsCreate, { sourceIdentifiers: [{ id: LOCAL }, {}] }, alice));
    expect(err.code).toBe(ErrorCode.VALIDATION_FAILED);
    expect(err.details).toEqual([{ field: 'sourceIdentifiers[1]', problem: 'must name the document by doi, id or openAccessId' }]);
    const bad = await rejection(rpc.call(FindSimilarJobsCreate, { sourceIdentifiers: [{ doi: 'nope' }] }, alice));
    expect(bad.details[0]).toMatchObject({ field: 'sourceIdentifiers[0].doi' });
  });

  it("is the caller's own: another user's or namespace's job is not found, and lists hold the caller's jobs only", async () => {
    const job = await rpc.call(FindSimilarJobsCreate, { sourceIdentifiers: [{ id: LOCAL }] }, alice);
    await settle(job.jobId);
    for (const ctx of [bob, aliceElsewhere]) {
      expect((await rejection(rpc.call(FindSimilarJobsGet, { jobId: job.jobId }, ctx))).code).toBe(ErrorCode.NOT_FOUND);
      expect((await rejection(rpc.call(JobsResults, { kind: 'find-similar', jobId: job.jobId }, ctx))).code).toBe(ErrorCode.NOT_FOUND);
    }
    // Kinds do not mix: a find-similar job is no QA job.
    expect((await rejection(rpc.call(JobsGet, { kind: 'qa', jobId: job.jobId }, alice))).message).toBe(`QA job ${job.jobId} was not found`);
    expect((await rejection(rpc.call(FindSimilarJobsGet, { jobId: 'not-a-uuid' }, alice))).code).toBe(ErrorCode.NOT_FOUND);

    const mine = await rpc.call(FindSimilarJobsList, { page: 0, pageSize: 100 }, alice);
    expect(mine.data.map((j) => j.jobId)).toContain(job.jobId);
    expect(mine.data.every((j) => j.taskType === 'FIND_SIMILAR')).toBe(true);
    expect(mine.data[0].createdTime).toBeGreaterThanOrEqual(mine.data[mine.data.length - 1].createdTime);
    expect((await rpc.call(FindSimilarJobsList, { page: 0, pageSize: 100 }, bob)).totalElements).toBe(0);
    expect((await rpc.call(FindSimilarJobsList, { page: 0, pageSize: 100 }, aliceElsewhere)).data).toEqual([]);
  });

  it('can be cancelled while it runs; sources searched so far stay', async () => {
    let release!: () => void;
    fake.gate = new Promise<void>((r) => (release = r));
    const job = await rpc.call(FindSimilarJobsCreate, { sourceIdentifiers: [{ id: LOCAL }] }, alice);
    for (let i = 0; i < 100 && !fake.bySource.length; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await rpc.call(JobsCancel, { kind: 'find-similar', jobId: job.jobId }, alice)).toMatchObject({ status: 'ABORTED' });
    release();
    await new Promise((r) => setTimeout(r, 500));
    expect(await whole(job.jobId)).toMatchObject({ status: 'ABORTED', errorMessage: expect.stringContaining('Cancelled'), result: [] });
  });
});
