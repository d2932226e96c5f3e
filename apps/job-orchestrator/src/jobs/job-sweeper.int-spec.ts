import 'reflect-metadata';
import { JobsGet, QaJobsCreate } from '@docintel/contracts';
import { JobSweeper } from '../execution/sweeper';
import { F1, app, rpc, db, alice, settle, useJobsOrchestrator } from '../testing/jobs-fixture';

/** The sweeper: units whose worker died or whose message was lost, and jobs never ended. */

useJobsOrchestrator();

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
