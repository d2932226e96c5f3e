import { Inject, Injectable } from '@nestjs/common';
import type { NodeBatchCreatedEvent, RpcContext, RuleFilter, StepProgress, TriggerId } from '@docintel/contracts';
import type { Delivery } from '@docintel/messaging';
import { LOGGER, currentRequestId, type Logger } from '@docintel/observability';
import { RulesClient } from '@docintel/rules';
import { IndexationStateRepository } from '../indexation/indexation-state.repository';
import type { IndexedFileEntity } from '../indexation/indexed-file.entity';
import { StepProgressRecorder, type BatchOutcome, type StepRun } from './step-progress';

/** What a step reads of a batch of a committed tree (node.batch.created, node.updated). */
export type TreeBatch = Pick<
  NodeBatchCreatedEvent,
  'namespaceId' | 'namespaceName' | 'fileId' | 'requestedTime' | 'generation' | 'nodeTypes' | 'mimeType' | 'size'
> & { batch?: number };

/** How a step keeps the record of a run's batches (additionalInfos.<step>). */
export interface BatchRecord {
  /** False when the batch belongs to another run, or was counted already: it is passed over. */
  open(): Promise<boolean>;
  over(outcome: BatchOutcome): Promise<unknown>;
  /** An attempt failed and will be retried: the error is shown. */
  attemptFailed(error: string): Promise<unknown>;
}

export interface TreeBatchStep {
  /** The step's name in logs. */
  name: string;
  record: BatchRecord;
  /** Whether this consumer takes the file's batch (its lane), once the file is known to be current. */
  admits?: (file: IndexedFileEntity) => boolean;
  /** The batch's work; undefined when there is nothing to count (the file went, or a newer tree replaced it meanwhile). */
  work: (file: IndexedFileEntity) => Promise<BatchOutcome | undefined>;
}

export const batchRun = (event: TreeBatch): StepRun => ({
  requestedTime: event.requestedTime,
  generation: event.generation,
  batch: event.batch,
});

/**
 * The course every step over the batches of a committed tree takes: the file's state is loaded,
 * and a batch of a deleted file, or of a tree a newer one replaced (its nodes are gone), is passed
 * over, as is one of another run; the work's outcome is counted on the step's record. A failed
 * attempt is recorded (for good on the last delivery, which fails the batch) and thrown, so the
 * message is retried or dead-lettered.
 */
@Injectable()
export class TreeBatchSteps {
  constructor(
    private readonly state: IndexationStateRepository,
    private readonly progress: StepProgressRecorder,
    private readonly rules: RulesClient,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async run(event: TreeBatch, delivery: Delivery, step: TreeBatchStep): Promise<void> {
    const file = await this.state.load(event.fileId);
    if (!file || file.namespaceId !== event.namespaceId || file.currentGeneration !== event.generation) return;
    if (step.admits && !step.admits(file)) return;
    if (!(await step.record.open())) return;

    try {
      const outcome = await step.work(file);
      if (outcome) await step.record.over(outcome);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (delivery.lastDelivery) {
        await step.record.over({ kind: 'failed', error: message }).catch(() => undefined);
      } else {
        await step.record.attemptFailed(message).catch(() => undefined);
      }
      this.logger.warn(
        { err, fileId: event.fileId, batch: event.batch, deliveryCount: delivery.deliveryCount },
        `${step.name} attempt failed`,
      );
      throw err;
    }
  }

  /** The record of a step kept by StepProgressRecorder under `key`, `counter` counting what its batches did. */
  recordOf(event: TreeBatch, key: string, counter: string): BatchRecord & { started(): Promise<void> } {
    const run = batchRun(event);
    return {
      open: async () => !!(await this.progress.current<StepProgress>(event.fileId, key, run)),
      started: () => this.progress.started(event.fileId, key, run),
      over: (outcome) => this.progress.batchOver(event.fileId, key, counter, run, outcome),
      attemptFailed: (error) => this.progress.attemptFailed(event.fileId, key, run, error),
    };
  }

  /**
   * A step the namespace's rule for `trigger` gates, asked afresh for every batch (so a rule change
   * applies to the very next one): skipped when the rule does not apply; otherwise the batch is
   * started and `work` runs on the nodes the rule's filter lets through.
   */
  ruleGated(
    trigger: TriggerId,
    key: string,
    counter: string,
    event: TreeBatch,
    work: (filter: RuleFilter) => Promise<BatchOutcome | undefined>,
  ): Omit<TreeBatchStep, 'admits'> {
    const record = this.recordOf(event, key, counter);
    return {
      name: trigger,
      record,
      work: async () => {
        const ctx: RpcContext = {
          requestId: currentRequestId() ?? event.fileId,
          namespaceId: event.namespaceId,
          namespaceName: event.namespaceName,
        };
        const decision = await this.rules.evaluate(ctx, trigger, {
          mimeType: event.mimeType,
          size: event.size,
          nodeTypes: event.nodeTypes,
        });
        if (!decision.run) {
          return { kind: 'skipped', reason: `the namespace's ${trigger} rule does not apply: ${decision.reason ?? 'no reason given'}` };
        }
        await record.started();
        return work(decision.filter ?? {});
      },
    };
  }
}
