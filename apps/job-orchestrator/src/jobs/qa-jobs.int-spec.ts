import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { LlmEnv, createLlmReader, type Reader } from '@docintel/answering';
import { loadConfig } from '@docintel/config';
import {
  DomainError,
  ErrorCode,
  JobsAnnotations,
  JobsCancel,
  JobsGet,
  JobsInputs,
  JobsList,
  JobsResults,
  QaJobsCreate,
  type AnnotationDto,
  type QaResultDto,
} from '@docintel/contracts';
import { openAiReply, startOpenAiServer, type TestOpenAiServer } from '@docintel/testing';
import {
  ALICE,
  NS,
  F1,
  F2,
  UNINDEXED,
  COLLECTION,
  rowPassage,
  linePassage,
  fake,
  rpc,
  reader,
  alice,
  bob,
  aliceElsewhere,
  settle,
  rejection,
  heldReader,
  useJobsOrchestrator,
} from '../testing/jobs-fixture';

/** QA jobs: answering, chaining and citing, refusals, ownership, failures and retries, cancelling, progress; and with the LLM engine. */

useJobsOrchestrator();

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
    const { started, release } = heldReader({
      found: true,
      rawValue: 'late',
      value: { strValue: 'late' },
      confidence: 1,
      explanation: 'late',
      citations: [{ passageId: rowPassage.id, start: 0, end: 7 }],
    });
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
