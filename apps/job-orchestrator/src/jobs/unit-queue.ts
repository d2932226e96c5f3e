import { Inject, Injectable } from '@nestjs/common';
import { Work } from '@docintel/contracts';
import { JetStream } from '@docintel/messaging';
import { LOGGER, type Logger } from '@docintel/observability';
import { SERVICE_ENV } from '@docintel/runtime';
import type { JobsEnv } from '../jobs.env';
import { queueOf } from './job-kind';
import { JobsRepository } from './jobs.repository';

/**
 * Publishes the units that are ready to run (an agent job's on its own queue), at most
 * JOB_NAMESPACE_ACTIVE_UNITS of a namespace at once, namespaces in turns (JobsRepository.takeReady).
 * A unit is marked published in the same statement that selects it, so two replicas never publish
 * one twice; a failed publish is undone so that the sweeper publishes it again.
 */
@Injectable()
export class UnitQueue {
  constructor(
    private readonly repo: JobsRepository,
    private readonly jetstream: JetStream,
    @Inject(SERVICE_ENV) private readonly env: JobsEnv,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /**
   * Publishes the ready units of the job's namespace (of every namespace without a job) that its
   * allowance lets out; returns how many. Called when a job is created, a unit ends or a job is
   * cancelled: the moments a namespace's allowance frees up. A lost publish is the sweeper's.
   */
  async publishReady(jobId: string | null, republishAfterSeconds?: number): Promise<number> {
    const ready = await this.repo.takeReady(jobId, this.env.JOB_NAMESPACE_ACTIVE_UNITS, republishAfterSeconds);
    let published = 0;
    for (const { jobId: job, unit, kind } of ready) {
      try {
        // A republish gets a new id: the first message may still be inside the de-duplication window.
        const msgId = republishAfterSeconds === undefined ? `${job}.${unit}` : `${job}.${unit}.${Date.now()}`;
        await this.jetstream.publish(queueOf(kind) === 'agent' ? Work.jobsAgent : Work.jobsUnit, { jobId: job, unit }, msgId);
        published++;
      } catch (err) {
        this.logger.warn({ err, jobId: job, unit }, 'could not publish a job unit; the sweeper will publish it again');
        await this.repo.unpublish(job, unit).catch(() => undefined);
      }
    }
    return published;
  }
}
