import { Inject, Injectable } from '@nestjs/common';
import { Work } from '@docintel/contracts';
import { JetStream } from '@docintel/messaging';
import { LOGGER, type Logger } from '@docintel/observability';
import { JobsRepository } from './jobs.repository';

/**
 * Publishes the units of a job that are ready to run (an agent job's on its own queue). A unit is marked published in the same
 * statement that selects it, so two replicas never publish one twice; a failed publish is undone
 * so that the sweeper publishes it again.
 */
@Injectable()
export class UnitQueue {
  constructor(
    private readonly repo: JobsRepository,
    private readonly jetstream: JetStream,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Publishes the job's ready units; returns how many. Never throws: a lost publish is the sweeper's. */
  async publishReady(jobId: string | null, republishAfterSeconds?: number): Promise<number> {
    const ready = await this.repo.takeReady(jobId, republishAfterSeconds);
    let published = 0;
    for (const { jobId: job, unit, kind } of ready) {
      try {
        // A republish gets a new id: the first message may still be inside the de-duplication window.
        const msgId = republishAfterSeconds === undefined ? `${job}.${unit}` : `${job}.${unit}.${Date.now()}`;
        await this.jetstream.publish(kind === 'agent' ? Work.jobsAgent : Work.jobsUnit, { jobId: job, unit }, msgId);
        published++;
      } catch (err) {
        this.logger.warn({ err, jobId: job, unit }, 'could not publish a job unit; the sweeper will publish it again');
        await this.repo.unpublish(job, unit).catch(() => undefined);
      }
    }
    return published;
  }
}
