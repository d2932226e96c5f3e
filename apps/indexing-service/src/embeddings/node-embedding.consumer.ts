import { Inject, Injectable } from '@nestjs/common';
import { Hooks, type NodeBatchCreatedEvent, type RuleFilter } from '@docintel/contracts';
import { chunk, type NodeEmbedding } from '@docintel/ai';
import { SERVICE_ENV } from '@docintel/runtime';
import { IndexationStateRepository } from '../indexation/indexation-state.repository';
import type { IndexingEnv } from '../indexing.env';
import { DurableWorker, type Delivery, type DurableHandler, type DurableWorkerOptions } from '@docintel/messaging';
import { laneOf, type Lane } from '../pipeline/lanes';
import type { BatchOutcome } from '../pipeline/step-progress';
import { TreeBatchSteps } from '../pipeline/tree-batch-step';
import { PROGRESS_KEYS } from '../pipeline/tree-events';
import { Embeddings } from './embedder.provider';
import { EmbeddingTexts } from './embedding-texts';
import { NodeVectorsRepository } from './node-vectors.repository';

/** Texts per embed() call: the ack deadline is extended between calls. */
const EMBED_SLICE = 64;
const FOREIGN_KEY_VIOLATION = '23503';
/**
 * Ack deadline of a batch, extended after each embed() call: a call of the built-in model on two
 * busy cores can take longer than the usual minute, and a batch redelivered meanwhile is embedded twice.
 */
const EMBEDDING_ACK_WAIT_MS = 180_000;

/** What both lanes of node_embedding share. */
const NODE_EMBEDDING_WORKER: Omit<DurableWorkerOptions<NodeBatchCreatedEvent, IndexingEnv>, 'durable'> = {
  message: Hooks.nodeBatchCreated,
  concurrency: (env) => env.EMBEDDING_CONCURRENCY,
  ackWaitMs: EMBEDDING_ACK_WAIT_MS,
  maxMessages: 1,
};

/**
 * node_embedding, asynchronous: a durable consumer of node.batch.created shared by every replica.
 * For each batch it asks the namespace's rule (fresh, so a rule change applies to the very next
 * batch), picks the batch's nodes the rule lets through, embeds their text and stores the vectors.
 * Failures are retried with back-off and end on the dead-letter subject. Progress and the last
 * error are kept in additionalInfos.node_embedding; the file is SUCCESS once its last batch is over,
 * embedded, skipped or failed (a failure does not fail the file: see indexation/readiness.ts).
 * Batches of large files have a lane of their own (pipeline/lanes.ts); both lanes share the
 * process's one embedder, whose calls are small (EMBEDDINGS_BATCH_SIZE), so a small file's batch
 * waits for one call of a large file's, not for its batches.
 */
@DurableWorker({ ...NODE_EMBEDDING_WORKER, durable: 'node_embedding' })
@Injectable()
export class NodeEmbeddingConsumer implements DurableHandler<NodeBatchCreatedEvent> {
  /** The files whose batches this consumer takes (pipeline/lanes.ts); it passes over the others'. */
  protected readonly lane: Lane = 'small';

  constructor(
    private readonly steps: TreeBatchSteps,
    private readonly state: IndexationStateRepository,
    private readonly texts: EmbeddingTexts,
    private readonly embeddings: Embeddings,
    private readonly vectors: NodeVectorsRepository,
    @Inject(SERVICE_ENV) private readonly env: IndexingEnv,
  ) {}

  async handle(event: NodeBatchCreatedEvent, delivery: Delivery): Promise<void> {
    if (laneOf(event, this.env) !== this.lane) return;
    await this.steps.run(
      event,
      delivery,
      this.steps.ruleGated('node_embedding', PROGRESS_KEYS.embedding, 'embeddedNodes', event, (filter) =>
        this.embed(event, filter, delivery),
      ),
    );
  }

  /** Embeds the batch's nodes the rule's filter lets through and stores their vectors. */
  private async embed(event: NodeBatchCreatedEvent, filter: RuleFilter, delivery: Delivery): Promise<BatchOutcome | undefined> {
    const selected = await this.texts.select(event.fileId, event.generation, event.nodeIds, filter, this.embeddings.maxChars);
    const rows: NodeEmbedding[] = [];
    for (const slice of chunk(selected, EMBED_SLICE)) {
      const vectors = await this.embeddings.embedder.embed(slice.map((c) => c.text));
      slice.forEach((c, i) => rows.push({ nodeId: c.id, fileId: event.fileId, vector: vectors[i] }));
      delivery.progress();
    }
    try {
      await this.embeddings.store.upsert(event.namespaceId, rows);
    } catch (err) {
      if ((err as { code?: string }).code === FOREIGN_KEY_VIOLATION) return undefined; // the file was deleted meanwhile
      throw err;
    }
    // A reparse committed while we embedded: its clean-up may have run before our write, so undo it here.
    const now = await this.state.load(event.fileId);
    if (!now || now.currentGeneration !== event.generation) {
      await this.vectors.deleteNodes(
        event.fileId,
        rows.map((r) => r.nodeId),
      );
      return undefined;
    }
    return { kind: 'done', count: rows.length, extra: { model: this.embeddings.embedder.model } };
  }
}

/** node_embedding's lane for large files (pipeline/lanes.ts): the same work, on its own durable consumer. */
@DurableWorker({ ...NODE_EMBEDDING_WORKER, durable: 'node_embedding_large', largeFiles: true })
@Injectable()
export class LargeFileNodeEmbeddingConsumer extends NodeEmbeddingConsumer {
  protected override readonly lane: Lane = 'large';
}
