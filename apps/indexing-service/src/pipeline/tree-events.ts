import { Inject, Injectable } from '@nestjs/common';
import {
  Hooks,
  MAX_NODES_PER_EVENT,
  Work,
  type FormulaAugmentationProgress,
  type NodeBatchCreatedEvent,
  type NodeEmbeddingProgress,
  type NodeUpdatedEvent,
  type NodeUpdateReason,
  type OntologiesWork,
  type StepProgress,
  type StreamMessage,
} from '@docintel/contracts';
import { JetStream } from '@docintel/messaging';
import { SERVICE_ENV } from '@docintel/runtime';
import { isFormulaCandidate } from './formula-candidates';
import type { IndexingEnv } from '../indexing.env';
import { IndexationStateRepository } from '../indexation/indexation-state.repository';
import { PROGRESS_KEYS } from '../indexation/progress-keys';
import { batches, distinctTypes } from './tree-records';

export { PROGRESS_KEYS } from '../indexation/progress-keys';

/** The run whose tree is announced. */
export interface TreeRun {
  namespaceId: string;
  namespaceName: string;
  fileId: string;
  requestedTime: number;
  generation: number;
  /** The detected media type and the size of the content. */
  mimeType: string | null;
  size: number | null;
}

const PUBLISH_ATTEMPTS = 3;

/** What announcing a tree takes: its batches, its formula candidates, and the steps' fresh records. */
export interface Announcement {
  run: TreeRun;
  reason: Exclude<NodeUpdateReason, 'augmented'>;
  nodeBatches: Array<Array<{ id: string; type: string }>>;
  formulaBatches: Array<Array<{ id: string; type: string }>>;
  /** additionalInfos.node_embedding, .passage_indexing, .formula_augmentation and .ontologies for the run, all pending. */
  records: Record<string, Pick<StepProgress, 'status' | 'requestedTime' | 'generation' | 'updatedTime'>>;
}

/**
 * Announces a tree to the asynchronous steps: one node.batch.created per batch of nodes
 * (node_embedding), node.updated for the formula candidates (formula_augmentation), and a work
 * message for the ontologies. The steps' progress records for the run are part of the plan, so that
 * they are written with the tree's commit (or before a re-run) and additionalInfos never mixes two
 * runs. Every message has a de-duplication id derived from the run, so publishing the same run again
 * stores each message once.
 */
@Injectable()
export class TreeEvents {
  private readonly batchSize: number;

  constructor(
    private readonly jetstream: JetStream,
    private readonly state: IndexationStateRepository,
    @Inject(SERVICE_ENV) env: IndexingEnv,
  ) {
    this.batchSize = Math.min(env.NODE_BATCH_SIZE, MAX_NODES_PER_EVENT);
  }

  /** `nodes`: the tree's nodes below the root, in tree order. */
  plan(
    run: TreeRun,
    nodes: ReadonlyArray<{ id: string; type: string; text: string }>,
    reason: Exclude<NodeUpdateReason, 'augmented'>,
  ): Announcement {
    const nodeBatches = batches(
      nodes.map((n) => ({ id: n.id, type: n.type })),
      this.batchSize,
    );
    const formulaBatches = batches(
      nodes.filter((n) => isFormulaCandidate(n)).map((n) => ({ id: n.id, type: n.type })),
      this.batchSize,
    );
    const formulaCount = formulaBatches.reduce((n, b) => n + b.length, 0);
    const base = {
      requestedTime: run.requestedTime,
      generation: run.generation,
      batchesDone: 0,
      skippedBatches: 0,
      failedBatches: 0,
      lastError: null,
      updatedTime: Date.now(),
    };
    const embedding: NodeEmbeddingProgress = {
      ...base,
      status: nodes.length ? 'PENDING' : 'SKIPPED',
      reason: nodes.length ? null : 'the document has no nodes',
      batches: nodeBatches.length,
      totalNodes: nodes.length,
      embeddedNodes: 0,
      model: null,
    };
    const formulas: FormulaAugmentationProgress = {
      ...base,
      status: formulaCount ? 'PENDING' : 'SKIPPED',
      reason: formulaCount ? null : 'the document has no formulas',
      batches: formulaBatches.length,
      totalNodes: formulaCount,
      augmentedNodes: 0,
    };
    // passage_indexing handles the same batches as node_embedding. Planned here with the others, so
    // that a file waiting for its steps (indexation/readiness.ts) knows it has passages to wait for.
    const passages: StepProgress & { indexedPassages: number } = {
      ...base,
      status: nodes.length ? 'PENDING' : 'SUCCESS',
      reason: nodes.length ? null : 'the document has no nodes',
      batches: nodeBatches.length,
      totalNodes: nodes.length,
      indexedPassages: 0,
    };
    const ontologies = {
      status: 'PENDING',
      requestedTime: run.requestedTime,
      generation: run.generation,
      concepts: 0,
      reason: null,
      lastError: null,
      updatedTime: base.updatedTime,
    } as const;
    return {
      run,
      reason,
      nodeBatches,
      formulaBatches,
      records: {
        [PROGRESS_KEYS.embedding]: embedding,
        [PROGRESS_KEYS.passages]: passages,
        [PROGRESS_KEYS.formulas]: formulas,
        [PROGRESS_KEYS.ontologies]: ontologies,
      },
    };
  }

  /**
   * Writes the plan's progress records (a re-run of a committed tree: no commit to carry them). A
   * retried run keeps the records it already has, with the batches they have counted.
   */
  async recordPlan(a: Announcement): Promise<void> {
    for (const [key, value] of Object.entries(a.records)) {
      await this.state.updateInfo<Pick<StepProgress, 'requestedTime' | 'generation'>>(a.run.fileId, key, (current) =>
        current?.requestedTime === value.requestedTime && current.generation === value.generation ? undefined : value,
      );
    }
  }

  /** Publishes the plan's messages. */
  async publish(a: Announcement): Promise<void> {
    const { run, reason, nodeBatches, formulaBatches } = a;
    await this.state.removeInfo(run.fileId, PROGRESS_KEYS.announce);
    const common = {
      namespaceId: run.namespaceId,
      namespaceName: run.namespaceName,
      fileId: run.fileId,
      requestedTime: run.requestedTime,
      generation: run.generation,
      mimeType: run.mimeType,
      size: run.size,
    };
    const runId = `${run.fileId}:${run.generation}:${run.requestedTime}`;
    for (const [i, batch] of nodeBatches.entries()) {
      const event: NodeBatchCreatedEvent = {
        ...common,
        nodeIds: batch.map((n) => n.id),
        nodeTypes: distinctTypes(batch),
        batch: i,
        batches: nodeBatches.length,
      };
      await this.send(Hooks.nodeBatchCreated, event, `${runId}:batch:${i}`);
    }
    for (const [i, batch] of formulaBatches.entries()) {
      const event: NodeUpdatedEvent = {
        ...common,
        nodeIds: batch.map((n) => n.id),
        nodeTypes: distinctTypes(batch),
        reason,
        batch: i,
        batches: formulaBatches.length,
      };
      await this.send(Hooks.nodeUpdated, event, `${runId}:formulas:${i}`);
    }
    await this.queueOntologies({ ...common }, `${runId}:ontologies`);
  }

  /** Asks for the ontologies of the file's current tree. */
  async queueOntologies(work: OntologiesWork, msgId: string): Promise<void> {
    const { namespaceId, namespaceName, fileId, requestedTime, generation } = work;
    await this.send(Work.indexingOntologies, { namespaceId, namespaceName, fileId, requestedTime, generation }, msgId);
  }

  /** A JetStream publish, tried again on a transient failure; the msgId makes a repeat land once. */
  private async send<T extends object>(message: StreamMessage<T>, payload: T, msgId: string): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.jetstream.publish(message, payload, msgId);
        return;
      } catch (err) {
        if (attempt >= PUBLISH_ATTEMPTS) throw err;
        await new Promise((r) => setTimeout(r, 200 * attempt));
      }
    }
  }
}
