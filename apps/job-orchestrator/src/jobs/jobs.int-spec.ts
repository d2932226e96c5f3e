import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { type TestingModule } from '@nestjs/testing';
import { Client } from 'pg';
import { LlmEnv, createLlmReader, type Reader, type ReaderAnswer, type ReaderPassage, type ReaderQuestion } from '@docintel/answering';
import { loadConfig } from '@docintel/config';
import {
  AgentJobsCreate,
  DomainError,
  ErrorCode,
  ExtractionJobsCreate,
  FilesOntologies,
  FilesResolve,
  JobsAnnotations,
  JobsCancel,
  JobsGet,
  JobsInputs,
  JobsList,
  JobsResults,
  PassageSearchRequest,
  PassagesSearch,
  QaJobsCreate,
  ResolveFilesRequest,
  FileRefRequest,
  FileTablesRequest,
  FilesTables,
  MultiDimExtractionJobsCreate,
  MultiDimExtractionJobsRows,
  type FileTablesReply,
  type AnnotationDto,
  type MetaResultDto,
  type JobDto,
  type OntologyDto,
  type PassageDto,
  type PassageSearchReply,
  type QaResultDto,
  type ResolveFilesReply,
  type RpcContext,
} from '@docintel/contracts';
import { RpcClient, RpcHandler } from '@docintel/messaging';
import { createLogger, Metrics } from '@docintel/observability';
import { openAiReply, startOpenAiServer, startTestInfrastructure, type TestInfrastructure, type TestOpenAiServer } from '@docintel/testing';
import { JobSweeper } from '../execution/sweeper';
import { JobsEnv } from '../jobs.env';
import { QaJobs } from '../kinds/qa/qa-jobs';
import { orchestratorTestEnv, startOrchestrator } from '../testing/orchestrator-harness';

/**
 * The job orchestrator on real PostgreSQL and NATS (JetStream work queue, request/reply). The
 * indexing service is played by handlers registered here (the files and passages each test sets),
 * and the reader by a scripted one: the end-to-end tests run both for real.
 */

const logger = createLogger('jobs-test', (process.env.TEST_LOG_LEVEL ?? 'silent') as 'silent');
const NS = randomUUID();
const OTHER_NS = randomUUID();
const ALICE = 'alice@example.com';
const BOB = 'bob@example.com';

const F1 = randomUUID();
const F2 = randomUUID();
const UNINDEXED = randomUUID();
const COLLECTION = randomUUID();

/** What the fake indexing service knows, per namespace. */
const files = new Map<string, { name: string; status: string; namespace: string }>([
  [F1, { name: 'report.xlsx', status: 'SUCCESS', namespace: NS }],
  [F2, { name: 'notes.txt', status: 'SUCCESS', namespace: NS }],
  [UNINDEXED, { name: 'draft.pdf', status: 'RUNNING', namespace: NS }],
]);
const collections = new Map<string, string[]>([[COLLECTION, [F2, UNINDEXED]]]);

const rowPassage: PassageDto = {
  id: randomUUID(),
  fileId: F1,
  fileName: 'report.xlsx',
  nodeType: 'row',
  text: 'Revenue | 1,250,000',
  headings: ['Sheet1'],
  score: 0.9,
  segments: [
    { nodeId: randomUUID(), nodeType: 'cell', start: 0, end: 7, positions: [{ type: 'CELL', sheet_name: 'Sheet1', row: 4, col: 0 }] },
    { nodeId: randomUUID(), nodeType: 'cell', start: 10, end: 19, positions: [{ type: 'CELL', sheet_name: 'Sheet1', row: 4, col: 1 }] },
  ],
};
const linePassage: PassageDto = {
  id: randomUUID(),
  fileId: F2,
  fileName: 'notes.txt',
  nodeType: 'paragraph',
  text: 'The company is Acme Corp.',
  headings: [],
  score: 0.8,
  segments: [
    {
      nodeId: randomUUID(),
      nodeType: 'paragraph',
      start: 0,
      end: 25,
      positions: [{ type: 'LINE', line_number: 3, column_index_start: 0, column_index_stop: 25 }],
    },
  ],
};

const fake = {
  searchCalls: [] as Array<{ req: PassageSearchRequest; ctx: RpcContext }>,
  /** Failures the next searches throw, in order. */
  searchFailures: [] as Error[],
  failFile: null as string | null,
  failTables: false,
  /** Passages of files other than F1 and F2, by file id (the fairness tests' namespaces). */
  passagesOf: new Map<string, PassageDto>(),
};

@Injectable()
class FakeIndexing {
  @RpcHandler(FilesResolve)
  resolve(req: ResolveFilesRequest, ctx: RpcContext): ResolveFilesReply {
    const reply: ResolveFilesReply = { files: [], missingFileIds: [], missingCollectionIds: [] };
    const seen = new Set<string>();
    const add = (id: string) => {
      const f = files.get(id);
      if (!f || f.namespace !== ctx.namespaceId) return false;
      if (!seen.has(id)) reply.files.push({ fileId: id, name: f.name, status: f.status, indexed: f.status === 'SUCCESS' });
      seen.add(id);
      return true;
    };
    for (const id of req.fileIds ?? []) if (!add(id)) reply.missingFileIds.push(id);
    for (const id of req.collectionIds ?? []) {
      const members = collections.get(id);
      if (!members) reply.missingCollectionIds.push(id);
      else members.forEach(add);
    }
    return reply;
  }

  @RpcHandler(PassagesSearch)
  search(req: PassageSearchRequest, ctx: RpcContext): PassageSearchReply {
    fake.searchCalls.push({ req, ctx });
    const failure = fake.searchFailures.shift();
    if (failure) throw failure;
    if (fake.failFile && req.fileIds.includes(fake.failFile))
      throw new DomainError(ErrorCode.NOT_FOUND, `File ${fake.failFile} was deleted`);
    return { passages: [rowPassage, linePassage, ...fake.passagesOf.values()].filter((p) => req.fileIds.includes(p.fileId)) };
  }

  @RpcHandler(FilesTables)
  tables(req: FileTablesRequest): FileTablesReply {
    if (fake.failTables) throw new DomainError(ErrorCode.INTERNAL, 'the tables are unreadable');
    if (req.fileId !== F1) return { tables: [], nextTable: null };
    const cell = (text: string, row: number, col: number) => ({
      nodeId: `cell-${row}-${col}`,
      text,
      positions: [{ type: 'CELL' as const, sheet_name: 'Sheet1', row, col }],
    });
    const rows = [
      [cell('Item', 3, 0), cell('Amount', 3, 1)],
      [cell('Revenue', 4, 0), cell('1,250,000', 4, 1)],
    ];
    return { tables: [{ fileId: F1, fileName: 'report.xlsx', tableId: 'table-1', headings: ['Sheet1'], rows }], nextTable: null };
  }

  @RpcHandler(FilesOntologies)
  ontologies(req: FileRefRequest): OntologyDto[] {
    if (req.fileId !== F2) return [];
    return [
      {
        conceptId: { id: randomUUID(), entityType: 'CONCEPT_NOTE' },
        name: 'Document metadata',
        metas: { title: { metaName: 'title', metaValue: 'Acme Corp', explanation: 'first line' } },
      },
    ];
  }
}

/** A reader whose answers the tests script: by default it cites the first passage that holds the question's last word. */
class ScriptedReader implements Reader {
  readonly name = 'scripted';
  readonly calls: Array<{ question: ReaderQuestion; passages: ReaderPassage[] }> = [];
  script?: (q: ReaderQuestion, passages: ReaderPassage[], signal?: AbortSignal) => Promise<ReaderAnswer>;

  answer(question: ReaderQuestion, passages: ReaderPassage[], signal?: AbortSignal): Promise<ReaderAnswer> {
    this.calls.push({ question, passages });
    if (this.script) return this.script(question, passages, signal);
    const word = question.question.replace(/\?$/, '').split(' ').pop() ?? '';
    for (const p of passages) {
      const at = p.text.indexOf(word);
      if (at >= 0) {
        return Promise.resolve({
          found: true,
          rawValue: word,
          value: { strValue: word },
          confidence: 0.8,
          explanation: `Read in ${p.fileName}.`,
          citations: [{ passageId: p.id, start: at, end: at + word.length }],
        });
      }
    }
    return Promise.resolve({
      found: false,
      rawValue: '',
      value: null,
      confidence: 0.1,
      explanation: 'Not in the passages.',
      citations: [],
    });
  }
}

let infra: TestInfrastructure;
let app: TestingModule;
let rpc: RpcClient;
let reader: ScriptedReader;
let db: Client;
let env: JobsEnv;

const alice: RpcContext = { requestId: 'test', namespaceId: NS, userId: ALICE };
const bob: RpcContext = { requestId: 'test', namespaceId: NS, userId: BOB };
const aliceElsewhere: RpcContext = { requestId: 'test', namespaceId: OTHER_NS, userId: ALICE };

beforeAll(async () => {
  infra = await startTestInfrastructure('jobs');
  env = orchestratorTestEnv(infra, { JOB_MAX_DELIVER: 3, JOB_NAMESPACE_ACTIVE_UNITS: 2 });
  reader = new ScriptedReader();
  app = await startOrchestrator({ env, logger, reader, standIns: [FakeIndexing] });
  rpc = app.get(RpcClient);
  db = new Client({ connectionString: infra.databaseUrl });
  await db.connect();
});

afterAll(async () => {
  await db?.end();
  await app?.close();
  await infra?.teardown();
});

beforeEach(() => {
  reader.script = undefined;
  reader.calls.length = 0;
  fake.searchCalls.length = 0;
  fake.searchFailures.length = 0;
  fake.failFile = null;
});

async function settle(kind: 'qa' | 'extraction' | 'multi-dim-extraction', jobId: string, ctx = alice, timeoutMs = 20_000): Promise<JobDto> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const job = await rpc.call(JobsGet, { kind, jobId }, ctx);
    if (['SUCCESS', 'FAILED', 'ABORTED'].includes(job.status)) return job;
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

describe('QA jobs', () => {
  it('answers each question, chained questions see the answers they name, and every citation resolves to a position', async () => {
    const created = await rpc.call(
      QaJobsCreate,
      {
        files: { fileIds: [F1, F2] },
        questions: [
          { id: 'company', question: 'Which company is Acme?', expectedAnswer: 'acme' },
          { id: 'revenue', question: 'What is the Revenue', answerType: { dataType: 'STRING' }, inputQuestionIds: ['company'] },
        ],
      },
      alice,
    );
    expect(created).toMatchObject({ status: 'PENDING', taskType: 'QA', name: 'Which company is Acme?', archived: false });
    expect(created.progress).toMatchObject({ total: 2 });
    const done = await settle('qa', created.jobId);
    expect(done).toMatchObject({ status: 'SUCCESS', progress: { total: 2, done: 2, failed: 0, answered: 2 } });
    expect(done.executionTime).toBeGreaterThanOrEqual(0);

    const results = (await rpc.call(JobsResults, { kind: 'qa', jobId: created.jobId }, alice)).items as QaResultDto[];
    expect(results.map((r) => [r.questionId, r.rawValue, r.found])).toEqual([
      ['company', 'Acme', true],
      ['revenue', 'Revenue', true],
    ]);
    expect(results[0]).toMatchObject({ expectedAnswer: 'acme', answerValidity: 1, sourcedContent: linePassage.text });
    // The chained question was asked with the first answer, and searched with it.
    const second = reader.calls.find((c) => c.question.question.startsWith('What is'));
    expect(second?.question.inputs).toEqual([{ questionId: 'company', question: 'Which company is Acme?', rawValue: 'Acme', found: true }]);
    expect(fake.searchCalls.map((c) => c.req.query)).toContain('What is the Revenue\nAcme');
    expect(fake.searchCalls.every((c) => c.ctx.namespaceId === NS)).toBe(true);

    const annotations = (await rpc.call(JobsAnnotations, { kind: 'qa', jobId: created.jobId }, alice)).items;
    const byId = new Map(annotations.map((a) => [a.id.id, a]));
    const first = byId.get(results[0].referenceIds[0].id) as AnnotationDto;
    // The LINE position narrowed to the cited characters "Acme" (columns 15..19 of line 3).
    expect(first.data).toMatchObject({
      type: 'DOCUMENT_STATEMENT',
      documentId: F2,
      documentName: 'notes.txt',
      positions: [{ type: 'LINE', line_number: 3, column_index_start: 15, column_index_stop: 19 }],
    });
    expect(first).toMatchObject({
      type: 'DOCUMENT_STATEMENT',
      status: 'VALID',
      space: { id: created.jobId, entityType: 'JOB' },
      owner: { id: ALICE },
    });
    // "Revenue" is in the row's first cell: the citation is that cell.
    const second2 = byId.get(results[1].referenceIds[0].id) as AnnotationDto;
    expect(second2.data.positions).toEqual([{ type: 'CELL', sheet_name: 'Sheet1', row: 4, col: 0 }]);
    expect(second2.data.content).toBe('Revenue');

    const inputs = await rpc.call(JobsInputs, { kind: 'qa', jobId: created.jobId }, alice);
    expect(inputs).toMatchObject({
      files: { fileIds: [F1, F2] },
      questions: [{ id: 'company' }, { id: 'revenue', inputQuestionIds: ['company'] }],
    });
  });

  it('refuses unindexed and unknown files naming them, unless unindexed files are to be skipped', async () => {
    const unindexed = await rejection(
      rpc.call(QaJobsCreate, { files: { fileIds: [F1, UNINDEXED] }, questions: [{ question: 'Revenue?' }] }, alice),
    );
    expect(unindexed.code).toBe(ErrorCode.VALIDATION_FAILED);
    expect(unindexed.details).toEqual([
      { field: 'files.fileIds[1]', problem: expect.stringContaining(`${UNINDEXED} (draft.pdf) is not indexed (status RUNNING)`) },
    ]);

    const viaCollection = await rejection(
      rpc.call(QaJobsCreate, { files: { collectionIds: [COLLECTION] }, questions: [{ question: 'Revenue?' }] }, alice),
    );
    expect(viaCollection.details[0]).toMatchObject({ field: 'files.collectionIds', problem: expect.stringContaining(UNINDEXED) });

    const missing = randomUUID();
    const unknown = await rejection(
      rpc.call(QaJobsCreate, { files: { fileIds: [F1, missing] }, questions: [{ question: 'Revenue?' }] }, alice),
    );
    expect(unknown.details).toEqual([{ field: 'files.fileIds[1]', problem: `names no file of this namespace (${missing})` }]);

    // Another namespace's file is unknown here, never read.
    const foreign = await rejection(
      rpc.call(QaJobsCreate, { files: { fileIds: [F1] }, questions: [{ question: 'Revenue?' }] }, aliceElsewhere),
    );
    expect(foreign.details[0].field).toBe('files.fileIds[0]');

    const skipped = await rpc.call(
      QaJobsCreate,
      {
        files: { collectionIds: [COLLECTION] },
        questions: [{ question: 'Which company is Acme?' }],
        config: { skip_unindexed_files: true },
      },
      alice,
    );
    expect(await settle('qa', skipped.jobId)).toMatchObject({ status: 'SUCCESS' });
    expect(fake.searchCalls.at(-1)?.req.fileIds).toEqual([F2]);
  });

  it('refuses questions that cannot run: no files, duplicate ids, unknown or cyclic chains, ENUM without values', async () => {
    const cases: Array<[unknown, string]> = [
      [{ files: {}, questions: [{ question: 'x' }] }, 'files'],
      [
        {
          files: { fileIds: [F1] },
          questions: [
            { id: 'a', question: 'x' },
            { id: 'a', question: 'y' },
          ],
        },
        'questions[1].id',
      ],
      [{ files: { fileIds: [F1] }, questions: [{ id: 'a', question: 'x', inputQuestionIds: ['zz'] }] }, 'questions[0].inputQuestionIds[0]'],
      [{ files: { fileIds: [F1] }, questions: [{ id: 'a', question: 'x', inputQuestionIds: ['a'] }] }, 'questions[0].inputQuestionIds[0]'],
      [
        {
          files: { fileIds: [F1] },
          questions: [
            { id: 'a', question: 'x', inputQuestionIds: ['b'] },
            { id: 'b', question: 'y', inputQuestionIds: ['a'] },
          ],
        },
        'questions[0].inputQuestionIds',
      ],
      [
        { files: { fileIds: [F1] }, questions: [{ question: 'x', answerType: { dataType: 'ENUM' } }] },
        'questions[0].answerType.enumValues',
      ],
    ];
    for (const [body, field] of cases) {
      const err = await rejection(rpc.call(QaJobsCreate, body as never, alice));
      expect([err.code, err.details.map((d) => d.field)]).toEqual([ErrorCode.VALIDATION_FAILED, [field]]);
    }
  });

  it("shows a job only to its owner in its namespace, and lists only the caller's jobs", async () => {
    const job = await rpc.call(QaJobsCreate, { files: { fileIds: [F1] }, questions: [{ question: 'What is the Revenue' }] }, alice);
    await settle('qa', job.jobId);
    for (const ctx of [bob, aliceElsewhere]) {
      for (const call of [JobsGet, JobsResults, JobsAnnotations, JobsInputs, JobsCancel]) {
        const err = await rejection(rpc.call(call as typeof JobsGet, { kind: 'qa', jobId: job.jobId }, ctx));
        expect(err.code).toBe(ErrorCode.NOT_FOUND);
      }
    }
    // A QA job is not an extraction job.
    expect((await rejection(rpc.call(JobsGet, { kind: 'extraction', jobId: job.jobId }, alice))).code).toBe(ErrorCode.NOT_FOUND);
    expect((await rejection(rpc.call(JobsGet, { kind: 'qa', jobId: 'not-a-uuid' }, alice))).code).toBe(ErrorCode.NOT_FOUND);

    const mine = await rpc.call(JobsList, { kind: 'qa', page: 0, pageSize: 1000 }, alice);
    expect(mine.data.map((j) => j.jobId)).toContain(job.jobId);
    expect(mine.data.every((j) => j.taskType === 'QA')).toBe(true);
    const times = mine.data.map((j) => j.createdTime);
    expect([...times].sort((a, b) => b - a)).toEqual(times); // newest first
    expect((await rpc.call(JobsList, { kind: 'qa', page: 0, pageSize: 10 }, bob)).totalElements).toBe(0);
    expect((await rpc.call(JobsList, { kind: 'qa', page: 0, pageSize: 10 }, aliceElsewhere)).totalElements).toBe(0);
    const paged = await rpc.call(JobsList, { kind: 'qa', page: 1, pageSize: 1, sortProperty: 'createdTime', sortOrder: 'ASC' }, alice);
    expect(paged).toMatchObject({ totalElements: mine.totalElements, totalPages: mine.totalElements, data: [expect.any(Object)] });
  });

  it('fails only the question whose reader failed, and the whole job when every question failed', async () => {
    reader.script = (q) =>
      q.question.includes('bad')
        ? Promise.reject(new Error('the model answered nonsense'))
        : Promise.resolve({ found: false, rawValue: '', value: null, confidence: 0.2, explanation: 'Not found.', citations: [] });
    const mixed = await rpc.call(
      QaJobsCreate,
      { files: { fileIds: [F1] }, questions: [{ question: 'good one' }, { question: 'bad one' }] },
      alice,
    );
    expect(await settle('qa', mixed.jobId)).toMatchObject({ status: 'SUCCESS', progress: { done: 1, failed: 1 } });
    const results = (await rpc.call(JobsResults, { kind: 'qa', jobId: mixed.jobId }, alice)).items as QaResultDto[];
    expect(results[0]).toMatchObject({ found: false, explanation: 'Not found.', confidence: 0.2 });
    expect(results[1]).toMatchObject({
      found: false,
      rawValue: '',
      explanation: 'The question could not be answered: the model answered nonsense',
    });

    const allBad = await rpc.call(QaJobsCreate, { files: { fileIds: [F1] }, questions: [{ question: 'bad' }] }, alice);
    const failed = await settle('qa', allBad.jobId);
    expect(failed).toMatchObject({
      status: 'FAILED',
      errorMessage: 'Every part of the job failed; the first reason: the model answered nonsense',
    });
  });

  it('retries a unit while the indexing service is away, and gives up with the reason after JOB_MAX_DELIVER attempts', async () => {
    fake.searchFailures.push(new DomainError(ErrorCode.SERVICE_UNAVAILABLE, 'indexing-service has no running instance'));
    const retried = await rpc.call(QaJobsCreate, { files: { fileIds: [F1] }, questions: [{ question: 'What is the Revenue' }] }, alice);
    expect(await settle('qa', retried.jobId)).toMatchObject({ status: 'SUCCESS', progress: { done: 1 } });
    expect(fake.searchCalls).toHaveLength(2);

    for (let i = 0; i < 3; i++) fake.searchFailures.push(new DomainError(ErrorCode.TIMEOUT, 'indexing-service did not answer in time'));
    const given = await rpc.call(QaJobsCreate, { files: { fileIds: [F1] }, questions: [{ question: 'What is the Revenue' }] }, alice);
    const failed = await settle('qa', given.jobId, alice, 30_000);
    expect(failed.status).toBe('FAILED');
    expect(failed.errorMessage).toContain('indexing-service did not answer in time (gave up after 3 attempts)');
  });

  it('cancels a running job: ABORTED at once, the running answer discarded, the job never reopened', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let entered!: () => void;
    const started = new Promise<void>((r) => (entered = r));
    reader.script = async () => {
      entered();
      await gate;
      return {
        found: true,
        rawValue: 'late',
        value: { strValue: 'late' },
        confidence: 1,
        explanation: 'late',
        citations: [{ passageId: rowPassage.id, start: 0, end: 7 }],
      };
    };
    const job = await rpc.call(QaJobsCreate, { files: { fileIds: [F1] }, questions: [{ question: 'slow' }] }, alice);
    await started;
    const cancelled = await rpc.call(JobsCancel, { kind: 'qa', jobId: job.jobId }, alice);
    expect(cancelled).toMatchObject({ status: 'ABORTED', errorMessage: expect.stringContaining('Cancelled by the user') });
    release();
    await new Promise((r) => setTimeout(r, 1500));
    expect(await rpc.call(JobsGet, { kind: 'qa', jobId: job.jobId }, alice)).toMatchObject({ status: 'ABORTED' });
    expect(await rpc.call(JobsResults, { kind: 'qa', jobId: job.jobId }, alice)).toEqual({ items: [], nextUnit: null });
    expect(await rpc.call(JobsAnnotations, { kind: 'qa', jobId: job.jobId }, alice)).toEqual({ items: [], nextUnit: null });
    // Cancelling a terminal job changes nothing.
    expect(await rpc.call(JobsCancel, { kind: 'qa', jobId: job.jobId }, alice)).toMatchObject({ status: 'ABORTED' });
  });

  it('shows the answers given so far while a job runs', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    reader.script = async (q) => {
      if (q.question === 'second') await gate;
      return { found: false, rawValue: '', value: null, confidence: 0, explanation: `no ${q.question}`, citations: [] };
    };
    const job = await rpc.call(
      QaJobsCreate,
      {
        files: { fileIds: [F1] },
        questions: [
          { id: '1', question: 'first' },
          { id: '2', question: 'second', inputQuestionIds: ['1'] },
        ],
      },
      alice,
    );
    for (let i = 0; i < 100; i++) {
      const results = (await rpc.call(JobsResults, { kind: 'qa', jobId: job.jobId }, alice)).items as QaResultDto[];
      if (results.length) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await rpc.call(JobsGet, { kind: 'qa', jobId: job.jobId }, alice)).toMatchObject({
      status: 'RUNNING',
      progress: { done: 1, total: 2 },
    });
    expect(
      ((await rpc.call(JobsResults, { kind: 'qa', jobId: job.jobId }, alice)).items as QaResultDto[]).map((r) => r.explanation),
    ).toEqual(['no first']);
    release();
    expect(await settle('qa', job.jobId)).toMatchObject({ status: 'SUCCESS' });
  });
});

describe('the sweeper', () => {
  it('takes over a unit whose worker died, publishes a lost unit again, and ends a job whose units are over', async () => {
    const sweeper = app.get(JobSweeper);
    // A job as a crashed replica leaves it: its unit RUNNING with an old heartbeat, its message gone.
    const job = await rpc.call(QaJobsCreate, { files: { fileIds: [F1] }, questions: [{ question: 'What is the Revenue' }] }, alice);
    await settle('qa', job.jobId);
    await db.query(`UPDATE jobs.jobs SET status = 'RUNNING', finished_at = NULL WHERE id = $1`, [job.jobId]);
    await db.query(
      `UPDATE jobs.job_units SET status = 'RUNNING', claim = gen_random_uuid(), attempts = 1, heartbeat_at = now() - interval '1 hour' WHERE job_id = $1`,
      [job.jobId],
    );
    const swept = await sweeper.sweep();
    expect(swept.takenOver).toBeGreaterThanOrEqual(1);
    expect(swept.republished).toBeGreaterThanOrEqual(1);
    expect(await settle('qa', job.jobId)).toMatchObject({ status: 'SUCCESS', progress: { done: 1 } });

    // A unit out of attempts is failed with the reason instead.
    await db.query(`UPDATE jobs.jobs SET status = 'RUNNING', finished_at = NULL WHERE id = $1`, [job.jobId]);
    await db.query(
      `UPDATE jobs.job_units SET status = 'RUNNING', claim = gen_random_uuid(), attempts = 3, heartbeat_at = now() - interval '1 hour' WHERE job_id = $1`,
      [job.jobId],
    );
    expect((await sweeper.sweep()).failed).toBe(1);
    const failed = await rpc.call(JobsGet, { kind: 'qa', jobId: job.jobId }, alice);
    expect(failed).toMatchObject({ status: 'FAILED', errorMessage: expect.stringContaining('stopped responding 3 times') });

    // A job whose units are over but which was never ended.
    await db.query(`UPDATE jobs.jobs SET status = 'RUNNING', finished_at = NULL WHERE id = $1`, [job.jobId]);
    expect((await sweeper.sweep()).finished).toBe(1);
    expect(await rpc.call(JobsGet, { kind: 'qa', jobId: job.jobId }, alice)).toMatchObject({ status: 'FAILED' });
  });
});

describe('extraction jobs', () => {
  it('extracts each meta from each file; one bad file fails its own values; known metadata answers its meta', async () => {
    const extra = randomUUID();
    files.set(extra, { name: 'gone.txt', status: 'SUCCESS', namespace: NS });
    fake.failFile = extra;
    const job = await rpc.call(
      ExtractionJobsCreate,
      {
        files: { fileIds: [F1, F2, extra] },
        metas: [
          { meta: 'title', answerType: { dataType: 'STRING' } },
          { meta: 'Revenue', description: 'the Revenue' },
        ],
      },
      alice,
    );
    expect(job).toMatchObject({ taskType: 'EXTRACTION', status: 'PENDING', progress: { total: 3 } });
    const done = await settle('extraction', job.jobId);
    expect(done).toMatchObject({ status: 'SUCCESS', progress: { total: 3, done: 2, failed: 1, answered: 6 } });
    const results = (await rpc.call(JobsResults, { kind: 'extraction', jobId: job.jobId }, alice)).items as MetaResultDto[];
    expect(results.map((r) => [r.fileId, r.meta, r.found])).toEqual([
      [F1, 'title', false],
      [F1, 'Revenue', true],
      [F2, 'title', true],
      [F2, 'Revenue', false],
      [extra, 'title', false],
      [extra, 'Revenue', false],
    ]);
    expect(results[1]).toMatchObject({
      answer: { strValue: 'Revenue' },
      rawValue: 'Revenue',
      answerType: { dataType: 'STRING', multiValued: false },
    });
    expect(results[2]).toMatchObject({ answer: { strValue: 'Acme Corp' }, explanation: expect.stringContaining("document's metadata") });
    expect(results[4].explanation).toBe(`The value could not be read from this file: File ${extra} was deleted`);
    expect(results[0]).toMatchObject({ answer: {}, rawValue: null });
    const annotations = (await rpc.call(JobsAnnotations, { kind: 'extraction', jobId: job.jobId }, alice)).items;
    const cited = annotations.find((a) => a.id.id === results[2].referenceIds[0].id);
    expect(cited?.data).toMatchObject({
      documentId: F2,
      positions: [{ type: 'LINE', line_number: 3, column_index_start: 15, column_index_stop: 24 }],
    });
  });

  it('gives the results of a large job in parts that each fit in a NATS message', async () => {
    const many = Array.from({ length: 250 }, (_, i) => {
      const id = randomUUID();
      files.set(id, { name: `f${i}.txt`, status: 'SUCCESS', namespace: NS });
      return id;
    });
    const job = await rpc.call(ExtractionJobsCreate, { files: { fileIds: many }, metas: [{ meta: 'Revenue' }] }, alice);
    expect(await settle('extraction', job.jobId, alice, 60_000)).toMatchObject({ status: 'SUCCESS', progress: { total: 250, done: 250 } });
    const first = await rpc.call(JobsResults, { kind: 'extraction', jobId: job.jobId }, alice);
    expect([first.items.length, first.nextUnit]).toEqual([200, 200]);
    const second = await rpc.call(JobsResults, { kind: 'extraction', jobId: job.jobId, fromUnit: 200 }, alice);
    expect([second.items.length, second.nextUnit]).toEqual([50, null]);
    expect([...first.items, ...second.items].map((r) => (r as MetaResultDto).fileId)).toEqual(many);
  });

  it('ends at once with no results when every file was skipped as unindexed', async () => {
    const job = await rpc.call(
      ExtractionJobsCreate,
      { files: { fileIds: [UNINDEXED] }, metas: [{ meta: 'title' }], config: { skip_unindexed_files: true } },
      alice,
    );
    expect(job.status).toBe('SUCCESS');
    expect(await rpc.call(JobsResults, { kind: 'extraction', jobId: job.jobId }, alice)).toEqual({ items: [], nextUnit: null });
  });
});

describe('with the LLM engine (a local server speaking the OpenAI chat-completions protocol)', () => {
  let server: TestOpenAiServer;
  let llmReader: Reader;

  beforeAll(async () => {
    server = await startOpenAiServer();
    const llm = createLlmReader(
      loadConfig(LlmEnv, {
        LLM_BASE_URL: server.baseUrl,
        LLM_API_KEY: 'sk-test',
        LLM_MODEL: 'test-model',
        LLM_TIMEOUT_MS: '2000',
        LLM_MAX_RETRIES: '2',
      }),
      { retryBaseDelayMs: 5 },
    );
    llmReader = llm;
  });
  afterAll(() => server.stop());
  beforeEach(() => {
    server.reset();
    reader.script = (q, p, signal) => llmReader.answer(q, p, signal);
  });

  it('answers with the cited cell, and a job whose endpoint keeps failing ends FAILED with the reason instead of hanging', async () => {
    server.enqueue(
      openAiReply.rateLimited(0),
      openAiReply.output({
        found: true,
        value: 1250000,
        explanation: 'The revenue row.',
        citations: [{ passageId: rowPassage.id, quote: '1,250,000' }],
      }),
    );
    const job = await rpc.call(
      QaJobsCreate,
      { files: { fileIds: [F1] }, questions: [{ question: 'What is the revenue?', answerType: { dataType: 'INT' } }] },
      alice,
    );
    expect(await settle('qa', job.jobId)).toMatchObject({ status: 'SUCCESS' });
    const results = (await rpc.call(JobsResults, { kind: 'qa', jobId: job.jobId }, alice)).items as QaResultDto[];
    expect(results[0]).toMatchObject({ found: true, answer: { longValue: 1250000 } });
    const [cited] = (await rpc.call(JobsAnnotations, { kind: 'qa', jobId: job.jobId }, alice)).items;
    expect(cited.data.positions).toEqual([{ type: 'CELL', sheet_name: 'Sheet1', row: 4, col: 1 }]);
    expect(server.requests).toHaveLength(2);

    server.script = () => openAiReply.error(500, { message: 'model crashed' });
    const failing = await rpc.call(QaJobsCreate, { files: { fileIds: [F1] }, questions: [{ question: 'What is the revenue?' }] }, alice);
    const failed = await settle('qa', failing.jobId);
    expect(failed.status).toBe('FAILED');
    expect(failed.errorMessage).toMatch(/500/);
    expect(failed.errorMessage).toContain(server.baseUrl.replace(/\/v1$/, ''));
  });
});

describe('multi-dimensional extraction jobs', () => {
  it("reads rows from a file's table and, for a file without one, from its text, each cell citing where it was read", async () => {
    reader.script = (q, passages) => {
      const p = passages.find((x) => x.fileId === F2);
      if (!p) return Promise.resolve({ found: false, rawValue: '', value: null, confidence: 0, explanation: 'No passage.', citations: [] });
      if (q.question.startsWith('Who are')) {
        const at = p.text.indexOf('Acme Corp');
        return Promise.resolve({
          found: true,
          rawValue: 'Acme Corp',
          value: { strListValue: ['Acme Corp'] },
          confidence: 0.7,
          explanation: 'Named in notes.',
          citations: [{ passageId: p.id, start: at, end: at + 9 }],
        });
      }
      return Promise.resolve({
        found: true,
        rawValue: '7',
        value: { longValue: 7 },
        confidence: 0.6,
        explanation: 'Read in notes.',
        citations: [{ passageId: p.id, start: 0, end: 3 }],
      });
    };
    const schema = {
      name: 'Amounts',
      columns: [
        { key: 'item', label: 'Item', type: 'ENTITY_COLUMN_TYPE_STRING', role: 'ENTITY_COLUMN_ROLE_IDENTIFIER', isRowKey: true },
        { key: 'amount', label: 'Amount', type: 'ENTITY_COLUMN_TYPE_INT', role: 'ENTITY_COLUMN_ROLE_VALUE' },
      ],
    };
    const created = await rpc.call(MultiDimExtractionJobsCreate, { files: { fileIds: [F1, F2] }, schema }, alice);
    expect(created.taskType).toBe('MULTI_DIM_EXTRACTION');
    expect(await settle('multi-dim-extraction', created.jobId)).toMatchObject({ status: 'SUCCESS', progress: { total: 2, done: 2 } });

    const part = await rpc.call(MultiDimExtractionJobsRows, { jobId: created.jobId }, alice);
    expect(part.nextRow).toBeNull();
    expect(part.rows.map((r) => r.cells.map((c) => c.value))).toEqual([
      ['Revenue', 1250000],
      ['Acme Corp', 7],
    ]);
    expect(part.head.explanation).toBe('2 rows of "Amounts" from 2 files, read from tables of report.xlsx and the text of notes.txt.');
    // The text rows asked one question for the entities, then one per other column.
    expect(reader.calls.map((c) => c.question.question)).toEqual(['Who are the Items? Amount', 'What is the Amount of Acme Corp?']);

    const annotations = (await rpc.call(JobsAnnotations, { kind: 'multi-dim-extraction', jobId: created.jobId }, alice)).items;
    const byId = new Map(annotations.map((a) => [a.id.id, a]));
    const positionOf = (ref: { id: string }) => byId.get(ref.id)?.data.positions[0];
    expect(positionOf(part.rows[0].cells[1].referenceIds[0])).toEqual({ type: 'CELL', sheet_name: 'Sheet1', row: 4, col: 1 });
    expect(positionOf(part.rows[1].cells[1].referenceIds[0])).toMatchObject({ type: 'LINE', line_number: 3 });

    expect((await rejection(rpc.call(MultiDimExtractionJobsRows, { jobId: created.jobId }, bob))).code).toBe(ErrorCode.NOT_FOUND);
    expect((await rejection(rpc.call(MultiDimExtractionJobsRows, { jobId: created.jobId }, aliceElsewhere))).code).toBe(
      ErrorCode.NOT_FOUND,
    );
  });

  it("with a reader that fills whole schemas (the LLM), reads the file's passages in one request and cites every value", async () => {
    const rowsReader = reader as unknown as { readRows?: (schema: { name: string }, passages: ReaderPassage[]) => Promise<unknown> };
    const asked: string[] = [];
    rowsReader.readRows = (schema, passages) => {
      asked.push(schema.name);
      const p = passages.find((x) => x.fileId === F2)!;
      const at = p.text.indexOf('Acme Corp');
      return Promise.resolve({
        explanation: 'From the notes.',
        rows: [
          {
            cells: [
              {
                columnKey: 'company',
                value: 'Acme Corp',
                explanation: 'Read in notes.txt.',
                citations: [{ passageId: p.id, start: at, end: at + 9 }],
              },
              { columnKey: 'city', value: null, explanation: 'The passages do not state it.', citations: [] },
            ],
          },
        ],
      });
    };
    try {
      const schema = {
        name: 'Companies',
        columns: [
          { key: 'company', label: 'Company', isRowKey: true },
          { key: 'city', label: 'City' },
        ],
      };
      const created = await rpc.call(MultiDimExtractionJobsCreate, { files: { fileIds: [F2] }, schema }, alice);
      expect(await settle('multi-dim-extraction', created.jobId)).toMatchObject({ status: 'SUCCESS' });
      const part = await rpc.call(MultiDimExtractionJobsRows, { jobId: created.jobId }, alice);
      expect(asked).toEqual(['Companies']);
      expect(reader.calls).toHaveLength(0); // no question-by-question reading
      expect(part.rows.map((r) => r.cells.map((c) => c.value))).toEqual([['Acme Corp', null]]);
      const annotations = (await rpc.call(JobsAnnotations, { kind: 'multi-dim-extraction', jobId: created.jobId }, alice)).items;
      expect(annotations.find((a) => a.id.id === part.rows[0].cells[0].referenceIds[0].id)?.data.positions[0]).toMatchObject({
        type: 'LINE',
        line_number: 3,
      });
    } finally {
      delete rowsReader.readRows;
    }
  });

  it('fails a file whose tables cannot be read with the reason, and the job when every file failed', async () => {
    const schema = { name: 'Amounts', columns: [{ key: 'item', label: 'Item' }] };
    const created = await rpc.call(MultiDimExtractionJobsCreate, { files: { fileIds: [F1] }, schema }, alice);
    expect(await settle('multi-dim-extraction', created.jobId)).toMatchObject({ status: 'SUCCESS' });
    fake.failTables = true;
    try {
      const failing = await rpc.call(MultiDimExtractionJobsCreate, { files: { fileIds: [F1] }, schema }, alice);
      const job = await settle('multi-dim-extraction', failing.jobId);
      expect(job.status).toBe('FAILED');
      expect(job.errorMessage).toContain('tables are unreadable');
    } finally {
      fake.failTables = false;
    }
  });
});

describe('agent jobs: Idempotency-Keys', () => {
  it('return the same job for the same key and body, refuse another body, and expire after JOB_IDEMPOTENCY_TTL_SECONDS', async () => {
    const sweeper = app.get(JobSweeper);
    const body = {
      messages: [{ role: 'user' as const, content: 'What is the revenue?' }],
      files: { fileIds: [F1] },
      idempotencyKey: 'key-1',
    };
    const other = { ...body, messages: [{ role: 'user' as const, content: 'Who signed?' }] };
    const first = await rpc.call(AgentJobsCreate, body, alice);
    expect(first).toMatchObject({ taskType: 'AGENT', status: 'PENDING' });
    expect((await rpc.call(AgentJobsCreate, { ...body }, alice)).jobId).toBe(first.jobId);
    await expect(rpc.call(AgentJobsCreate, other, alice)).rejects.toMatchObject({
      code: ErrorCode.CONFLICT,
      details: [{ field: 'Idempotency-Key', problem: expect.stringContaining(first.jobId) }],
    });

    // Expired, the key is free for a new request, and the sweeper forgets what is left of old keys.
    await db.query(`UPDATE jobs.job_idempotency_keys SET created_at = now() - interval '2 days' WHERE key = 'key-1'`);
    const fresh = await rpc.call(AgentJobsCreate, other, alice);
    expect(fresh.jobId).not.toBe(first.jobId);
    await db.query(`UPDATE jobs.job_idempotency_keys SET created_at = now() - interval '2 days'`);
    expect((await sweeper.sweep()).expiredKeys).toBeGreaterThanOrEqual(1);
    expect((await db.query('SELECT count(*)::int AS n FROM jobs.job_idempotency_keys')).rows[0].n).toBe(0);
  });
});

/** A namespace of its own with one indexed file whose search finds one passage, and a caller in it. */
function namespaceWithFile(): { ctx: RpcContext; fileId: string } {
  const namespaceId = randomUUID();
  const fileId = randomUUID();
  files.set(fileId, { name: `${fileId}.txt`, status: 'SUCCESS', namespace: namespaceId });
  fake.passagesOf.set(fileId, { ...linePassage, id: randomUUID(), fileId, fileName: `${fileId}.txt` });
  return { ctx: { requestId: 'test', namespaceId, userId: ALICE }, fileId };
}

/** A reader that holds every question until released, noting the order questions reach it. */
function heldReader(): { asked: string[]; release: () => void } {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const asked: string[] = [];
  reader.script = async (q) => {
    asked.push(q.question);
    await gate;
    return { found: false, rawValue: '', value: null, confidence: 0, explanation: 'held', citations: [] };
  };
  return { asked, release };
}

describe('Idempotency-Keys on every job create', () => {
  const qa = (fileId: string, question: string, key?: string) => ({
    files: { fileIds: [fileId] },
    questions: [{ id: 'q', question }],
    ...(key ? { idempotencyKey: key } : {}),
  });

  it('return the same QA job for the same key and body, even for requests sent at once, and refuse another body', async () => {
    const first = await rpc.call(QaJobsCreate, qa(F1, 'What is the Revenue', 'qa-key-1'), alice);
    const again = await rpc.call(QaJobsCreate, qa(F1, 'What is the Revenue', 'qa-key-1'), alice);
    expect(again.jobId).toBe(first.jobId);
    await expect(rpc.call(QaJobsCreate, qa(F1, 'Who signed?', 'qa-key-1'), alice)).rejects.toMatchObject({
      code: ErrorCode.CONFLICT,
      details: [{ field: 'Idempotency-Key', problem: expect.stringContaining(first.jobId) }],
    });
    // The same key for another kind of job is another request.
    await expect(
      rpc.call(ExtractionJobsCreate, { files: { fileIds: [F1] }, metas: [{ meta: 'title' }], idempotencyKey: 'qa-key-1' }, alice),
    ).rejects.toMatchObject({ code: ErrorCode.CONFLICT });

    // Two requests with one key at once (a client retrying while its first request still runs): one job.
    const together = await Promise.all([1, 2, 3].map(() => rpc.call(QaJobsCreate, qa(F1, 'Which company is Acme?', 'qa-key-2'), alice)));
    expect(new Set(together.map((j) => j.jobId)).size).toBe(1);
    const made = await db.query(
      `SELECT count(*)::int AS n FROM jobs.job_idempotency_keys k JOIN jobs.jobs j ON j.id = k.job_id WHERE k.key = 'qa-key-2'`,
    );
    expect(made.rows[0].n).toBe(1);
    expect(
      (await db.query('SELECT count(*)::int AS n FROM jobs.jobs WHERE id = ANY($1::uuid[])', [together.map((j) => j.jobId)])).rows[0].n,
    ).toBe(1);
    await settle('qa', first.jobId);
    await settle('qa', together[0].jobId);
  });

  it("are the caller's own: another user, or another namespace, with the same key gets a job of its own", async () => {
    const mine = await rpc.call(QaJobsCreate, qa(F1, 'What is the Revenue', 'shared-key'), alice);
    const bobs = await rpc.call(QaJobsCreate, qa(F1, 'What is the Revenue', 'shared-key'), bob);
    const elsewhere = namespaceWithFile();
    const theirs = await rpc.call(QaJobsCreate, qa(elsewhere.fileId, 'What is the Revenue', 'shared-key'), elsewhere.ctx);
    expect(new Set([mine.jobId, bobs.jobId, theirs.jobId]).size).toBe(3);
    await settle('qa', mine.jobId);
    await settle('qa', bobs.jobId, bob);
    await settle('qa', theirs.jobId, elsewhere.ctx);
  });

  it('return the same extraction and multi-dimensional extraction job for the same key and body', async () => {
    const extraction = { files: { fileIds: [F1] }, metas: [{ meta: 'Revenue' }], idempotencyKey: 'ex-key' };
    const ex = await rpc.call(ExtractionJobsCreate, extraction, alice);
    expect((await rpc.call(ExtractionJobsCreate, extraction, alice)).jobId).toBe(ex.jobId);
    const rows = {
      files: { fileIds: [F1] },
      schema: {
        name: 'Lines',
        columns: [{ key: 'item', label: 'Item', type: 'ENTITY_COLUMN_TYPE_STRING', role: 'ENTITY_COLUMN_ROLE_IDENTIFIER', isRowKey: true }],
      },
      idempotencyKey: 'md-key',
    };
    const md = await rpc.call(MultiDimExtractionJobsCreate, rows, alice);
    expect((await rpc.call(MultiDimExtractionJobsCreate, rows, alice)).jobId).toBe(md.jobId);
    await expect(rpc.call(MultiDimExtractionJobsCreate, { ...rows, files: { fileIds: [F2] } }, alice)).rejects.toMatchObject({
      code: ErrorCode.CONFLICT,
    });
    await settle('extraction', ex.jobId);
    await settle('multi-dim-extraction', md.jobId);
  });
});

describe('per-namespace limits', () => {
  afterEach(() => {
    env.JOB_NAMESPACE_MAX_OPEN_JOBS = 100;
    env.JOB_NAMESPACE_MAX_OPEN_UNITS = 5000;
  });

  it('refuse a create beyond the open jobs a namespace may have with 429, Retry-After and the limit named; others are not held back', async () => {
    env.JOB_NAMESPACE_MAX_OPEN_JOBS = 3;
    const held = heldReader();
    const a = namespaceWithFile();
    const body = (n: number, key?: string) => ({
      files: { fileIds: [a.fileId] },
      questions: [{ question: `A${n}` }],
      ...(key ? { idempotencyKey: key } : {}),
    });
    const open = [
      await rpc.call(QaJobsCreate, body(0, 'limit-key'), a.ctx),
      await rpc.call(QaJobsCreate, body(1), a.ctx),
      await rpc.call(QaJobsCreate, body(2), a.ctx),
    ];
    const refused = await rejection(rpc.call(QaJobsCreate, body(3), a.ctx));
    expect(refused).toMatchObject({
      code: ErrorCode.TOO_MANY_REQUESTS,
      retryAfterSeconds: env.JOB_LIMIT_RETRY_AFTER_SECONDS,
      details: [{ field: 'JOB_NAMESPACE_MAX_OPEN_JOBS', problem: expect.stringContaining('3 jobs queued or running') }],
    });
    // Agent jobs are jobs of the namespace too.
    await expect(
      rpc.call(AgentJobsCreate, { messages: [{ role: 'user', content: 'Revenue?' }], files: { fileIds: [a.fileId] } }, a.ctx),
    ).rejects.toMatchObject({ code: ErrorCode.TOO_MANY_REQUESTS });
    // A retry of a create that was accepted still gets its job.
    expect((await rpc.call(QaJobsCreate, body(0, 'limit-key'), a.ctx)).jobId).toBe(open[0].jobId);
    // A question job an agent run starts was admitted with its agent: it is not refused.
    const sub = await app.get(QaJobs).create(a.ctx, body(4), { subJob: true });
    // Another namespace creates as usual.
    const b = namespaceWithFile();
    const other = await rpc.call(QaJobsCreate, { files: { fileIds: [b.fileId] }, questions: [{ question: 'B0' }] }, b.ctx);
    // Once a job ends, there is room again.
    await rpc.call(JobsCancel, { kind: 'qa', jobId: open[1].jobId }, a.ctx);
    await rpc.call(JobsCancel, { kind: 'qa', jobId: sub.jobId }, a.ctx);
    const admitted = await rpc.call(QaJobsCreate, body(5), a.ctx);
    held.release();
    for (const job of [...open, admitted]) await settle('qa', job.jobId, a.ctx);
    await settle('qa', other.jobId, b.ctx);
  });

  it('refuse a job whose questions would take the namespace beyond its open units, naming that limit', async () => {
    env.JOB_NAMESPACE_MAX_OPEN_UNITS = 3;
    const held = heldReader();
    const a = namespaceWithFile();
    const two = (p: string) => ({ files: { fileIds: [a.fileId] }, questions: [{ question: `${p}1` }, { question: `${p}2` }] });
    const first = await rpc.call(QaJobsCreate, two('x'), a.ctx);
    await expect(rpc.call(QaJobsCreate, two('y'), a.ctx)).rejects.toMatchObject({
      code: ErrorCode.TOO_MANY_REQUESTS,
      details: [
        {
          field: 'JOB_NAMESPACE_MAX_OPEN_UNITS',
          problem: expect.stringContaining('has 2 questions, files or sources queued or running and the job adds 2'),
        },
      ],
    });
    held.release();
    await settle('qa', first.jobId, a.ctx);
    // A namespace with nothing open gets its job whatever its size.
    expect(
      await settle(
        'qa',
        (await rpc.call(QaJobsCreate, { ...two('z'), questions: [...two('z').questions, { question: 'z3' }, { question: 'z4' }] }, a.ctx))
          .jobId,
        a.ctx,
      ),
    ).toMatchObject({
      status: 'SUCCESS',
    });
  });
});

describe('fair hand-out of units between namespaces', () => {
  it("takes another namespace's single job before a flooding namespace's backlog", async () => {
    const held = heldReader();
    const a = namespaceWithFile();
    const b = namespaceWithFile();
    const flood: JobDto[] = [];
    for (let i = 0; i < 8; i++)
      flood.push(await rpc.call(QaJobsCreate, { files: { fileIds: [a.fileId] }, questions: [{ question: `A${i}` }] }, a.ctx));
    // Only JOB_NAMESPACE_ACTIVE_UNITS (2) of A's units are handed out; the rest wait in the database.
    const handedOut = await db.query(
      `SELECT count(*)::int AS n FROM jobs.job_units WHERE job_id = ANY($1::uuid[]) AND (status = 'RUNNING' OR published_at IS NOT NULL)`,
      [flood.map((j) => j.jobId)],
    );
    expect(handedOut.rows[0].n).toBe(2);
    const single = await rpc.call(QaJobsCreate, { files: { fileIds: [b.fileId] }, questions: [{ question: 'B0' }] }, b.ctx);
    held.release();
    expect(await settle('qa', single.jobId, b.ctx)).toMatchObject({ status: 'SUCCESS' });
    for (const job of flood) expect(await settle('qa', job.jobId, a.ctx)).toMatchObject({ status: 'SUCCESS' });
    // B's question came right after the units A had running (two workers), before A's backlog; FIFO would put it ninth.
    expect(held.asked.indexOf('B0')).toBeLessThanOrEqual(3);
  });
});

describe('job figures on /metrics', () => {
  /** A sample's value in the process's registry (0 when the series does not exist yet). */
  async function figure(name: string, labels: Record<string, string>): Promise<number> {
    const families = await app.get(Metrics).registry.getMetricsAsJSON();
    for (const family of families) {
      for (const v of family.values as Array<{ labels: Record<string, string | number>; value: number; metricName?: string }>) {
        if ((v.metricName ?? family.name) !== name) continue;
        if (Object.entries(labels).every(([k, want]) => String(v.labels[k]) === want)) return v.value;
      }
    }
    return 0;
  }

  it('count jobs created and finished by kind and status, units by outcome, and units in progress', async () => {
    const before = {
      created: await figure('docintel_jobs_created_total', { kind: 'qa' }),
      succeeded: await figure('docintel_jobs_finished_total', { kind: 'qa', status: 'SUCCESS' }),
      aborted: await figure('docintel_jobs_finished_total', { kind: 'qa', status: 'ABORTED' }),
      completed: await figure('docintel_job_unit_duration_seconds_count', { kind: 'qa', outcome: 'completed' }),
      lost: await figure('docintel_job_unit_duration_seconds_count', { kind: 'qa', outcome: 'claim_lost' }),
    };
    const job = await rpc.call(QaJobsCreate, { files: { fileIds: [F1] }, questions: [{ question: 'one' }, { question: 'two' }] }, alice);
    await settle('qa', job.jobId);
    expect(await figure('docintel_jobs_created_total', { kind: 'qa' })).toBe(before.created + 1);
    expect(await figure('docintel_jobs_finished_total', { kind: 'qa', status: 'SUCCESS' })).toBe(before.succeeded + 1);
    expect(await figure('docintel_job_unit_duration_seconds_count', { kind: 'qa', outcome: 'completed' })).toBe(before.completed + 2);
    expect(await figure('docintel_job_units_in_progress', { queue: 'units' })).toBe(0);

    // A cancelled job ends ABORTED once; its running unit ends as no longer this worker's to write.
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let entered!: () => void;
    const started = new Promise<void>((r) => (entered = r));
    reader.script = async () => {
      entered();
      await gate;
      return { found: false, rawValue: '', value: null, confidence: 0, explanation: 'late', citations: [] };
    };
    const slow = await rpc.call(QaJobsCreate, { files: { fileIds: [F1] }, questions: [{ question: 'slow' }] }, alice);
    await started;
    expect(await figure('docintel_job_units_in_progress', { queue: 'units' })).toBe(1);
    await rpc.call(JobsCancel, { kind: 'qa', jobId: slow.jobId }, alice);
    await rpc.call(JobsCancel, { kind: 'qa', jobId: slow.jobId }, alice); // a terminal job is not counted again
    expect(await figure('docintel_jobs_finished_total', { kind: 'qa', status: 'ABORTED' })).toBe(before.aborted + 1);
    release();
    const until = Date.now() + 10_000;
    while ((await figure('docintel_job_unit_duration_seconds_count', { kind: 'qa', outcome: 'claim_lost' })) < before.lost + 1) {
      if (Date.now() > until) throw new Error('the cancelled unit was not counted');
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await figure('docintel_job_units_in_progress', { queue: 'units' })).toBe(0);
    expect(await figure('docintel_jobs_created_total', { kind: 'qa' })).toBe(before.created + 2);
  });
});
