import { Inject, Injectable } from '@nestjs/common';
import { Work, type OntologiesWork } from '@docintel/contracts';
import { LOGGER, type Logger } from '@docintel/observability';
import { buildOntologyInput, extractDocumentMetadata, toOntologies, type EmbeddedMetadata, type TreeNode } from '@docintel/ontologies';
import { SERVICE_ENV } from '@docintel/runtime';
import { FilesRepository } from '../files/files.repository';
import { OntologiesRepository } from '../files/ontologies.repository';
import { IndexationStateRepository } from '../indexation/indexation-state.repository';
import type { IndexingEnv } from '../indexing.env';
import { NodeStoreRepository } from '../nodes/node-store.repository';
import { DurableWorker, type Delivery, type DurableHandler } from '@docintel/messaging';
import { fileLane, type Lane } from '../pipeline/lanes';
import { RunSettlement } from '../pipeline/run-settlement';
import { PROGRESS_KEYS } from '../pipeline/tree-events';

/** additionalInfos.ontologies */
export interface OntologiesProgress {
  status: 'PENDING' | 'SUCCESS' | 'SKIPPED' | 'FAILED' | 'RUNNING';
  /** The run the record belongs to (planned with the tree); a recompute keeps the run's. */
  requestedTime?: number | null;
  generation: number | null;
  concepts: number;
  reason: string | null;
  lastError: string | null;
  updatedTime: number;
}

/** What the parser read from the file itself (additionalInfos.parsing.metadata), as the engine takes it. */
function embeddedMetadata(parsing: unknown): EmbeddedMetadata | undefined {
  const m = (parsing as { metadata?: { title?: string; authors?: string[]; creationDate?: string; language?: string } } | undefined)
    ?.metadata;
  if (!m) return undefined;
  return {
    ...(m.title ? { title: m.title } : {}),
    ...(m.authors?.length ? { authors: m.authors } : {}),
    ...(m.creationDate ? { creationDate: m.creationDate } : {}),
    ...(m.language ? { language: m.language } : {}),
  };
}

/**
 * Ontologies and metadata, computed by the built-in engine from the committed tree after every
 * indexation and on POST /files/{id}/recompute-ontologies: the ontology entries replace the file's
 * previous ones, and title, authors and description are recorded on the IndexedFile. The record in
 * additionalInfos.ontologies is planned (PENDING) with the tree; the file is SUCCESS once it is over
 * with the other steps (indexation/readiness.ts). A failure is recorded there and does not fail the
 * file: the document can still be searched and read. A large file (by the node batches its tree
 * was announced in, pipeline/lanes.ts) is read in a lane of its own: reading and analysing its
 * whole tree takes long, and small files' ontologies must not wait for it.
 */
@DurableWorker({ message: Work.indexingOntologies, durable: 'indexing_ontologies', concurrency: 1, maxMessages: 4 })
@Injectable()
export class OntologiesConsumer implements DurableHandler<OntologiesWork> {
  /** The files whose work this consumer takes (pipeline/lanes.ts); it passes over the others'. */
  protected readonly lane: Lane = 'small';

  constructor(
    private readonly state: IndexationStateRepository,
    private readonly nodes: NodeStoreRepository,
    private readonly files: FilesRepository,
    private readonly ontologies: OntologiesRepository,
    private readonly settlement: RunSettlement,
    @Inject(SERVICE_ENV) private readonly env: IndexingEnv,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async handle(work: OntologiesWork, delivery: Delivery): Promise<void> {
    const file = await this.state.load(work.fileId);
    if (!file || file.namespaceId !== work.namespaceId) return;
    // A newer tree was committed since: its own message follows.
    if (work.generation !== undefined && file.currentGeneration !== work.generation) return;
    if (fileLane(file.additionalInfo, this.env) !== this.lane) return;
    const planned = file.additionalInfo[PROGRESS_KEYS.ontologies] as OntologiesProgress | undefined;
    const requestedTime = work.generation !== undefined ? work.requestedTime : (planned?.requestedTime ?? null);
    const record = async (p: Omit<OntologiesProgress, 'updatedTime' | 'requestedTime'>) => {
      await this.state.setInfo(work.fileId, PROGRESS_KEYS.ontologies, {
        ...p,
        requestedTime,
        updatedTime: Date.now(),
      } satisfies OntologiesProgress);
      if (p.status !== 'RUNNING') await this.settlement.settle(work.fileId);
    };
    try {
      const tree = await this.nodes.readTree(file.namespaceId, file.id);
      if (!tree?.root) {
        await record({
          status: 'SKIPPED',
          generation: null,
          concepts: 0,
          reason: 'the file has no indexed tree yet; ontologies are computed when its indexation succeeds',
          lastError: null,
        });
        return;
      }
      delivery.progress();
      const started = Date.now();
      const embedded = embeddedMetadata(file.additionalInfo[PROGRESS_KEYS.parsing]);
      // Positions are interfaces without index signatures; the engine only reads page_number from them.
      const input = buildOntologyInput(tree.root as unknown as TreeNode, {
        fileName: file.key,
        mediaType: file.mediaType ?? '',
        ...(embedded ? { embeddedMetadata: embedded } : {}),
      });
      const result = extractDocumentMetadata(input);
      const entries = toOntologies(result).map((o) => ({ conceptId: o.conceptId.id, name: o.name, metas: o.metas }));
      await this.ontologies.replaceForFile(file.id, entries);
      await this.files.recordMetadata(file.id, {
        ...(result.title ? { title: result.title } : {}),
        ...(result.authors?.length ? { authors: result.authors.join(', ') } : {}),
        ...(result.description ? { description: result.description } : {}),
      });
      await record({ status: 'SUCCESS', generation: tree.generation, concepts: entries.length, reason: null, lastError: null });
      this.logger.debug({ fileId: file.id, concepts: entries.length, ms: Date.now() - started }, 'ontologies computed');
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      // The file may be gone (its ontologies' foreign key fails): then there is nothing to record.
      if (!(await this.state.load(work.fileId).catch(() => null))) return;
      await record({
        status: delivery.lastDelivery ? 'FAILED' : 'RUNNING',
        generation: file.currentGeneration,
        concepts: 0,
        reason: null,
        lastError: message,
      }).catch(() => undefined);
      this.logger.warn({ err, fileId: work.fileId, deliveryCount: delivery.deliveryCount }, 'ontologies attempt failed');
      throw err;
    }
  }
}

/** The ontologies' lane for large files (pipeline/lanes.ts): the same work, on its own durable consumer. */
@DurableWorker({ message: Work.indexingOntologies, durable: 'indexing_ontologies_large', concurrency: 1, maxMessages: 1, largeFiles: true })
@Injectable()
export class LargeFileOntologiesConsumer extends OntologiesConsumer {
  protected override readonly lane: Lane = 'large';
}
