import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import {
  JetStream,
  durableWorkerOptions,
  type DurableHandler,
  type DurableWorkerOptions,
  type RunningConsumer,
  type WorkerSetting,
} from '@docintel/messaging';
import { LOGGER, Metrics, type IndexingMetrics, type Logger } from '@docintel/observability';
import { SERVICE_ENV } from '@docintel/runtime';
import type { IndexingEnv } from '../indexing.env';
import { WorkGate } from './work-gate';

interface RunningWorker {
  options: DurableWorkerOptions<object, IndexingEnv>;
  handler: DurableHandler<object>;
  consumers: RunningConsumer[];
}

/**
 * The one starter of the pipeline's durable JetStream consumers: every provider marked
 * @DurableWorker is started once the application has bootstrapped, `concurrency` consumers per
 * replica sharing its durable name, and stopped (interrupt first) before the NATS connection drains.
 * Payloads are validated by JetStream.consume against the message's class; one that does not fit is
 * parked on the dead-letter subject at once, since no retry can fix it.
 */
@Injectable()
export class DurableWorkers implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly running: RunningWorker[] = [];
  private readonly figures: IndexingMetrics;
  /** Each step of a large file holds hundreds of MiB (a 400-page PDF's parse, its texts, its vectors): one such step at a time keeps the replica's peak that of one. */
  private readonly largeFileWork: WorkGate;

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly jetstream: JetStream,
    @Inject(SERVICE_ENV) private readonly env: IndexingEnv,
    @Inject(LOGGER) private readonly logger: Logger,
    metrics: Metrics,
  ) {
    this.figures = metrics.indexing;
    this.largeFileWork = new WorkGate(env.PIPELINE_LARGE_FILE_WORK);
  }

  async onApplicationBootstrap(): Promise<void> {
    for (const wrapper of this.discovery.getProviders()) {
      const options = durableWorkerOptions<IndexingEnv>(wrapper.metatype);
      if (options && wrapper.instance) await this.start(options, wrapper.instance as DurableHandler<object>);
    }
  }

  private setting(value: WorkerSetting<IndexingEnv> | undefined, fallback: number): number {
    if (value === undefined) return fallback;
    return typeof value === 'function' ? value(this.env) : value;
  }

  private async start(options: DurableWorkerOptions<object, IndexingEnv>, handler: DurableHandler<object>): Promise<void> {
    const worker: RunningWorker = { options, handler, consumers: [] };
    this.running.push(worker);
    const maxDeliver = this.env.PIPELINE_MAX_DELIVER;
    const concurrency = this.setting(options.concurrency, 1);
    const ackWaitMs = this.setting(options.ackWaitMs, 60_000);
    for (let i = 0; i < concurrency; i++) {
      worker.consumers.push(
        await this.jetstream.consume({
          message: options.message,
          durable: options.durable,
          maxDeliver,
          ackWaitMs,
          maxMessages: options.maxMessages ?? 4,
          handler: (payload, meta) => {
            const work = () =>
              this.measured(options.durable, meta.deliveryCount >= maxDeliver, () =>
                handler.handle(payload, {
                  deliveryCount: meta.deliveryCount,
                  lastDelivery: meta.deliveryCount >= maxDeliver,
                  progress: meta.progress,
                }),
              );
            return options.largeFiles ? this.largeFileWork.run(work, meta.progress, ackWaitMs / 3) : work();
          },
        }),
      );
    }
    this.logger.debug({ durable: options.durable, subject: options.message.subject, concurrency }, 'pipeline worker started');
  }

  /** A step's delivery, counted by how it ended: ok (acked), retried (redelivered later) or failed (its last, dead-lettered). */
  private async measured(step: string, lastDelivery: boolean, handle: () => Promise<void>): Promise<void> {
    const started = process.hrtime.bigint();
    let status = 'ok';
    try {
      await handle();
    } catch (err) {
      status = lastDelivery ? 'failed' : 'retried';
      throw err;
    } finally {
      this.figures.stepsFinished.inc({ step, status });
      this.figures.stepDuration.observe({ step }, Number(process.hrtime.bigint() - started) / 1e9);
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.largeFileWork.close();
    for (const { options, handler } of this.running) {
      try {
        await handler.interrupt?.();
      } catch (err) {
        this.logger.warn({ err, durable: options.durable }, 'interrupting a pipeline worker failed');
      }
    }
    await Promise.all(this.running.flatMap(({ consumers }) => consumers.map((c) => c.stop())));
    this.running.length = 0;
  }
}
