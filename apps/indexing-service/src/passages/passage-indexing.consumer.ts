import { Inject, Injectable } from '@nestjs/common';
import { Hooks, type NodeBatchCreatedEvent } from '@docintel/contracts';
import type { PassageRetriever } from '@docintel/retrieval';
import { SERVICE_ENV } from '@docintel/runtime';
import { IndexationStateRepository } from '../indexation/indexation-state.repository';
import type { IndexingEnv } from '../indexing.env';
import { DurableWorker, type Delivery, type DurableHandler } from '@docintel/messaging';
import { laneOf, type Lane } from '../pipeline/lanes';
import type { BatchOutcome } from '../pipeline/step-progress';
import { batchRun, TreeBatchSteps } from '../pipeline/tree-batch-step';
import { buildPassages, headingsAbove, tableHeaderRows, withTableHeaders } from './passage-builder';
import { PassageIndexingProgressRecorder } from './passage-indexing-progress';
import { PASSAGE_RETRIEVER } from './passage-retriever.provider';
import { PassagesRepository } from './passages.repository';

/**
 * passage_indexing, asynchronous: a durable consumer of node.batch.created shared by every replica.
 * For each batch of a committed tree it builds the batch's passages (leaves with text, and table
 * rows; see passage-builder.ts), stores them (passages table: text, headings, segments with
 * positions) and adds them to the lexical index (PassageRetriever.add). No rule gates it: QA and
 * extraction jobs need every indexed file searchable.
 *
 * Passages of a tree a reparse replaced are removed by the first batch of the new tree that runs
 * (passages remember their generation); until then a search never returns them (it reads the
 * current tree's passages only). A batch that finishes after its tree was replaced removes what it
 * wrote. A deleted file's passages go with it (foreign key, and a trigger for the lexical index).
 */
@DurableWorker({ message: Hooks.nodeBatchCreated, durable: 'passage_indexing', concurrency: 1, maxMessages: 1 })
@Injectable()
export class PassageIndexingConsumer implements DurableHandler<NodeBatchCreatedEvent> {
  /** The files whose batches this consumer takes (pipeline/lanes.ts); it passes over the others'. */
  protected readonly lane: Lane = 'small';

  constructor(
    private readonly steps: TreeBatchSteps,
    private readonly state: IndexationStateRepository,
    private readonly progress: PassageIndexingProgressRecorder,
    private readonly passages: PassagesRepository,
    @Inject(PASSAGE_RETRIEVER) private readonly retriever: PassageRetriever,
    @Inject(SERVICE_ENV) private readonly env: IndexingEnv,
  ) {}

  async handle(event: NodeBatchCreatedEvent, delivery: Delivery): Promise<void> {
    if (laneOf(event, this.env) !== this.lane) return;
    const run = batchRun(event);
    const nodes = event.nodeIds.length;
    await this.steps.run(event, delivery, {
      name: 'passage_indexing',
      record: {
        open: () => this.progress.open(event.fileId, run, event.batches),
        over: (outcome) => this.progress.batchOver(event.fileId, run, nodes, outcome),
        attemptFailed: (error) => this.progress.attemptFailed(event.fileId, run, error),
      },
      work: () => this.index(event, delivery),
    });
  }

  /** Builds the batch's passages, stores them and adds them to the lexical index. */
  private async index(event: NodeBatchCreatedEvent, delivery: Delivery): Promise<BatchOutcome | undefined> {
    const { namespaceId, fileId, generation } = event;
    // Reparse clean-up: passages built from an older tree of the file.
    const stale = await this.passages.staleNodeIds(fileId, generation);
    if (stale.length) {
      await this.retriever.removePassages(namespaceId, fileId, stale);
      await this.passages.deleteNodes(fileId, stale);
    }

    const sources = await this.passages.sources(fileId, generation, event.nodeIds);
    const outline = await this.passages.outline(fileId, generation);
    const typeOf = new Map(outline.map((n) => [n.id, n.type]));
    const rows = sources.filter((s) => s.type === 'row');
    const headerRows = tableHeaderRows(outline, rows);
    const headings = withTableHeaders(headingsAbove(outline, new Set(sources.map((s) => s.id))), headerRows);
    const cells = await this.passages.cellsOf(fileId, generation, [...new Set([...rows.map((s) => s.id), ...headerRows.values()])]);
    headings.fill(cells);
    const order = new Map(event.nodeIds.map((id, i) => [id, i]));
    sources.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
    const built = buildPassages(sources, cells, typeOf, headings.map);
    delivery.progress();

    const written = await this.passages.whileFileExists(fileId, async (db) => {
      await this.passages.upsert(namespaceId, fileId, generation, built, db);
      await this.retriever.add(
        namespaceId,
        fileId,
        built.map((p) => ({ nodeId: p.nodeId, text: p.text })),
        db,
      );
    });
    if (!written) return undefined; // the file was deleted meanwhile
    // A reparse committed while we worked: its clean-up may have run before our write, so undo it here.
    const now = await this.state.load(fileId);
    if (!now || now.currentGeneration !== generation) {
      const ids = built.map((p) => p.nodeId);
      await this.retriever.removePassages(namespaceId, fileId, ids);
      await this.passages.deleteNodes(fileId, ids);
      return undefined;
    }
    return { kind: 'done', count: built.length };
  }
}

/** passage_indexing's lane for large files (pipeline/lanes.ts): the same work, on its own durable consumer. */
@DurableWorker({ message: Hooks.nodeBatchCreated, durable: 'passage_indexing_large', concurrency: 1, maxMessages: 1, largeFiles: true })
@Injectable()
export class LargeFilePassageIndexingConsumer extends PassageIndexingConsumer {
  protected override readonly lane: Lane = 'large';
}
