import { Inject, Injectable } from '@nestjs/common';
import { LOGGER, type Logger } from '@docintel/observability';
import { IndexationStateRepository } from '../indexation/indexation-state.repository';
import { readiness } from '../indexation/readiness';

/**
 * Ends a file's run once the steps after parsing are over (indexation/readiness.ts): called by each
 * step when it finishes a batch, by a reindex once its messages are queued, and by the sweeper.
 * Whichever call sees every step over makes the file SUCCESS (or FAILED); the others do nothing.
 */
@Injectable()
export class RunSettlement {
  constructor(
    private readonly state: IndexationStateRepository,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async settle(fileId: string): Promise<'SUCCESS' | 'FAILED' | null> {
    const outcome = await this.state.settle(fileId, readiness);
    if (outcome) this.logger.info({ fileId }, `indexation ${outcome}`);
    return outcome;
  }
}
