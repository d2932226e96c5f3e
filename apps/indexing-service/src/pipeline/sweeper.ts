import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { NatsConnection } from 'nats';
import { Streams, type StreamDefinition } from '@docintel/contracts';
import { NATS_CONNECTION, NATS_OPTIONS, prefixedName, type NatsOptions } from '@docintel/messaging';
import { LOGGER, type Logger } from '@docintel/observability';
import { PeriodicTask, SERVICE_ENV } from '@docintel/runtime';
import type { IndexingEnv } from '../indexing.env';
import { IndexationRequestPublisher } from '../indexation/indexation-request-publisher';
import { IndexationStateRepository } from '../indexation/indexation-state.repository';
import { NodeStoreRepository } from '../nodes/node-store.repository';
import { laneDurables } from './lanes';
import { lastStepUpdate } from '../indexation/readiness';
import { RunSettlement } from './run-settlement';

/** The message of a request interrupted too often (a format() template: %s is how many times). */
export const INTERRUPTED_MESSAGE =
  'Indexation was interrupted %s times (the indexing service stopped while working on this file); reindex to try again.';
export const interruptedMessage = (times: number): string => INTERRUPTED_MESSAGE.replace('%s', String(times));
export const LOST_MESSAGE = 'The indexation request was lost; reindex to try again.';
export const STEPS_LOST_MESSAGE = 'The steps after parsing stopped before the file could be searched; reindex to try again.';
const MAX_REPUBLISH = 500;
const MAX_WAITING = 500;

type Queue = { stream: StreamDefinition; durable: string };
const bothLanes = (stream: StreamDefinition, step: string): Queue[] => laneDurables(step).map((durable) => ({ stream, durable }));

/**
 * The durable consumers that take up indexation requests: a lost request can only be told apart
 * when they are idle. Both lanes of corpus_parsing: a request waiting in the large lane is not lost.
 */
export const REQUEST_QUEUES: Queue[] = [
  ...bothLanes(Streams.hooks, 'corpus_parsing'),
  { stream: Streams.work, durable: 'indexing_reindex' },
];

/**
 * The durable consumers of the steps a file waits for (indexation/readiness.ts), every lane of each:
 * a large file's batches queued in its lane while the small lane is idle are not lost.
 */
export const STEP_QUEUES: Queue[] = [
  ...bothLanes(Streams.hooks, 'node_embedding'),
  ...bothLanes(Streams.hooks, 'passage_indexing'),
  ...bothLanes(Streams.hooks, 'formula_augmentation'),
  ...bothLanes(Streams.work, 'indexing_ontologies'),
];

export interface SweepResult {
  swept: boolean;
  /** Runs whose worker went silent (it died): given back to the queue, or FAILED after too many interruptions. */
  interrupted: number;
  republished: number;
  /** Runs waiting for their steps that were ended: SUCCESS (their steps were over) or FAILED (nothing moves). */
  settled: number;
}

/**
 * Makes sure every file ends SUCCESS, FAILED or ABORTED. The Files API inserts (or updates) the
 * file and then publishes its request, so a crash in between (or NATS being away) loses the message
 * but not the request: the row says PENDING, unclaimed, with everything needed to publish it (the
 * namespace's name is written by the same statement). And a worker that dies mid-parse leaves its
 * file RUNNING. Every SWEEP_INTERVAL_SECONDS one replica
 * (the holder of a Postgres advisory lock) gives the RUNNING files whose worker has been silent
 * for SWEEP_STALE_RUNNING_SECONDS back to the queue and publishes their requests again (at the
 * PIPELINE_MAX_INTERRUPTIONS-th interruption it fails them instead), ends the runs waiting for
 * steps that will not come (settleWaitingRuns), and, when the request queues are idle, publishes again the requests nobody
 * took up within SWEEP_PENDING_AFTER_SECONDS (same message id, so a duplicate collapses).
 */
@Injectable()
export class Sweeper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly periodic = new PeriodicTask(
    () => this.sweep(),
    (err) => this.logger.warn({ err }, 'indexation sweep failed'),
  );

  constructor(
    private readonly state: IndexationStateRepository,
    private readonly nodes: NodeStoreRepository,
    private readonly requests: IndexationRequestPublisher,
    private readonly settlement: RunSettlement,
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    @Inject(NATS_OPTIONS) private readonly nats: NatsOptions,
    @Inject(SERVICE_ENV) private readonly env: IndexingEnv,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    if (this.env.SWEEP_INTERVAL_SECONDS) this.periodic.start(this.env.SWEEP_INTERVAL_SECONDS * 1000);
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.periodic.stop();
  }

  async sweep(now = Date.now()): Promise<SweepResult> {
    const result: SweepResult = { swept: false, interrupted: 0, republished: 0, settled: 0 };
    result.swept = await this.state.asSweeper(async () => {
      result.interrupted = await this.requeueSilentRuns(now - this.env.SWEEP_STALE_RUNNING_SECONDS * 1000);

      result.settled = await this.settleWaitingRuns(now - this.env.SWEEP_STALE_RUNNING_SECONDS * 1000);

      if (!(await this.queuesIdle(REQUEST_QUEUES))) return;
      for (const file of await this.state.unclaimedRequests(now - this.env.SWEEP_PENDING_AFTER_SECONDS * 1000, MAX_REPUBLISH)) {
        if (!file.namespaceName) {
          await this.state.end(file.id, file.requestedTime, 'FAILED', LOST_MESSAGE);
          continue;
        }
        await this.requests.publish(file);
        result.republished++;
      }
      if (result.republished) this.logger.warn({ count: result.republished }, 'indexation requests nobody took up were published again');
    });
    return result;
  }

  /**
   * A silent worker died (its process was killed or crashed): whatever queue its request waits in
   * behind other work, it must not be lost nor failed, so it goes back to PENDING and is published
   * again at once. Whichever of that message and the redelivery of the first comes first takes the
   * request up; the other finds it taken. Its unfinished tree is dropped. The last allowed
   * interruption ends it FAILED instead.
   */
  private async requeueSilentRuns(staleBefore: number): Promise<number> {
    const silent = await this.state.requeueSilentRuns(staleBefore, this.env.PIPELINE_MAX_INTERRUPTIONS, INTERRUPTED_MESSAGE);
    for (const f of silent) {
      await this.nodes.discardUncommitted(f.id);
      if (f.status === 'FAILED') {
        this.logger.warn({ fileId: f.id, interruptions: f.interruptions }, 'indexation interrupted too often; marked FAILED');
        continue;
      }
      this.logger.warn({ fileId: f.id, interruptions: f.interruptions }, 'indexation interrupted (worker silent); queued again');
      const file = await this.state.load(f.id);
      // Not published now (NATS away, no namespace name): the sweep of unclaimed requests takes it up later.
      if (file?.namespaceName) {
        await this.requests
          .publish(file)
          .catch((err: unknown) => this.logger.warn({ err, fileId: f.id }, 'publishing an interrupted request failed'));
      }
    }
    return silent.length;
  }

  /**
   * Runs whose tree is committed wait for their steps (RUNNING). One whose steps are over but that
   * was never settled (its process died in between) is settled now. One whose steps have not
   * reported for `staleBefore` while their queues are idle will never be: its messages were lost
   * (a crash between commit and announcement): it ends FAILED. A large file whose batches are
   * still queued is never failed, however long it takes.
   */
  private async settleWaitingRuns(staleBefore: number): Promise<number> {
    let settled = 0;
    let idle: boolean | undefined;
    for (const f of await this.state.waitingForSteps(MAX_WAITING)) {
      if ((await this.settlement.settle(f.id)) !== null) {
        settled++;
        continue;
      }
      if (lastStepUpdate(f.additionalInfo) >= staleBefore) continue;
      idle ??= await this.queuesIdle(STEP_QUEUES);
      if (!idle) break;
      if (await this.state.failWaiting(f.id, f.requestedTime, STEPS_LOST_MESSAGE)) {
        settled++;
        this.logger.warn({ fileId: f.id }, 'indexation waited for steps that will not run; marked FAILED');
      }
    }
    return settled;
  }

  /** True when the consumers have nothing waiting and nothing in flight. */
  private async queuesIdle(queues: Queue[]): Promise<boolean> {
    const jsm = await this.nc.jetstreamManager();
    for (const q of queues) {
      try {
        const info = await jsm.consumers.info(prefixedName(this.nats.prefix, q.stream.name), prefixedName(this.nats.prefix, q.durable));
        if (info.num_pending > 0 || info.num_ack_pending > 0) return false;
      } catch {
        return false; // not created yet, or NATS unreachable: nothing can be told
      }
    }
    return true;
  }
}
