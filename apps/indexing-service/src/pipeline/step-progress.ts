import { Injectable } from '@nestjs/common';
import type { StepProgress } from '@docintel/contracts';
import { IndexationStateRepository } from '../indexation/indexation-state.repository';
import { RunSettlement } from './run-settlement';

/** The run a batch belongs to. */
export interface StepRun {
  requestedTime: number;
  generation: number;
  /** The batch's position in the run, when the message carries one. */
  batch?: number;
}

export type BatchOutcome =
  | { kind: 'done'; count: number; extra?: Record<string, unknown> }
  | { kind: 'skipped'; reason: string }
  | { kind: 'failed'; error: string };

const sameRun = (p: StepProgress | undefined, run: StepRun): p is StepProgress =>
  !!p && p.requestedTime === run.requestedTime && p.generation === run.generation;

/**
 * The record with the run's batch marked counted, or undefined when it was counted already: the
 * same message can be delivered again after its work was done (a restart before the ack, or an
 * ack deadline that passed), and counting it twice would settle the step before its last batch.
 */
export function countOnce<P extends StepProgress>(p: P, run: StepRun): P | undefined {
  if (run.batch === undefined) return { ...p };
  const counted = p.countedBatches ?? [];
  if (counted.includes(run.batch)) return undefined;
  return { ...p, countedBatches: [...counted, run.batch] };
}

/** The step's status once `p` counts its batches: still RUNNING until every batch is accounted for. */
export function settledStatus(p: StepProgress, counted: number): StepProgress['status'] {
  if (p.batchesDone < p.batches) return 'RUNNING';
  if (p.failedBatches > 0) return 'FAILED';
  if (counted === 0 && p.skippedBatches === p.batches) return 'SKIPPED';
  return 'SUCCESS';
}

/**
 * Keeps additionalInfos.<step> of a file in step with its batches, on any replica: each change is
 * a read-modify-write under the file's row lock. Batches of another run (an older parse or
 * reindex) leave the record alone.
 */
@Injectable()
export class StepProgressRecorder {
  constructor(
    private readonly state: IndexationStateRepository,
    private readonly settlement: RunSettlement,
  ) {}

  /** The record of the run, or undefined when the batch belongs to another run. */
  async current<P extends StepProgress>(fileId: string, key: string, run: StepRun): Promise<P | undefined> {
    const file = await this.state.load(fileId);
    const p = file?.additionalInfo[key] as P | undefined;
    return sameRun(p, run) ? p : undefined;
  }

  /** A batch is being worked on. */
  async started(fileId: string, key: string, run: StepRun): Promise<void> {
    await this.state.updateInfo<StepProgress>(fileId, key, (p) =>
      sameRun(p, run) && p.status === 'PENDING' ? { ...p, status: 'RUNNING', updatedTime: Date.now() } : undefined,
    );
  }

  /** An attempt failed and will be retried: the error is shown, the status stays as it is. */
  async attemptFailed(fileId: string, key: string, run: StepRun, error: string): Promise<void> {
    await this.state.updateInfo<StepProgress>(fileId, key, (p) =>
      sameRun(p, run) ? { ...p, lastError: error, updatedTime: Date.now() } : undefined,
    );
  }

  /**
   * A batch is over: `counter` (embeddedNodes, augmentedNodes) counted up, skipped by the rule, or
   * failed for good. The last batch of the steps a file waits for makes it SUCCESS (or FAILED):
   * see indexation/readiness.ts.
   */
  async batchOver(fileId: string, key: string, counter: string, run: StepRun, outcome: BatchOutcome): Promise<StepProgress | undefined> {
    const next = await this.count(fileId, key, counter, run, outcome);
    await this.settlement.settle(fileId);
    return next;
  }

  private count(fileId: string, key: string, counter: string, run: StepRun, outcome: BatchOutcome): Promise<StepProgress | undefined> {
    return this.state.updateInfo<StepProgress & Record<string, unknown>>(fileId, key, (p) => {
      if (!sameRun(p, run)) return undefined;
      const once = countOnce(p, run);
      if (!once) return undefined;
      const next: StepProgress & Record<string, unknown> = {
        ...once,
        batchesDone: Math.min(p.batches, p.batchesDone + 1),
        updatedTime: Date.now(),
      };
      switch (outcome.kind) {
        case 'done':
          next[counter] = ((p[counter] as number | undefined) ?? 0) + outcome.count;
          Object.assign(next, outcome.extra ?? {});
          break;
        case 'skipped':
          next.skippedBatches = p.skippedBatches + 1;
          next.reason = outcome.reason;
          break;
        case 'failed':
          next.failedBatches = p.failedBatches + 1;
          next.lastError = outcome.error;
          break;
      }
      next.status = settledStatus(next, (next[counter] as number | undefined) ?? 0);
      return next;
    });
  }
}
