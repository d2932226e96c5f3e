import { Inject, Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import type { ClassConstructor } from 'class-transformer';
import { deadLetterSubject, validatePayload, type StreamDefinition } from '@docintel/contracts';
import { JetStream, type RunningConsumer } from '@docintel/messaging';
import { LOGGER, type Logger } from '@docintel/observability';

export interface Delivery {
  deliveryCount: number;
  /** No redelivery follows if this one fails: the handler records the outcome now. */
  lastDelivery: boolean;
  /** Extends the ack deadline; call it during long work. */
  progress(): void;
}

export interface WorkerDefinition<T extends object> {
  /** Durable consumer name, shared by every replica: each message goes to one of them. */
  durable: string;
  stream: StreamDefinition;
  subject: string;
  payload: ClassConstructor<T>;
  /** Messages one replica handles at once. */
  concurrency: number;
  maxDeliver: number;
  ackWaitMs: number;
  /** Messages fetched ahead per handler loop. */
  maxMessages: number;
  /** Resolves to ack; throws to retry (with back-off), or to dead-letter on the last delivery. */
  handle(payload: T, delivery: Delivery): Promise<void>;
  /** Called first on shutdown, to cut long work short before the consumers wait for their handlers. */
  interrupt?(): Promise<void> | void;
}

/**
 * Starts the pipeline's durable JetStream consumers and stops them before the NATS connection
 * drains. Payloads are validated against their contract first; one that does not fit is parked on
 * the dead-letter subject at once, since no retry can fix it.
 */
@Injectable()
export class DurableWorkers implements BeforeApplicationShutdown {
  private readonly running: Array<{ def: WorkerDefinition<object>; consumers: RunningConsumer[] }> = [];

  constructor(
    private readonly jetstream: JetStream,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async start<T extends object>(def: WorkerDefinition<T>): Promise<void> {
    const consumers: RunningConsumer[] = [];
    this.running.push({ def: def as unknown as WorkerDefinition<object>, consumers });
    for (let i = 0; i < def.concurrency; i++) {
      consumers.push(
        await this.jetstream.consume<unknown>({
          stream: def.stream,
          durable: def.durable,
          filterSubject: def.subject,
          maxDeliver: def.maxDeliver,
          ackWaitMs: def.ackWaitMs,
          maxMessages: def.maxMessages,
          handler: async (raw, meta) => {
            let payload: T;
            try {
              payload = await validatePayload(def.payload, raw);
            } catch (err) {
              this.logger.error({ err, subject: meta.subject, payload: raw }, 'pipeline message does not fit its contract; dead-lettered');
              await this.jetstream.publish(deadLetterSubject(meta.subject), {
                subject: meta.subject,
                error: (err as Error).message,
                payload: raw,
              });
              return;
            }
            await def.handle(payload, {
              deliveryCount: meta.deliveryCount,
              lastDelivery: meta.deliveryCount >= def.maxDeliver,
              progress: meta.progress,
            });
          },
        }),
      );
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    for (const { def } of this.running) {
      try {
        await def.interrupt?.();
      } catch (err) {
        this.logger.warn({ err, durable: def.durable }, 'interrupting a pipeline worker failed');
      }
    }
    await Promise.all(this.running.flatMap(({ consumers }) => consumers.map((c) => c.stop())));
    this.running.length = 0;
  }
}
