import type { Schemas } from '@docintel/api-client';
import { TestStack } from '@docintel/testing';
import { errorBody, json } from './support/http';
import { Indexer } from './support/indexing';

type Job = Schemas['JobDto'];

/**
 * Job creates as a client retrying over an unreliable network, and a namespace that floods, see
 * them through the HTTP API. No replica takes job units here (JOB_QUEUES=agent), so every job
 * created stays queued and the namespace's limit is reached deterministically.
 */
describe('job creates: Idempotency-Key and per-namespace limits', () => {
  let stack: TestStack;
  let alice: Indexer;
  let fileId: string;

  beforeAll(async () => {
    stack = await TestStack.start({
      label: 'jobs-limits',
      env: { JOB_QUEUES: 'agent', JOB_NAMESPACE_MAX_OPEN_JOBS: '2', JOB_LIMIT_RETRY_AFTER_SECONDS: '7' },
    });
    alice = await Indexer.forNamespace(stack, 'limits', 'alice@limits.test');
    const file = await alice.index('notes.txt', { bytes: 'The total fee is EUR 12,500.00 per year.\n' });
    expect((await alice.settled(file.id.id)).lastIndexationInfos.status).toBe('SUCCESS');
    fileId = file.id.id;
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
  });

  const qa = (question: string) => ({ files: { fileIds: [fileId] }, questions: [{ id: 'q', question }] });

  it('answers a retried create with the job the first request created, and refuses the key with another body or malformed', async () => {
    const first = await json<Job>(
      await alice.call('POST', '/api/core/qa/jobs', qa('What is the total fee?'), { 'idempotency-key': 'fee-1' }),
    );
    const retried = await json<Job>(
      await alice.call('POST', '/api/core/qa/jobs', qa('What is the total fee?'), { 'idempotency-key': 'fee-1' }),
    );
    expect(retried).toMatchObject({ jobId: first.jobId, status: 'PENDING', taskType: 'QA' });

    const other = await errorBody(
      await alice.call('POST', '/api/core/qa/jobs', qa('Who signed?'), { 'idempotency-key': 'fee-1' }),
      409,
      'CONFLICT',
    );
    expect(other.details).toEqual([{ field: 'Idempotency-Key', problem: expect.stringContaining(first.jobId) }]);
    const malformed = await errorBody(
      await alice.call('POST', '/api/core/qa/jobs', qa('x'), { 'idempotency-key': 'two words' }),
      400,
      'VALIDATION_FAILED',
    );
    expect(malformed.details).toEqual([{ field: 'Idempotency-Key', problem: expect.stringContaining('visible ASCII') }]);
    // An extraction job takes the header too.
    const extraction = { files: { fileIds: [fileId] }, metas: [{ meta: 'total fee' }] };
    const ex = await json<Job>(await alice.call('POST', '/api/core/extraction/jobs', extraction, { 'idempotency-key': 'ex-1' }));
    expect((await json<Job>(await alice.call('POST', '/api/core/extraction/jobs', extraction, { 'idempotency-key': 'ex-1' }))).jobId).toBe(
      ex.jobId,
    );
  });

  it('refuses a create beyond the queued jobs a namespace may have with 429, Retry-After and the limit named', async () => {
    // The namespace has its two jobs open (the QA and extraction jobs above): the next create is refused.
    const res = await alice.call('POST', '/api/core/qa/jobs', qa('How much is the fee?'));
    expect(res.headers.get('retry-after')).toBe('7');
    const body = await errorBody(res, 429, 'TOO_MANY_REQUESTS');
    expect(body.details).toEqual([{ field: 'JOB_NAMESPACE_MAX_OPEN_JOBS', problem: expect.stringContaining('2 jobs queued or running') }]);
    // A retry of an accepted create still gets its job.
    expect(
      await json<Job>(await alice.call('POST', '/api/core/qa/jobs', qa('What is the total fee?'), { 'idempotency-key': 'fee-1' })),
    ).toMatchObject({
      status: 'PENDING',
    });

    // Once a job ends there is room again.
    const open = await json<{ data: Job[] }>(await alice.call('GET', '/api/core/qa/jobs?page=0&pageSize=10'));
    await json<Job>(await alice.call('POST', `/api/core/qa/jobs/${open.data[0].jobId}/cancel`));
    expect((await json<Job>(await alice.call('POST', '/api/core/qa/jobs', qa('How much is the fee?')))).status).toBe('PENDING');
  });
});
