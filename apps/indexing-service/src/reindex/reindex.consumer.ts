import { Inject, Injectable } from '@nestjs/common';
import { Work, type ReindexWork } from '@docintel/contracts';
import { LOGGER, type Logger } from '@docintel/observability';
import { SERVICE_ENV } from '@docintel/runtime';
import { IndexationRequestPublisher } from '../indexation/indexation-request-publisher';
import { IndexationStateRepository } from '../indexation/indexation-state.repository';
import type { IndexingEnv } from '../indexing.env';
import { NodeStoreRepository } from '../nodes/node-store.repository';
import { DurableWorker, type Delivery, type DurableHandler } from '@docintel/messaging';
import { RunSettlement } from '../pipeline/run-settlement';
import { TreeEvents } from '../pipeline/tree-events';

/**
 * A reindex without reparse: the committed tree stays as it is, and the steps after parsing run on
 * it again (node.batch.created per batch, node.updated for formula candidates, ontologies), without
 * reading the bytes. The file goes RUNNING, and SUCCESS once the steps a job reads are over
 * (indexation/readiness.ts): the last batch of those steps settles it, or this worker does if they
 * were over before it got there.
 */
@DurableWorker({ message: Work.indexingReindex, durable: 'indexing_reindex', concurrency: 2, maxMessages: 4 })
@Injectable()
export class ReindexConsumer implements DurableHandler<ReindexWork> {
  constructor(
    private readonly state: IndexationStateRepository,
    private readonly nodes: NodeStoreRepository,
    private readonly requests: IndexationRequestPublisher,
    private readonly events: TreeEvents,
    private readonly settlement: RunSettlement,
    @Inject(SERVICE_ENV) private readonly env: IndexingEnv,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async handle(work: ReindexWork, delivery: Delivery): Promise<void> {
    const file = await this.state.load(work.fileId);
    if (!file || file.namespaceId !== work.namespaceId || file.requestedTime !== work.requestedTime) return;
    if (file.reparseRequested || file.currentGeneration === null) {
      // Since the request was queued, the file lost its tree or a reparse was asked for: parse it.
      await this.requests.publish(file);
      return;
    }
    const generation = file.currentGeneration;
    const staleBefore = Date.now() - this.env.SWEEP_STALE_RUNNING_SECONDS * 1000;
    const claimed = await this.state.claim(
      work.fileId,
      work.requestedTime,
      staleBefore,
      'RUNNING',
      null,
      this.env.PIPELINE_MAX_INTERRUPTIONS,
    );
    if (!claimed) return;
    try {
      const nodes = (await this.nodes.nodesInTreeOrder(work.fileId, generation)).slice(1); // the root is not announced
      delivery.progress();
      const announcement = this.events.plan(
        {
          namespaceId: work.namespaceId,
          namespaceName: work.namespaceName,
          fileId: work.fileId,
          requestedTime: work.requestedTime,
          generation,
          mimeType: file.mediaType,
          size: file.size,
        },
        nodes,
        'reindexed',
      );
      await this.events.recordPlan(announcement);
      await this.events.publish(announcement);
      await this.state.stepsQueued(work.fileId, work.requestedTime, generation);
      await this.settlement.settle(work.fileId);
    } catch (err) {
      if (delivery.lastDelivery) {
        await this.state
          .end(work.fileId, work.requestedTime, 'FAILED', `Reindexing could not complete: ${(err as Error).message}`)
          .catch(() => undefined);
      } else {
        await this.state.release(work.fileId, work.requestedTime).catch(() => undefined);
      }
      this.logger.warn({ err, fileId: work.fileId, deliveryCount: delivery.deliveryCount }, 'reindex attempt failed');
      throw err;
    }
  }
}
