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

export const INTERRUPTED_MESSAGE = 'Indexation was interrupted; reindex to try again.';
export const LOST_MESSAGE = 'The indexation request was lost; reindex to try again.';
const MAX_REPUBLISH = 500;

/** The durable consumers that take up indexation requests: a lost request can only be told apart when they are idle. */
const REQUEST_QUEUES: Array<{ stream: StreamDefinition; durable: string }> = [
  { stream: Streams.hooks, durable: 'corpus_parsing' },
  { stream: Streams.work, durable: 'indexing_reindex' },
];

export interface SweepResult {
  swept: boolean;
  interrupted: number;
  republished: number;
}

/**
 * Makes sure every file ends SUCCESS, FAILED or ABORTED. The Files API inserts (or updates) the
 * file and then publishes its request, so a crash in between (or NATS being away) loses the message
 * but not the request: the row says PENDING, unclaimed, with everything needed to publish it (the
 * namespace's name is written by the same statement). And a worker that dies mid-parse leaves its
 * file RUNNING. Every SWEEP_INTERVAL_SECONDS one replica
 * (the holder of a Postgres advisory lock) fails the RUNNING files whose worker has been silent
 * for SWEEP_STALE_RUNNING_SECONDS, and, when the request queues are idle, publishes again the
 * requests nobody took up within SWEEP_PENDING_AFTER_SECONDS (same message id, so a duplicate collapses).
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
    const result: SweepResult = { swept: false, interrupted: 0, republished: 0 };
    result.swept = await this.state.asSweeper(async () => {
      const silent = await this.state.failSilentRuns(now - this.env.SWEEP_STALE_RUNNING_SECONDS * 1000, INTERRUPTED_MESSAGE);
      for (const f of silent) await this.nodes.discardUncommitted(f.id);
      result.interrupted = silent.length;
      if (silent.length) this.logger.warn({ files: silent.map((f) => f.id) }, 'indexations interrupted (worker silent); marked FAILED');

      if (!(await this.queuesIdle())) return;
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

  /** True when the request consumers have nothing waiting and nothing in flight. */
  private async queuesIdle(): Promise<boolean> {
    const jsm = await this.nc.jetstreamManager();
    for (const q of REQUEST_QUEUES) {
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
