import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { HookPoints, NodeUpdatedEvent, Streams, type FormulaAugmentationProgress, type RpcContext } from '@docintel/contracts';
import { JetStream } from '@docintel/messaging';
import { LOGGER, currentRequestId, type Logger } from '@docintel/observability';
import { nodeMatches, RulesClient } from '@docintel/rules';
import { SERVICE_ENV } from '@docintel/runtime';
import type { IndexingEnv } from '../indexing.env';
import { NodeStoreRepository } from '../nodes/node-store.repository';
import { DurableWorkers, type Delivery } from '../pipeline/durable-workers';
import { PipelineStateRepository } from '../pipeline/pipeline-state.repository';
import { StepProgressRecorder, type StepRun } from '../pipeline/step-progress';
import { PROGRESS_KEYS } from '../pipeline/tree-events';
import { augment } from './formula-augmentation';
import { isFormulaCandidate } from './formula-candidates';

/**
 * formula_augmentation, asynchronous: a durable consumer of node.updated shared by every replica.
 * For the formula candidates of a batch (formula nodes, and nodes whose text holds LaTeX) that the
 * namespace's rule lets through, it adds a normalised LaTeX form and a plain-text reading to the
 * node's attributes, and announces the change with node.updated (reason `augmented`, which it
 * ignores itself). Failures are retried and dead-lettered; they never touch the file's status.
 * Progress and the last error are kept in additionalInfos.formula_augmentation.
 */
@Injectable()
export class FormulaAugmentationConsumer implements OnApplicationBootstrap {
  constructor(
    private readonly workers: DurableWorkers,
    private readonly state: PipelineStateRepository,
    private readonly progress: StepProgressRecorder,
    private readonly nodes: NodeStoreRepository,
    private readonly rules: RulesClient,
    private readonly jetstream: JetStream,
    private readonly ds: DataSource,
    @Inject(SERVICE_ENV) private readonly env: IndexingEnv,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.workers.start({
      durable: 'formula_augmentation',
      stream: Streams.hooks,
      subject: HookPoints.nodeUpdated,
      payload: NodeUpdatedEvent,
      concurrency: 1,
      maxDeliver: this.env.PIPELINE_MAX_DELIVER,
      ackWaitMs: 60_000,
      maxMessages: 4,
      handle: (event, delivery) => this.handle(event, delivery),
    });
  }

  async handle(event: NodeUpdatedEvent, delivery: Delivery): Promise<void> {
    if (event.reason === 'augmented') return; // our own announcement
    const run: StepRun = { requestedTime: event.requestedTime, generation: event.generation };
    const file = await this.state.load(event.fileId);
    if (!file || file.namespaceId !== event.namespaceId || file.currentGeneration !== event.generation) return;
    if (!(await this.progress.current<FormulaAugmentationProgress>(event.fileId, PROGRESS_KEYS.formulas, run))) return;

    try {
      const ctx: RpcContext = {
        requestId: currentRequestId() ?? event.fileId,
        namespaceId: event.namespaceId,
        namespaceName: event.namespaceName,
      };
      const decision = await this.rules.evaluate(ctx, 'formula_augmentation', {
        mimeType: event.mimeType,
        size: event.size,
        nodeTypes: event.nodeTypes,
      });
      if (!decision.run) {
        await this.progress.batchOver(event.fileId, PROGRESS_KEYS.formulas, 'augmentedNodes', run, {
          kind: 'skipped',
          reason: `the namespace's formula_augmentation rule does not apply: ${decision.reason ?? 'no reason given'}`,
        });
        return;
      }
      await this.progress.started(event.fileId, PROGRESS_KEYS.formulas, run);
      const filter = decision.filter ?? {};
      const rows: Array<{ id: string; type: string; text: string; metadata: Record<string, unknown> }> = await this.ds.query(
        `SELECT id, type, text, metadata FROM nodes WHERE file_id = $1 AND generation = $2 AND id = ANY($3::uuid[])`,
        [event.fileId, event.generation, event.nodeIds],
      );
      const updates: Array<{ id: string; attributes: Record<string, unknown> }> = [];
      let unreadable = 0;
      for (const row of rows) {
        if (!isFormulaCandidate(row) || !nodeMatches(filter, row)) continue;
        const attributes = augment({ type: row.type, text: row.text, attributes: row.metadata });
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
          HookPoints.nodeUpdated,
          announcement,
          `${event.fileId}:${event.generation}:${event.requestedTime}:augmented:${event.batch ?? 0}`,
        );
      }
      await this.progress.batchOver(event.fileId, PROGRESS_KEYS.formulas, 'augmentedNodes', run, {
        kind: 'done',
        count: changed.length - unreadable,
        ...(unreadable ? { extra: { lastError: `${unreadable} formula(s) could not be read; see formulaError on those nodes` } } : {}),
      });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (delivery.lastDelivery) {
        await this.progress
          .batchOver(event.fileId, PROGRESS_KEYS.formulas, 'augmentedNodes', run, { kind: 'failed', error: message })
          .catch(() => undefined);
      } else {
        await this.progress.attemptFailed(event.fileId, PROGRESS_KEYS.formulas, run, message).catch(() => undefined);
      }
      this.logger.warn({ err, fileId: event.fileId, deliveryCount: delivery.deliveryCount }, 'formula_augmentation attempt failed');
      throw err;
    }
  }
}
