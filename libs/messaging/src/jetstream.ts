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
import {
  deadLetterSubject,
  DomainError,
  RpcHeaders,
  validatePayload,
  type StreamDefinition,
  type StreamMessage,
} from '@docintel/contracts';
import {
  currentRequestId,
  LOGGER,
  Metrics,
  runInSpan,
  runWithRequestId,
  startSpan,
  tracingEnabled,
  type Logger,
  type TraceSpan,
} from '@docintel/observability';
import { NATS_CONNECTION, NATS_OPTIONS, prefixedName, prefixedSubject, type NatsOptions } from './nats.options';
import { traceHeaderReader, traceHeaderWriter } from './trace-headers';

const codec = JSONCodec<unknown>();

export interface DurableConsumerOptions<T extends object> {
  /** What is consumed: the subject, its stream and the class every message is validated into. */
  message: StreamMessage<T>;
  /** Durable name: consumers with the same name share the work (one delivery per message). */
  durable: string;
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

  /**
   * Publishes a message of a definition from libs/contracts (its payload type-checked against the
   * definition's class); msgId makes a retried publish land once.
   */
  async publish<T extends object>(message: StreamMessage<T>, payload: T, msgId?: string): Promise<void> {
    await this.send(message.subject, payload, msgId);
  }

  private async send(subject: string, payload: unknown, msgId?: string): Promise<void> {
    const h = natsHeaders();
    const requestId = currentRequestId();
    if (requestId) h.set(RpcHeaders.requestId, requestId);
    // The trace context travels with the message, so that its consumer continues the trace of the
    // request (or message) that caused it, however much later it is handled.
    const span = tracingEnabled()
      ? startSpan(`publish ${subject}`, {
          kind: 'producer',
          attributes: {
            'messaging.system': 'nats',
            'messaging.operation.type': 'send',
            'messaging.destination.name': subject,
            ...(msgId ? { 'messaging.message.id': msgId } : {}),
          },
        })
      : undefined;
    span?.inject(traceHeaderWriter(h));
    try {
      await this.js.publish(prefixedSubject(this.options.prefix, subject), codec.encode(payload), { msgID: msgId, headers: h });
    } catch (err) {
      span?.fail((err as Error).message, err);
      throw err;
    } finally {
      span?.end();
    }
    this.metrics.eventsPublished.inc({ subject });
  }

  /**
   * Starts a durable consumer of a message definition. Every message is validated into the
   * definition's class before the handler sees it; one that is not JSON or does not fit the class
   * is published to the dead-letter subject with the reason and terminated at once, since no
   * redelivery can fix it.
   */
  async consume<T extends object>(opts: DurableConsumerOptions<T>): Promise<RunningConsumer> {
    const jsm = await this.manager();
    const stream = this.streamName(opts.message.stream);
    const durable = prefixedName(this.options.prefix, opts.durable);
    const maxDeliver = opts.maxDeliver ?? 5;
    await jsm.consumers.add(stream, {
      durable_name: durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      filter_subject: prefixedSubject(this.options.prefix, opts.message.subject),
      ack_wait: (opts.ackWaitMs ?? 30_000) * 1_000_000,
      max_deliver: maxDeliver,
    });
    const consumer = await this.js.consumers.get(stream, durable);
    const messages: ConsumerMessages = await consumer.consume({ max_messages: opts.maxMessages ?? 16 });
    // Queue depth on /metrics, read from JetStream at scrape time (the durable's, shared by every replica).
    const unwatch = this.metrics.watchConsumer(stream, durable, async () => {
      const info = await jsm.consumers.info(stream, durable);
      return { pending: info.num_pending, ackPending: info.num_ack_pending, redelivered: info.num_redelivered };
    });
    // Neither a message nor the iterator may end the loop silently or reject unobserved: a failed
    // delivery is logged and left to redelivery, and an iterator failure is logged.
    const loop = (async () => {
      for await (const m of messages) {
        try {
          await this.deliver(m, opts, maxDeliver);
        } catch (err) {
          this.logger.error({ err, subject: m.subject, durable }, 'message delivery failed outside its handler; it will be redelivered');
          this.settle(() => m.nak(1000), 'nak', m.subject);
        }
      }
    })().catch((err: unknown) => this.logger.error({ err, durable }, 'consumer stopped receiving messages'));
    return {
      stop: async () => {
        unwatch();
        await messages.close();
        await loop;
      },
    };
  }

  /** Acks, naks, terms or reports progress; these publish, which throws once the connection is closed. */
  private settle(action: () => void, what: string, subject: string): void {
    try {
      action();
    } catch (err) {
      this.logger.warn({ err, subject }, `could not ${what} the message; the server will redeliver it after its ack wait`);
    }
  }

  private async deliver<T extends object>(m: JsMsg, opts: DurableConsumerOptions<T>, maxDeliver: number): Promise<void> {
    const requestId = m.headers?.get(RpcHeaders.requestId) || undefined;
    const subject = this.options.prefix ? m.subject.slice(this.options.prefix.length + 1) : m.subject;
    const deliveryCount = m.info.redeliveryCount;
    // A child of the publisher's span: the trace goes on from the request that caused the message.
    const span = tracingEnabled()
      ? startSpan(`process ${subject}`, {
          kind: 'consumer',
          attributes: {
            'messaging.system': 'nats',
            'messaging.operation.type': 'process',
            'messaging.destination.name': subject,
            'messaging.consumer.group.name': opts.durable,
            'docintel.delivery_count': deliveryCount,
          },
          remoteParent: traceHeaderReader(() => m.headers),
        })
      : undefined;
    await runWithRequestId(requestId, () =>
      runInSpan(span, async () => {
        try {
          await this.handleDelivery(m, opts, maxDeliver, subject, deliveryCount, span);
        } finally {
          span?.end();
        }
      }),
    );
  }

  private async handleDelivery<T extends object>(
    m: JsMsg,
    opts: DurableConsumerOptions<T>,
    maxDeliver: number,
    subject: string,
    deliveryCount: number,
    span: TraceSpan | undefined,
  ): Promise<void> {
    const outcome = (value: 'acked' | 'retried' | 'dead_lettered', failure?: string, err?: unknown) => {
      span?.setAttributes({ 'docintel.delivery_outcome': value });
      if (failure) span?.fail(failure, err);
    };
    let raw: unknown;
    try {
      raw = codec.decode(m.data);
    } catch (err) {
      // No delivery will ever read it: park it at once, with its bytes as text.
      this.logger.error({ err, subject }, 'message is not valid JSON; moved to dead letters');
      outcome('dead_lettered', 'the message is not valid JSON', err);
      await this.deadLetter(m, subject, `the message is not valid JSON: ${(err as Error).message}`, new TextDecoder().decode(m.data));
      return;
    }
    let payload: T;
    try {
      payload = await validatePayload(opts.message.payload, raw);
    } catch (err) {
      // Neither: no delivery will make it fit its contract.
      const reason = `the message does not fit its contract (${opts.message.payload.name}): ${contractProblems(err)}`;
      this.logger.error({ err, subject, payload: raw }, 'message does not fit its contract; moved to dead letters');
      outcome('dead_lettered', reason);
      await this.deadLetter(m, subject, reason, raw);
      return;
    }
    try {
      await opts.handler(payload, {
        subject,
        deliveryCount,
        progress: () => this.settle(() => m.working(), 'report progress on', subject),
      });
      outcome('acked');
      this.settle(() => m.ack(), 'ack', subject);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (deliveryCount >= maxDeliver) {
        this.logger.error({ err, subject, deliveryCount }, 'message failed its last delivery; moved to dead letters');
        outcome('dead_lettered', message, err);
        await this.deadLetter(m, subject, message, raw);
      } else {
        this.logger.warn({ err, subject, deliveryCount }, 'message handling failed; will retry');
        outcome('retried', message, err);
        this.settle(() => m.nak(Math.min(30_000, 500 * 2 ** deliveryCount)), 'nak', subject);
      }
    }
  }

  /**
   * Publishes the message to `dlq.<subject>` and terminates it. When the dead letter cannot be
   * published whole (too large, or JetStream not answering), a smaller one points at the original
   * by stream sequence; when even that fails, the message is terminated anyway (it stays in its
   * stream) and the failure is logged, rather than ending the consumer.
   */
  private async deadLetter(m: JsMsg, subject: string, error: string, payload: unknown): Promise<void> {
    const dlq = deadLetterSubject(subject);
    const reason = error.length > 2000 ? `${error.slice(0, 2000)}...` : error;
    try {
      await this.send(dlq, { subject, error: reason, payload });
    } catch (first) {
      try {
        await this.send(dlq, {
          subject,
          error: reason,
          stream: m.info.stream,
          streamSequence: m.info.streamSequence,
          payloadOmitted: true,
        });
        this.logger.warn({ err: first, subject }, 'dead letter published without its payload');
      } catch (err) {
        this.logger.error(
          { err, subject, streamSequence: m.info.streamSequence },
          'could not publish the dead letter; the message stays in its stream',
        );
      }
    }
    this.settle(() => m.term(), 'terminate', subject);
  }
}

/** `field: problem; ...` of a validation failure, or the error's message. */
function contractProblems(err: unknown): string {
  if (err instanceof DomainError && err.details.length) return err.details.map((d) => `${d.field}: ${d.problem}`).join('; ');
  return err instanceof Error ? err.message : String(err);
}
