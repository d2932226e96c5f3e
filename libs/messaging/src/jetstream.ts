import { Inject, Injectable } from '@nestjs/common';
import {
  AckPolicy,
  DeliverPolicy,
  JSONCodec,
  RetentionPolicy,
  headers as natsHeaders,
  type ConsumerMessages,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
  type NatsConnection,
} from 'nats';
import { deadLetterSubject, RpcHeaders, type StreamDefinition } from '@docintel/contracts';
import { currentRequestId, LOGGER, Metrics, runWithRequestId, type Logger } from '@docintel/observability';
import { NATS_CONNECTION, NATS_OPTIONS, prefixedName, prefixedSubject, type NatsOptions } from './nats.options';

const codec = JSONCodec<unknown>();

export interface DurableConsumerOptions<T> {
  stream: StreamDefinition;
  /** Durable name: consumers with the same name share the work (one delivery per message). */
  durable: string;
  filterSubject: string;
  /** Deliveries before a message goes to the dead-letter subject. */
  maxDeliver?: number;
  ackWaitMs?: number;
  /**
   * Messages fetched ahead of the handler (default 16). Their ack-wait runs while they wait, so a
   * consumer with long handlers should fetch few.
   */
  maxMessages?: number;
  handler: (payload: T, meta: { subject: string; deliveryCount: number; progress: () => void }) => Promise<void>;
}

export interface RunningConsumer {
  stop(): Promise<void>;
}

/**
 * JetStream wiring: streams declared in contracts are created on start-up, events are published
 * with de-duplication ids, and durable consumers ack explicitly, retry with back-off, and park a
 * message on the dead-letter subject after its last delivery.
 */
@Injectable()
export class JetStream {
  private readonly js: JetStreamClient;

  constructor(
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    @Inject(NATS_OPTIONS) private readonly options: NatsOptions,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly metrics: Metrics,
  ) {
    this.js = nc.jetstream();
  }

  private manager(): Promise<JetStreamManager> {
    return this.nc.jetstreamManager();
  }

  streamName(stream: StreamDefinition): string {
    return prefixedName(this.options.prefix, stream.name);
  }

  /** Creates or updates the stream; safe to call from every replica at start-up. */
  async ensureStream(stream: StreamDefinition): Promise<void> {
    const jsm = await this.manager();
    const config = {
      name: this.streamName(stream),
      subjects: stream.subjects.map((s) => prefixedSubject(this.options.prefix, s)),
      retention: RetentionPolicy.Limits,
      duplicate_window: 2 * 60 * 1_000_000_000,
    };
    try {
      await jsm.streams.info(config.name);
      await jsm.streams.update(config.name, config);
    } catch (err) {
      if ((err as { code?: string }).code !== '404') throw err;
      await jsm.streams.add(config);
    }
  }

  /** Publishes an event; msgId makes a retried publish land once. */
  async publish(subject: string, payload: unknown, msgId?: string): Promise<void> {
    const h = natsHeaders();
    const requestId = currentRequestId();
    if (requestId) h.set(RpcHeaders.requestId, requestId);
    await this.js.publish(prefixedSubject(this.options.prefix, subject), codec.encode(payload), { msgID: msgId, headers: h });
    this.metrics.eventsPublished.inc({ subject });
  }

  async consume<T>(opts: DurableConsumerOptions<T>): Promise<RunningConsumer> {
    const jsm = await this.manager();
    const stream = this.streamName(opts.stream);
    const durable = prefixedName(this.options.prefix, opts.durable);
    const maxDeliver = opts.maxDeliver ?? 5;
    await jsm.consumers.add(stream, {
      durable_name: durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      filter_subject: prefixedSubject(this.options.prefix, opts.filterSubject),
      ack_wait: (opts.ackWaitMs ?? 30_000) * 1_000_000,
      max_deliver: maxDeliver,
    });
    const consumer = await this.js.consumers.get(stream, durable);
    const messages: ConsumerMessages = await consumer.consume({ max_messages: opts.maxMessages ?? 16 });
    const loop = (async () => {
      for await (const m of messages) await this.deliver(m, opts, maxDeliver);
    })();
    return {
      stop: async () => {
        await messages.close();
        await loop;
      },
    };
  }

  private async deliver<T>(m: JsMsg, opts: DurableConsumerOptions<T>, maxDeliver: number): Promise<void> {
    const requestId = m.headers?.get(RpcHeaders.requestId) || undefined;
    await runWithRequestId(requestId, async () => {
      const subject = this.options.prefix ? m.subject.slice(this.options.prefix.length + 1) : m.subject;
      const deliveryCount = m.info.redeliveryCount;
      try {
        await opts.handler(codec.decode(m.data) as T, { subject, deliveryCount, progress: () => m.working() });
        m.ack();
      } catch (err) {
        if (deliveryCount >= maxDeliver) {
          this.logger.error({ err, subject, deliveryCount }, 'message failed its last delivery; moved to dead letters');
          await this.publish(deadLetterSubject(subject), {
            subject,
            error: (err as Error).message,
            payload: codec.decode(m.data),
          });
          m.term();
        } else {
          this.logger.warn({ err, subject, deliveryCount }, 'message handling failed; will retry');
          m.nak(Math.min(30_000, 500 * 2 ** deliveryCount));
        }
      }
    });
  }
}
