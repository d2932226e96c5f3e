import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { Streams, Work, type JobUnitWork } from '@docintel/contracts';
import { JetStream, type RunningConsumer } from '@docintel/messaging';
import { LOGGER, Metrics, currentRequestId, type JobMetrics, type Logger } from '@docintel/observability';
import { SERVICE_ENV } from '@docintel/runtime';
import { JobKindRegistry, queueOf } from '../jobs/job-kind';
import type { JobRecord, UnitRecord } from '../jobs/job-records';
import { JobsRepository, type UnitOutcome } from '../jobs/jobs.repository';
import { UnitQueue } from '../jobs/unit-queue';
import type { JobQueueName, JobsEnv } from '../jobs.env';
import { isTransient, messageOf } from '../reading/unit-context';

export const JOB_UNITS_DURABLE = 'job_units';
export const AGENT_RUNS_DURABLE = 'agent_runs';

/** Why a unit stopped before it was over: it is no longer this worker's to write. */
class ClaimLost extends Error {}

/** How a claimed unit ended on this worker (docintel_job_unit_duration_seconds' outcome). */
type UnitEnd = 'completed' | 'failed' | 'retried' | 'claim_lost';

/**
 * Runs job units from the work.jobs.unit queue, JOB_CONCURRENCY at once per replica, shared by
 * every replica through one durable consumer, and agent runs from work.jobs.agent, AGENT_CONCURRENCY
 * at once (an agent waits for the question jobs it starts, so it must not hold their slots). A unit is claimed in the database before it runs
 * and written with its claim, so a duplicate or late delivery never doubles or overwrites answers;
 * a heartbeat keeps the claim (and the message's ack deadline) alive; an error that another attempt
 * may not meet (a service away) is retried with back-off up to JOB_MAX_DELIVER deliveries, any
 * other ends the unit FAILED with the reason.
 */
@Injectable()
export class UnitWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly consumers: RunningConsumer[] = [];
  private readonly inFlight = new Set<AbortController>();
  private readonly figures: JobMetrics;

  constructor(
    private readonly jetstream: JetStream,
    private readonly repo: JobsRepository,
    private readonly queue: UnitQueue,
    private readonly kinds: JobKindRegistry,
    @Inject(SERVICE_ENV) private readonly env: JobsEnv,
    @Inject(LOGGER) private readonly logger: Logger,
    metrics: Metrics,
  ) {
    this.figures = metrics.jobs; // registered now, so /metrics shows the job families before the first job
  }

  async onApplicationBootstrap(): Promise<void> {
    for (const stream of [Streams.work, Streams.deadLetters]) await this.jetstream.ensureStream(stream);
    const queues: Array<{ name: JobQueueName; message: typeof Work.jobsUnit; durable: string; concurrency: number }> = [
      { name: 'units', message: Work.jobsUnit, durable: JOB_UNITS_DURABLE, concurrency: this.env.JOB_CONCURRENCY },
      { name: 'agent', message: Work.jobsAgent, durable: AGENT_RUNS_DURABLE, concurrency: this.env.AGENT_CONCURRENCY },
    ];
    for (const queue of queues.filter((q) => this.env.JOB_QUEUES.includes(q.name))) {
      for (let i = 0; i < queue.concurrency; i++) {
        this.consumers.push(
          await this.jetstream.consume({
            message: queue.message,
            durable: queue.durable,
            maxDeliver: this.env.JOB_MAX_DELIVER,
            ackWaitMs: this.env.JOB_STALE_SECONDS * 1000,
            maxMessages: 1,
            handler: (work, meta) => this.handle(work, meta.deliveryCount, meta.progress),
          }),
        );
      }
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    // Units cut short are given back (released) by their handlers and redelivered to another replica.
    for (const ac of this.inFlight) ac.abort(new Error('the service is shutting down'));
    await Promise.all(this.consumers.map((c) => c.stop()));
    this.consumers.length = 0;
  }

  async handle(work: JobUnitWork, deliveryCount: number, progress: () => void): Promise<void> {
    const claimed = await this.repo.claim(work.jobId, work.unit, this.env.JOB_STALE_SECONDS);
    if (!claimed) return; // over, cancelled, or alive on another worker
    const queue = queueOf(claimed.job.kind);
    const started = process.hrtime.bigint();
    this.figures.unitsInProgress.inc({ queue });
    let end: UnitEnd = 'retried'; // what a throw means: the message is redelivered
    try {
      end = await this.runClaimed(claimed, deliveryCount, progress);
    } finally {
      this.figures.unitsInProgress.dec({ queue });
      this.figures.unitDuration.observe({ kind: claimed.job.kind, outcome: end }, Number(process.hrtime.bigint() - started) / 1e9);
    }
    if (end === 'completed' || end === 'failed') await this.advance(claimed.job.id);
  }

  /** Runs a claimed unit and writes its outcome (claim_lost when it was no longer ours to write); throws to have the message redelivered. */
  private async runClaimed(
    { claim, unit, job }: { claim: string; unit: UnitRecord; job: JobRecord },
    deliveryCount: number,
    progress: () => void,
  ): Promise<UnitEnd> {
    const lastDelivery = deliveryCount >= this.env.JOB_MAX_DELIVER;
    const ac = new AbortController();
    this.inFlight.add(ac);
    const [limitMs, limitName] =
      queueOf(job.kind) === 'agent'
        ? [this.env.AGENT_RUN_TIMEOUT_MS, 'AGENT_RUN_TIMEOUT_MS']
        : [this.env.JOB_UNIT_TIMEOUT_MS, 'JOB_UNIT_TIMEOUT_MS'];
    const timeout = setTimeout(() => ac.abort(new Error(`it took longer than ${limitMs} ms (${limitName})`)), limitMs);
    const heartbeat = setInterval(() => {
      progress();
      this.repo
        .heartbeat(job.id, unit.unit, claim)
        .then((mine) => mine || ac.abort(new ClaimLost('the job was cancelled or the unit taken over')))
        .catch((err: unknown) => this.logger.warn({ err, jobId: job.id, unit: unit.unit }, 'job unit heartbeat failed'));
    }, this.env.JOB_HEARTBEAT_SECONDS * 1000);
    let outcome: UnitOutcome;
    try {
      outcome = await this.runUntilAborted(job, unit, ac.signal);
    } catch (err) {
      const reason = ac.signal.aborted ? (ac.signal.reason as Error) : err;
      if (reason instanceof ClaimLost) return 'claim_lost';
      const shuttingDown = ac.signal.aborted && messageOf(reason).includes('shutting down');
      if ((isTransient(reason) || shuttingDown) && !lastDelivery) {
        await this.repo.release(job.id, unit.unit, claim, messageOf(reason)).catch(() => undefined);
        throw reason; // redelivered with back-off
      }
      this.logger.warn({ err: reason, jobId: job.id, unit: unit.unit, deliveryCount }, 'job unit failed');
      outcome = this.kinds.failedOutcome(job, unit, describe(reason, deliveryCount));
    } finally {
      clearTimeout(timeout);
      clearInterval(heartbeat);
      this.inFlight.delete(ac);
    }
    if (!(await this.repo.complete(job.id, unit.unit, claim, outcome))) return 'claim_lost';
    return outcome.status === 'DONE' ? 'completed' : 'failed';
  }

  /** After a unit: publish the units that waited for it, end the job when it was the last. */
  async advance(jobId: string): Promise<void> {
    await this.queue.publishReady(jobId);
    const finished = await this.repo.finishIfDone(jobId);
    if (finished) this.logger.info({ jobId, status: finished.status }, 'job finished');
  }

  private runUntilAborted(job: JobRecord, unit: UnitRecord, signal: AbortSignal): Promise<UnitOutcome> {
    const requestId = currentRequestId() ?? job.id;
    const run = this.kinds.runnerOf(job.kind).run(job, unit, requestId, signal);
    // A reader that does not watch the signal still cannot hold the unit past its deadline.
    const aborted = new Promise<never>((_, reject) => {
      if (signal.aborted) reject(signal.reason as Error);
      signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
    });
    run.catch(() => undefined);
    return Promise.race([run, aborted]);
  }
}

function describe(err: unknown, deliveryCount: number): string {
  const message = messageOf(err);
  return isTransient(err) ? `${message} (gave up after ${deliveryCount} attempts)` : message;
}
