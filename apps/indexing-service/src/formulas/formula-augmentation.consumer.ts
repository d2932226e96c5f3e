import { Inject, Injectable } from '@nestjs/common';
import { Hooks, type NodeUpdatedEvent, type RuleFilter } from '@docintel/contracts';
import { DurableWorker, JetStream, type Delivery, type DurableHandler } from '@docintel/messaging';
import { nodeMatches } from '@docintel/rules';
import { SERVICE_ENV } from '@docintel/runtime';
import type { IndexingEnv } from '../indexing.env';
import { NodeStoreRepository } from '../nodes/node-store.repository';
import { fileLane, type Lane } from '../pipeline/lanes';
import type { BatchOutcome } from '../pipeline/step-progress';
import { TreeBatchSteps } from '../pipeline/tree-batch-step';
import { PROGRESS_KEYS } from '../pipeline/tree-events';
import { augment } from './formula-augmentation';
import { isFormulaCandidate } from '../pipeline/formula-candidates';

/**
 * formula_augmentation, asynchronous: a durable consumer of node.updated shared by every replica.
 * For the formula candidates of a batch (formula nodes, and nodes whose text holds LaTeX) that the
 * namespace's rule lets through, it adds a normalised LaTeX form and a plain-text reading to the
 * node's attributes, and announces the change with node.updated (reason `augmented`, which it
 * ignores itself). Failures are retried and dead-lettered; they never touch the file's status.
 * Progress and the last error are kept in additionalInfos.formula_augmentation. A large file's
 * batches have a lane of their own (pipeline/lanes.ts), chosen by the file's node batches.
 */
@DurableWorker({ message: Hooks.nodeUpdated, durable: 'formula_augmentation', concurrency: 1, maxMessages: 4 })
@Injectable()
export class FormulaAugmentationConsumer implements DurableHandler<NodeUpdatedEvent> {
  /** The files whose batches this consumer takes (pipeline/lanes.ts); it passes over the others'. */
  protected readonly lane: Lane = 'small';

  constructor(
    private readonly steps: TreeBatchSteps,
    private readonly nodes: NodeStoreRepository,
    private readonly jetstream: JetStream,
    @Inject(SERVICE_ENV) private readonly env: IndexingEnv,
  ) {}

  async handle(event: NodeUpdatedEvent, delivery: Delivery): Promise<void> {
    if (event.reason === 'augmented') return; // our own announcement
    await this.steps.run(event, delivery, {
      ...this.steps.ruleGated('formula_augmentation', PROGRESS_KEYS.formulas, 'augmentedNodes', event, (filter) =>
        this.augmentBatch(event, filter, delivery),
      ),
      admits: (file) => fileLane(file.additionalInfo, this.env) === this.lane,
    });
  }

  /** Augments the batch's formula candidates the rule's filter lets through and announces the nodes it changed. */
  private async augmentBatch(event: NodeUpdatedEvent, filter: RuleFilter, delivery: Delivery): Promise<BatchOutcome> {
    const rows = await this.nodes.readNodes(event.fileId, event.generation, event.nodeIds);
    const updates: Array<{ id: string; attributes: Record<string, unknown> }> = [];
    let unreadable = 0;
    for (const row of rows) {
      if (!isFormulaCandidate(row) || !nodeMatches(filter, row)) continue;
      const attributes = augment(row);
      if (!attributes) continue;
      if (attributes.formulaError) unreadable++;
      updates.push({ id: row.id, attributes: { ...attributes } });
    }
    delivery.progress();
    const changed = await this.nodes.mergeAttributes(event.fileId, event.generation, updates);
    if (changed.length) {
      const announcement: NodeUpdatedEvent = {
        namespaceId: event.namespaceId,
        namespaceName: event.namespaceName,
        fileId: event.fileId,
        requestedTime: event.requestedTime,
        generation: event.generation,
        nodeIds: changed,
        nodeTypes: [...new Set(rows.filter((r) => changed.includes(r.id)).map((r) => r.type))],
        mimeType: event.mimeType,
        size: event.size,
        reason: 'augmented',
      };
      await this.jetstream.publish(
        Hooks.nodeUpdated,
        announcement,
        `${event.fileId}:${event.generation}:${event.requestedTime}:augmented:${event.batch ?? 0}`,
      );
    }
    return {
      kind: 'done',
      count: changed.length - unreadable,
      ...(unreadable ? { extra: { lastError: `${unreadable} formula(s) could not be read; see formulaError on those nodes` } } : {}),
    };
  }
}

/** formula_augmentation's lane for large files (pipeline/lanes.ts): the same work, on its own durable consumer. */
@DurableWorker({ message: Hooks.nodeUpdated, durable: 'formula_augmentation_large', concurrency: 1, maxMessages: 1, largeFiles: true })
@Injectable()
export class LargeFileFormulaAugmentationConsumer extends FormulaAugmentationConsumer {
  protected override readonly lane: Lane = 'large';
}
