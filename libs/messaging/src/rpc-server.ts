import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { randomUUID } from 'node:crypto';
import { ErrorCode as NatsErrorCode, JSONCodec, NatsError, type Msg, type NatsConnection, type Subscription } from 'nats';
import {
  DomainError,
  ErrorCode,
  RpcHeaders,
  validatePayload,
  type ErrorPayload,
  type RpcContext,
  type RpcReply,
} from '@docintel/contracts';
import { LOGGER, Metrics, runInSpan, runWithRequestId, startSpan, tracingEnabled, type Logger } from '@docintel/observability';
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable } from '@docintel/persistence';
import { NATS_CONNECTION, NATS_OPTIONS, prefixedSubject, type NatsOptions } from './nats.options';
import { RPC_HANDLER, type RpcHandlerMetadata } from './rpc-handler.decorator';
import { traceHeaderReader } from './trace-headers';
import { encodeData, encodeError, replyHeaders, RpcStatus, rpcSpanAttributes, spanOutcome } from './rpc-reply';

type Handler = (payload: unknown, ctx: RpcContext) => unknown;

const codec = JSONCodec<unknown>();

export function contextFromHeaders(msg: Msg): RpcContext {
  const h = msg.headers;
  return {
    requestId: h?.get(RpcHeaders.requestId) || randomUUID(),
    namespaceId: h?.get(RpcHeaders.namespaceId) || undefined,
    namespaceName: h?.get(RpcHeaders.namespaceName) || undefined,
    userId: h?.get(RpcHeaders.userId) || undefined,
  };
}

/**
 * Subscribes every @RpcHandler method in the application to its subject, in the service's queue
 * group so that replicas share the load. On shutdown it stops taking requests and waits for the
 * ones in flight to finish.
 */
@Injectable()
export class RpcServer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly subscriptions: Subscription[] = [];
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    @Inject(NATS_OPTIONS) private readonly options: NatsOptions,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly metrics: Metrics,
  ) {}

  onApplicationBootstrap(): void {
    for (const wrapper of this.discovery.getProviders()) {
      const instance = wrapper.instance as Record<string, unknown> | undefined;
      if (!instance || typeof instance !== 'object') continue;
      const proto = Object.getPrototypeOf(instance);
      for (const method of this.scanner.getAllMethodNames(proto)) {
        const meta = this.reflector.get<RpcHandlerMetadata | undefined>(RPC_HANDLER, proto[method]);
        if (meta) this.subscribe(meta, (instance[method] as Handler).bind(instance));
      }
    }
  }

  private subscribe(meta: RpcHandlerMetadata, handler: Handler): void {
    const subject = prefixedSubject(this.options.prefix, meta.subject);
    const sub = this.nc.subscribe(subject, {
      queue: this.options.service,
      callback: (err, msg) => {
        if (err) {
          this.logger.error({ err, subject }, 'subscription error');
          return;
        }
        // handle() answers every failure itself; this catch is the last line that keeps a bug in it
        // from becoming an unhandled rejection.
        const work = this.handle(meta, handler, msg)
          .catch((e: unknown) => this.logger.error({ err: e, subject }, 'rpc request failed outside its handler'))
          .finally(() => this.inFlight.delete(work));
        this.inFlight.add(work);
      },
    });
    this.subscriptions.push(sub);
    this.logger.debug({ subject, queue: this.options.service }, 'rpc handler subscribed');
  }

  private async handle(meta: RpcHandlerMetadata, handler: Handler, msg: Msg): Promise<void> {
    let ctx: RpcContext;
    try {
      ctx = contextFromHeaders(msg);
    } catch {
      ctx = { requestId: randomUUID() }; // unreadable headers: answer anyway, under a new request id
    }
    const started = process.hrtime.bigint();
    // A child of the caller's span when the request carries a traceparent (older callers: a new trace).
    const span = tracingEnabled()
      ? startSpan(meta.subject, {
          kind: 'server',
          attributes: { ...rpcSpanAttributes(meta.subject), 'docintel.request_id': ctx.requestId },
          remoteParent: traceHeaderReader(() => msg.headers),
        })
      : undefined;
    await runWithRequestId(ctx.requestId, () =>
      runInSpan(span, async () => {
        let reply: RpcReply<unknown>;
        try {
          const raw = msg.data.length ? codec.decode(msg.data) : {};
          const payload = meta.payload ? await validatePayload(meta.payload, raw) : raw;
          reply = { ok: true, data: await handler(payload, ctx) };
        } catch (err) {
          reply = { ok: false, error: this.toErrorPayload(err, meta.subject) };
        }
        const outcome = msg.reply ? this.respond(msg, reply, ctx, meta.subject) : reply.ok ? 'ok' : reply.error.code;
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        this.metrics.rpcDuration.observe({ subject: meta.subject, outcome }, seconds);
        if (span) spanOutcome(span, outcome);
      }),
    );
  }

  /**
   * Sends the reply and never throws: a reply that cannot be encoded (a value JSON cannot hold) or
   * is larger than the NATS max payload is replaced by an INTERNAL error reply with an error id, so
   * the caller learns at once what went wrong instead of waiting for its timeout. A reply that
   * cannot be sent at all (the connection closed) is logged. Returns the outcome for the metrics.
   */
  private respond(msg: Msg, reply: RpcReply<unknown>, ctx: RpcContext, subject: string): string {
    let outcome: string = reply.ok ? 'ok' : reply.error.code;
    let status: RpcStatus = reply.ok ? RpcStatus.ok : RpcStatus.error;
    let body: Uint8Array;
    try {
      body = reply.ok ? encodeData(reply.data) : encodeError(reply.error);
    } catch (err) {
      body = encodeError(this.toErrorPayload(err, subject));
      status = RpcStatus.error;
      outcome = ErrorCode.INTERNAL;
    }
    try {
      msg.respond(body, { headers: replyHeaders(ctx.requestId, status) });
      return outcome;
    } catch (err) {
      if (!(err instanceof NatsError && err.code === NatsErrorCode.MaxPayloadExceeded)) {
        this.logger.error({ err, subject }, 'could not send the rpc reply');
        return 'unsent';
      }
      const error = this.tooLarge(body.length, subject);
      try {
        msg.respond(encodeError(error), { headers: replyHeaders(ctx.requestId, RpcStatus.error) });
        return ErrorCode.INTERNAL;
      } catch (again) {
        this.logger.error({ err: again, subject }, 'could not send the rpc error reply');
        return 'unsent';
      }
    }
  }

  private tooLarge(bytes: number, subject: string): ErrorPayload {
    const errorId = randomUUID();
    const limit = this.nc.info?.max_payload;
    this.logger.error({ subject, errorId, bytes, limit }, 'rpc reply larger than the NATS max payload; answered with an error');
    return {
      code: ErrorCode.INTERNAL,
      message: `The reply is too large to send: ${bytes} bytes, the messaging limit is ${limit ?? 'unknown'} bytes (error id ${errorId})`,
      details: [],
    };
  }

  private toErrorPayload(err: unknown, subject: string): ErrorPayload {
    if (err instanceof DomainError) return err.toPayload();
    if (isDatabaseUnavailable(err)) {
      // Postgres restarting or out of connections: the caller may try again shortly (503), it is no bug (500).
      this.logger.warn({ err, subject }, 'database unavailable during an rpc request');
      return { code: ErrorCode.SERVICE_UNAVAILABLE, message: DATABASE_UNAVAILABLE_MESSAGE, details: [] };
    }
    const errorId = randomUUID();
    this.logger.error({ err, subject, errorId }, 'unexpected error in rpc handler');
    return {
      code: ErrorCode.INTERNAL,
      message: `Internal error (error id ${errorId})`,
      details: [],
    };
  }

  async beforeApplicationShutdown(): Promise<void> {
    // Stop receiving first, then let in-flight handlers finish within the shutdown budget.
    await Promise.allSettled(this.subscriptions.map((s) => s.drain()));
    const pending = [...this.inFlight];
    if (!pending.length) return;
    this.logger.info({ inFlight: pending.length }, 'waiting for in-flight requests');
    await Promise.race([
      Promise.allSettled(pending),
      new Promise((resolve) => setTimeout(resolve, this.options.shutdownTimeoutMs).unref()),
    ]);
  }
}
