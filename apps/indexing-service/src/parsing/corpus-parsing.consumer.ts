import { Inject, Injectable } from '@nestjs/common';
import { DomainError, ErrorCode, Hooks, keyName, type RootNodeCreatedEvent, type RpcContext } from '@docintel/contracts';
import { LOGGER, currentRequestId, type Logger } from '@docintel/observability';
import { ParseError, type ParsedDocument } from '@docintel/parsing';
import { RulesClient } from '@docintel/rules';
import { SERVICE_ENV } from '@docintel/runtime';
import { IndexationStateRepository } from '../indexation/indexation-state.repository';
import type { IndexingEnv } from '../indexing.env';
import { NodeStoreRepository } from '../nodes/node-store.repository';
import { DurableWorker, type Delivery, type DurableHandler, type DurableWorkerOptions } from '@docintel/messaging';
import { parseLaneOf, type Lane } from '../pipeline/lanes';
import { FileTooLargeError, StorageBytes, type DownloadedFile } from '../pipeline/storage-bytes';
import { readiness } from '../indexation/readiness';
import { PROGRESS_KEYS, TreeEvents } from '../pipeline/tree-events';
import { batches, storable, toNodeRecords } from '../pipeline/tree-records';
import { parserThreads, Parsers } from './parsers';

/** A message not acked nor extended for this many heartbeats is redelivered. */
const ACK_WAIT_HEARTBEATS = 6;
const heartbeatMs = (env: IndexingEnv): number => env.PIPELINE_HEARTBEAT_SECONDS * 1000;
const MAX_WARNINGS = 20;

/** What both lanes of corpus_parsing share. */
const CORPUS_PARSING_WORKER: Omit<DurableWorkerOptions<RootNodeCreatedEvent, IndexingEnv>, 'durable'> = {
  message: Hooks.rootNodeCreated,
  ackWaitMs: (env) => ACK_WAIT_HEARTBEATS * heartbeatMs(env),
  maxMessages: 1,
};

/** A failure that ends the indexation at once with a message for the user: no retry can help. */
class FinalFailure extends Error {}
/** The file was deleted, or a newer request took over: nothing to record. */
class Overtaken extends Error {}

/** The sentence shown on a file whose corpus_parsing rule said no. */
export function abortedMessage(reason: string | undefined): string {
  return `Not parsed: the namespace's corpus_parsing rule does not apply (${reason ?? 'no reason given'}). Change the rule with PUT /v1/rules/corpus_parsing, then reindex with reparse=true.`;
}

/**
 * corpus_parsing, the critical trigger: a durable consumer of root_node.created shared by every
 * replica. For each request it asks the namespace's rule (fresh, every time) whether to parse; if
 * not, the file ends ABORTED with the rule's reason. Otherwise the file is RUNNING while the bytes
 * stream from storage to a temporary file, a parser thread turns them into a tree, the nodes are
 * written in batches into the request's generation and committed (SUCCESS, indexed) together with
 * the checksum, detected media type, size and document metadata; then the asynchronous steps are
 * announced. A document the parser rejects ends FAILED with its message at once; infrastructure
 * failures are retried, and the last attempt ends FAILED too.
 */
// One consumer per parser thread of the pool; large files have their own lane (below).
@DurableWorker({ ...CORPUS_PARSING_WORKER, durable: 'corpus_parsing', concurrency: (env) => parserThreads(env) })
@Injectable()
export class CorpusParsingConsumer implements DurableHandler<RootNodeCreatedEvent> {
  /** The files whose requests this consumer takes (pipeline/lanes.ts parseLaneOf); it passes over the others'. */
  protected readonly lane: Lane = 'small';
  private stopping = false;

  constructor(
    private readonly state: IndexationStateRepository,
    private readonly nodes: NodeStoreRepository,
    private readonly rules: RulesClient,
    private readonly storage: StorageBytes,
    private readonly parsers: Parsers,
    private readonly events: TreeEvents,
    @Inject(SERVICE_ENV) private readonly env: IndexingEnv,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Documents being parsed fail with "pool closed"; their requests go back to the queue. */
  async interrupt(): Promise<void> {
    this.stopping = true;
    await this.parsers.close();
  }

  private heartbeatMs(): number {
    return heartbeatMs(this.env);
  }

  /**
   * A RUNNING claim whose heartbeat is older than this belongs to a dead worker: a live one writes
   * its heartbeat every interval. A redelivered message finds it so: a live worker extends the ack
   * deadline with every heartbeat, so the message only comes back after six silent intervals.
   */
  private staleBefore(): number {
    return Date.now() - Math.min(this.env.SWEEP_STALE_RUNNING_SECONDS * 1000, 3 * this.heartbeatMs());
  }

  async handle(event: RootNodeCreatedEvent, delivery: Delivery): Promise<void> {
    if (parseLaneOf(event, this.env) !== this.lane) return;
    const file = await this.state.load(event.fileId);
    if (!file || file.namespaceId !== event.namespaceId) return; // deleted: its nodes went with it
    if (file.requestedTime !== event.requestedTime) return; // superseded by a newer request, which has its own message
    const taken = file.claimedRequestTime === event.requestedTime;
    const silent = file.status === 'RUNNING' && (file.heartbeatTime ?? 0) < this.staleBefore();
    if (taken && !silent) return; // done, or another worker is on it

    const ctx: RpcContext = {
      requestId: currentRequestId() ?? event.fileId,
      namespaceId: event.namespaceId,
      namespaceName: event.namespaceName,
    };
    let decision;
    try {
      decision = await this.rules.evaluate(ctx, 'corpus_parsing', { mimeType: event.mediaType, size: event.size });
    } catch (err) {
      return this.retryOrFail(event, delivery, err, false);
    }
    if (!decision.run) {
      const max = this.env.PIPELINE_MAX_INTERRUPTIONS;
      if (await this.state.claim(event.fileId, event.requestedTime, this.staleBefore(), 'ABORTED', abortedMessage(decision.reason), max)) {
        this.logger.info({ fileId: event.fileId, reason: decision.reason }, 'corpus_parsing rule does not apply; indexation ABORTED');
      }
      return;
    }
    const claimed = await this.state.claim(
      event.fileId,
      event.requestedTime,
      this.staleBefore(),
      'RUNNING',
      null,
      this.env.PIPELINE_MAX_INTERRUPTIONS,
    );
    if (!claimed) return;

    let generation: number | undefined;
    const beat = setInterval(() => {
      delivery.progress();
      this.state
        .heartbeat(event.fileId, event.requestedTime)
        .catch((err: unknown) => this.logger.warn({ err, fileId: event.fileId }, 'heartbeat failed'));
    }, this.heartbeatMs());
    try {
      generation = await this.beginAttempt(event);
      this.logger.info({ fileId: event.fileId, generation, deliveryCount: delivery.deliveryCount }, 'indexation RUNNING');
      await this.parseAndCommit(event, generation, ctx, delivery);
    } catch (err) {
      if ((err instanceof Overtaken || err instanceof FinalFailure) && generation !== undefined) {
        await this.nodes.discardGeneration(event.fileId, generation); // the attempt's unfinished tree
      }
      if (err instanceof Overtaken) return;
      if (err instanceof FinalFailure) {
        await this.state.end(event.fileId, event.requestedTime, 'FAILED', err.message);
        this.logger.info({ fileId: event.fileId, message: err.message }, 'indexation FAILED');
        return;
      }
      return this.retryOrFail(event, delivery, err, true, generation);
    } finally {
      clearInterval(beat);
    }
  }

  /**
   * Every attempt writes its own generation, beginning with the request's root node (the same id
   * for every attempt), so that two workers on one request — a takeover while the first was only
   * slow — never write into the same tree: whichever commits first wins, and the other's commit is
   * refused or replaces it with the same content. Nothing is written before a worker takes the
   * request up.
   */
  private async beginAttempt(event: RootNodeCreatedEvent): Promise<number> {
    let generation: number;
    try {
      generation = await this.nodes.beginGeneration(event.fileId);
    } catch (err) {
      if (err instanceof DomainError && err.code === ErrorCode.NOT_FOUND) throw new Overtaken();
      throw err;
    }
    await this.nodes.insertBatch(event.fileId, generation, [
      { id: event.rootNodeId, parentId: null, ordinal: 0, type: 'document', text: '' },
    ]);
    // Recorded so that the sweeper drops this attempt's nodes if its worker dies.
    if (!(await this.state.recordAttempt(event.fileId, event.requestedTime, generation, event.rootNodeId))) throw new Overtaken();
    return generation;
  }

  private async parseAndCommit(event: RootNodeCreatedEvent, generation: number, ctx: RpcContext, delivery: Delivery): Promise<void> {
    const started = Date.now();

    let download: DownloadedFile;
    try {
      download = await this.storage.download(ctx, event.providerId, event.key);
    } catch (err) {
      if (err instanceof FileTooLargeError) throw new FinalFailure(err.message);
      if (err instanceof DomainError && (err.code === ErrorCode.NOT_FOUND || err.code === ErrorCode.FORBIDDEN)) {
        throw new FinalFailure(`The file could not be read from its provider: ${err.message}`);
      }
      throw err;
    }
    let doc: ParsedDocument;
    try {
      delivery.progress();
      doc = await this.parsers.parse(
        {
          source: { path: download.path },
          fileName: keyName(event.key),
          mediaType: event.mediaType ?? undefined,
        },
        download.size,
      );
    } catch (err) {
      if (ParseError.isParseError(err) && !this.stopping) throw new FinalFailure((err as ParseError).message);
      throw err;
    } finally {
      await download.dispose();
    }
    const parsedMs = Date.now() - started;

    const records = toNodeRecords(doc.root, event.rootNodeId);
    const announcement = this.events.plan(
      {
        namespaceId: event.namespaceId,
        namespaceName: event.namespaceName,
        fileId: event.fileId,
        requestedTime: event.requestedTime,
        generation,
        mimeType: doc.format.mediaType,
        size: download.size,
      },
      records,
      'parsed',
    );
    const ready = readiness(announcement.records, { requestedTime: event.requestedTime, generation }).kind === 'SUCCESS';
    try {
      for (const batch of batches(records, this.env.NODE_BATCH_SIZE)) {
        await this.nodes.insertBatch(event.fileId, generation, batch);
        delivery.progress();
      }
      const now = await this.state.load(event.fileId);
      if (!now || now.requestedTime !== event.requestedTime) throw new Overtaken();
      const metadata = storable(doc.metadata);
      const authors = metadata.authors?.filter(Boolean).join(', ');
      // What the parse learned and the next steps' fresh records are committed with the tree: a
      // reader sees them with the new tree, never the records of an earlier run. The file is
      // SUCCESS only once the steps a job reads are over; a step's last batch settles it.
      await this.nodes.commitGeneration(event.fileId, generation, {
        status: ready ? 'SUCCESS' : 'RUNNING',
        checksum: download.sha256,
        mediaType: doc.format.mediaType,
        size: download.size,
        ...(metadata.title ? { title: metadata.title } : {}),
        ...(authors ? { authors } : {}),
        additionalInfo: {
          [PROGRESS_KEYS.parsing]: {
            format: doc.format.family,
            mediaType: doc.format.mediaType,
            nodes: records.length,
            metadata,
            warnings: storable(doc.warnings.slice(0, MAX_WARNINGS)),
            parsedTime: Date.now(),
          },
          ...announcement.records,
        },
      });
    } catch (err) {
      // The generation was closed under us: committed by a newer parse, or the file was deleted.
      if (err instanceof DomainError && (err.code === ErrorCode.CONFLICT || err.code === ErrorCode.NOT_FOUND)) throw new Overtaken();
      // PostgreSQL refused the data itself (class 22, data exception): the same document would be refused again.
      if (/^22/.test((err as { code?: unknown }).code as string)) {
        throw new FinalFailure(`The document's content could not be stored: ${(err as Error).message}`);
      }
      throw err;
    }
    this.logger.info(
      {
        fileId: event.fileId,
        nodes: records.length,
        bytes: download.size,
        parsedMs,
        totalMs: Date.now() - started,
        mediaType: doc.format.mediaType,
      },
      ready ? 'indexation SUCCESS' : 'tree committed; waiting for the steps after parsing',
    );

    // The tree is committed: a redelivery would find the request taken, so a failure from here on
    // ends the file FAILED with the reason (a reindex re-runs the steps) rather than being retried.
    try {
      await this.nodes.analyzeAfterBulkLoad(records.length);
      await this.nodes.deleteVectorsOfReplacedNodes(event.fileId, generation);
      await this.events.publish(announcement);
    } catch (err) {
      this.logger.error(
        { err, fileId: event.fileId },
        'tree committed but the steps after parsing could not be queued; reindex to run them',
      );
      await this.state
        .end(
          event.fileId,
          event.requestedTime,
          'FAILED',
          `The steps after parsing could not be queued (${(err as Error).message}); reindex the file to run them.`,
        )
        .catch(() => undefined);
    }
  }

  /**
   * An infrastructure failure (rules engine, storage, database, NATS): the request goes back to the
   * queue for another attempt, and the last attempt ends the file FAILED. The message is re-thrown
   * so that JetStream redelivers it (or parks it on the dead-letter subject after the last).
   */
  private async retryOrFail(
    event: RootNodeCreatedEvent,
    delivery: Delivery,
    err: unknown,
    claimed: boolean,
    generation?: number,
  ): Promise<void> {
    const reason = err instanceof Error ? err.message : String(err);
    if (generation !== undefined) await this.nodes.discardGeneration(event.fileId, generation).catch(() => undefined);
    if (!this.stopping && delivery.lastDelivery) {
      await this.state
        .end(
          event.fileId,
          event.requestedTime,
          'FAILED',
          `Indexation could not complete after ${delivery.deliveryCount} attempts: ${reason}`,
        )
        .catch((e: unknown) => this.logger.error({ err: e, fileId: event.fileId }, 'could not record the failed indexation'));
    } else if (claimed) {
      // Shutting down, or another attempt follows: the request is PENDING again for whoever takes it next.
      await this.state.release(event.fileId, event.requestedTime).catch(() => undefined);
    }
    this.logger.warn(
      { err, fileId: event.fileId, deliveryCount: delivery.deliveryCount, stopping: this.stopping },
      'corpus_parsing attempt failed',
    );
    throw err;
  }
}

/**
 * corpus_parsing's lane for large files (PARSE_LARGE_FILE_BYTES or more, by the size recorded with
 * the request): they parse one at a time in a thread of their own (Parsers), so one consumer takes
 * them, and a batch of large files never fills the consumers small files are parsed by.
 */
@DurableWorker({ ...CORPUS_PARSING_WORKER, durable: 'corpus_parsing_large', concurrency: 1, largeFiles: true })
@Injectable()
export class LargeFileCorpusParsingConsumer extends CorpusParsingConsumer {
  protected override readonly lane: Lane = 'large';
}
