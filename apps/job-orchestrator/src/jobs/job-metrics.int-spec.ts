import 'reflect-metadata';
import { JobsCancel, QaJobsCreate } from '@docintel/contracts';
import { Metrics } from '@docintel/observability';
import { F1, app, rpc, alice, settle, heldReader, useJobsOrchestrator } from '../testing/jobs-fixture';

/** The job figures the orchestrator exposes on /metrics. */

useJobsOrchestrator();

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
    const { started, release } = heldReader({ found: false, rawValue: '', value: null, confidence: 0, explanation: 'late', citations: [] });
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
