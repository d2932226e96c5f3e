import { Injectable } from '@nestjs/common';
import type { StepProgress } from '@docintel/contracts';
import { IndexationStateRepository } from '../indexation/indexation-state.repository';
import { PROGRESS_KEYS } from '../indexation/progress-keys';
import { RunSettlement } from '../pipeline/run-settlement';
import { countOnce, settledStatus, type BatchOutcome, type StepRun } from '../pipeline/step-progress';

/** additionalInfos.passage_indexing */
export const PASSAGE_INDEXING_KEY = PROGRESS_KEYS.passages;

export interface PassageIndexingProgress extends StepProgress {
  /** Passages written to the search index (leaves with text, and table rows). */
  indexedPassages: number;
  /** Opened by the step rather than planned with the tree: `totalNodes` counts the batches handled. */
  unplanned?: boolean;
}

const SETTLED: ReadonlyArray<string> = ['SUCCESS', 'FAILED', 'SKIPPED'];

const runOrder = (r: { generation: number; requestedTime: number }) => [r.generation, r.requestedTime] as const;
/** -1, 0 or 1 as run a is older than, the same as or newer than run b. */
function compareRuns(a: StepRun, b: StepRun): number {
  const [ga, ta] = runOrder(a);
  const [gb, tb] = runOrder(b);
  return ga !== gb ? Math.sign(ga - gb) : Math.sign(ta - tb);
}

/**
 * additionalInfos.passage_indexing, kept like the other steps' records (StepProgressRecorder). The
 * announcement of a tree plans it (PENDING, with the run's batches and nodes); the first batch the
 * step handles makes it RUNNING. A run announced without a plan (the record of an older run, or
 * none) gets one opened by its first batch, whose `totalNodes` then grows with the batches.
 */
@Injectable()
export class PassageIndexingProgressRecorder {
  constructor(
    private readonly state: IndexationStateRepository,
    private readonly settlement: RunSettlement,
  ) {}

  /**
   * Opens (or finds) the run's record; false when the file's record belongs to a newer run (this
   * batch is stale) or when the run's record is settled: every batch was counted, so this one is a
   * repeat (a consumer reading the stream from its start, as a new lane's does once).
   */
  async open(fileId: string, run: StepRun, batches: number): Promise<boolean> {
    let stale = false;
    await this.state.updateInfo<PassageIndexingProgress>(fileId, PASSAGE_INDEXING_KEY, (p) => {
      const order = p ? compareRuns(p, run) : -1;
      if (order > 0 || (order === 0 && p && SETTLED.includes(p.status))) stale = true;
      if (order === 0) return p?.status === 'PENDING' ? { ...p, status: 'RUNNING', updatedTime: Date.now() } : undefined;
      if (order > 0) return undefined;
      return {
        status: 'RUNNING',
        requestedTime: run.requestedTime,
        generation: run.generation,
        batches,
        batchesDone: 0,
        skippedBatches: 0,
        failedBatches: 0,
        totalNodes: 0,
        indexedPassages: 0,
        unplanned: true,
        reason: null,
        lastError: null,
        updatedTime: Date.now(),
      };
    });
    return !stale;
  }

  async attemptFailed(fileId: string, run: StepRun, error: string): Promise<void> {
    await this.state.updateInfo<PassageIndexingProgress>(fileId, PASSAGE_INDEXING_KEY, (p) =>
      p && compareRuns(p, run) === 0 ? { ...p, lastError: error, updatedTime: Date.now() } : undefined,
    );
  }

  /** A batch of `nodes` nodes is over; the last one may make the file SUCCESS (indexation/readiness.ts). */
  async batchOver(fileId: string, run: StepRun, nodes: number, outcome: BatchOutcome): Promise<void> {
    await this.count(fileId, run, nodes, outcome);
    await this.settlement.settle(fileId);
  }

  private async count(fileId: string, run: StepRun, nodes: number, outcome: BatchOutcome): Promise<void> {
    await this.state.updateInfo<PassageIndexingProgress>(fileId, PASSAGE_INDEXING_KEY, (p) => {
      if (!p || compareRuns(p, run) !== 0) return undefined;
      const once = countOnce(p, run);
      if (!once) return undefined;
      const next: PassageIndexingProgress = {
        ...once,
        batchesDone: Math.min(p.batches, p.batchesDone + 1),
        totalNodes: p.unplanned ? p.totalNodes + nodes : p.totalNodes,
        updatedTime: Date.now(),
      };
      switch (outcome.kind) {
        case 'done':
          next.indexedPassages += outcome.count;
          break;
        case 'skipped':
          next.skippedBatches += 1;
          next.reason = outcome.reason;
          break;
        case 'failed':
          next.failedBatches += 1;
          next.lastError = outcome.error;
          break;
      }
      next.status = settledStatus(next, next.indexedPassages);
      // A document whose nodes hold no passage (only containers, or no text) is done, not skipped.
      if (next.status === 'SKIPPED') next.status = 'SUCCESS';
      return next;
    });
  }
}
