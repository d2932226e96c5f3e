import 'reflect-metadata';
import { AgentJobsCreate, ErrorCode, ExtractionJobsCreate, QaJobsCreate, MultiDimExtractionJobsCreate } from '@docintel/contracts';
import { JobSweeper } from '../execution/sweeper';
import { F1, F2, app, rpc, db, alice, bob, settle, namespaceWithFile, useJobsOrchestrator } from '../testing/jobs-fixture';

/** Idempotency-Keys on job creates: the same job for the same key and body, per caller, and their expiry. */

useJobsOrchestrator();

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
