import 'reflect-metadata';
import { AgentJobsCreate, ErrorCode, JobsCancel, QaJobsCreate, type JobDto } from '@docintel/contracts';
import { QaJobs } from '../kinds/qa/qa-jobs';
import { app, rpc, db, env, settle, rejection, namespaceWithFile, heldReader, useJobsOrchestrator } from '../testing/jobs-fixture';

/** What one namespace may hold open, and the fair hand-out of units between namespaces. */

useJobsOrchestrator();

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
