import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { LOGGER, type Logger } from '@docintel/observability';
import { PeriodicTask, SERVICE_ENV } from '@docintel/runtime';
import { JobKindRegistry } from '../jobs/job-kind';
import { JobsRepository } from '../jobs/jobs.repository';
import { UnitQueue } from '../jobs/unit-queue';
import type { JobsEnv } from '../jobs.env';
import { AgentRepository } from '../kinds/agent/agent.repository';
import { UnitWorker } from './unit-worker';

export interface JobSweepResult {
  takenOver: number;
  failed: number;
  republished: number;
  finished: number;
  /** Idempotency-Keys older than JOB_IDEMPOTENCY_TTL_SECONDS forgotten. */
  expiredKeys: number;
}

/**
 * Makes sure no job stays PENDING or RUNNING: every JOB_SWEEP_INTERVAL_SECONDS, units whose worker
 * went silent (it died) are put back on the queue, or failed with the reason after JOB_MAX_DELIVER
 * attempts; units whose message was lost are published again; jobs whose units are all over are
 * ended; expired Idempotency-Keys are forgotten. Every step is a conditional update, so replicas may sweep at the same time.
 */
@Injectable()
export class JobSweeper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly periodic = new PeriodicTask(
    () => this.sweep(),
    (err) => this.logger.warn({ err }, 'job sweep failed'),
  );

  constructor(
    private readonly repo: JobsRepository,
    private readonly agents: AgentRepository,
    private readonly queue: UnitQueue,
    private readonly worker: UnitWorker,
    private readonly kinds: JobKindRegistry,
    @Inject(SERVICE_ENV) private readonly env: JobsEnv,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    if (this.env.JOB_SWEEP_INTERVAL_SECONDS) this.periodic.start(this.env.JOB_SWEEP_INTERVAL_SECONDS * 1000);
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.periodic.stop();
  }

  async sweep(): Promise<JobSweepResult> {
    const result: JobSweepResult = { takenOver: 0, failed: 0, republished: 0, finished: 0, expiredKeys: 0 };
    const stale = this.env.JOB_STALE_SECONDS;
    for (const s of await this.repo.staleUnits(stale)) {
      if (s.attempts >= this.env.JOB_MAX_DELIVER) {
        const job = await this.repo.load(s.jobId);
        const unit = job && (await this.repo.unitsByNumber(s.jobId, [s.unit]))[0];
        if (!job || !unit) continue;
        const reason = `the worker running it stopped responding ${s.attempts} times (last heartbeat over ${stale} s ago)`;
        if (await this.repo.complete(s.jobId, s.unit, null, this.kinds.failedOutcome(job, unit, reason), { staleSeconds: stale })) {
          result.failed++;
          await this.worker.advance(s.jobId);
        }
      } else if (await this.repo.requeueStale(s.jobId, s.unit, stale)) {
        result.takenOver++;
      }
    }
    result.republished = await this.queue.publishReady(null, stale);
    for (const jobId of await this.repo.openJobsWithoutOpenUnits()) {
      if (await this.repo.finishIfDone(jobId)) result.finished++;
    }
    result.expiredKeys = await this.agents.purgeKeys(this.env.JOB_IDEMPOTENCY_TTL_SECONDS);
    if (result.takenOver || result.failed || result.republished || result.finished || result.expiredKeys)
      this.logger.info(result, 'job sweep');
    return result;
  }
}
