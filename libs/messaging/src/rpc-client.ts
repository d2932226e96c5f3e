import { Inject, Injectable } from '@nestjs/common';
import { ErrorCode as NatsErrorCode, JSONCodec, headers as natsHeaders, NatsError, type NatsConnection } from 'nats';
import { DomainError, ErrorCode, RpcHeaders, type RpcCall, type RpcContext } from '@docintel/contracts';
import { Metrics, startSpan, tracingEnabled } from '@docintel/observability';
import { NATS_CONNECTION, NATS_OPTIONS, prefixedSubject, type NatsOptions } from './nats.options';
import { traceHeaderWriter } from './trace-headers';
import { decodeData, decodeError, RPC_STATUS_HEADER, RpcStatus, rpcSpanAttributes, spanOutcome } from './rpc-reply';

const codec = JSONCodec<unknown>();

declare const jsonOf: unique symbol;
/** The JSON bytes of a `T`, as RpcClient.callJson returns them; the type only says what they hold. */
export type JsonBytes<T> = Buffer & { readonly [jsonOf]?: T };

/** Sends request/reply messages to services and turns failures into DomainErrors. */
@Injectable()
export class RpcClient {
  constructor(
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    @Inject(NATS_OPTIONS) private readonly options: NatsOptions,
    private readonly metrics: Metrics,
  ) {}

  /**
   * Sends a call defined in contracts (libs/contracts rpc-calls.ts) and resolves with its reply:
   * the payload and reply types come from the definition. A failure reply, no responder or no
   * answer within `timeoutMs` rejects with a DomainError.
   */
  call<Req, Res>(call: RpcCall<Req, Res>, payload: NoInfer<Req>, ctx: RpcContext, timeoutMs = this.options.rpcTimeoutMs): Promise<Res> {
    return this.send(call.subject, payload, ctx, timeoutMs, (body) => decodeData(body) as Res);
  }

  /**
   * As `call`, but resolves with the reply's JSON as it came from the service, unparsed: for a
   * large reply that is only passed on (an HTTP body), parsing and serialising it again is wasted
   * work. Failures reject exactly as they do for `call`. Empty when the handler returned nothing.
   */
  callJson<Req, Res>(
    call: RpcCall<Req, Res>,
    payload: NoInfer<Req>,
    ctx: RpcContext,
    timeoutMs = this.options.rpcTimeoutMs,
  ): Promise<JsonBytes<Res>> {
    // A view on the received bytes, not a copy: nats.js does not reuse them.
    return this.send(call.subject, payload, ctx, timeoutMs, (body) => Buffer.from(body.buffer, body.byteOffset, body.byteLength));
  }

  private async send<T>(subject: string, payload: unknown, ctx: RpcContext, timeoutMs: number, read: (body: Uint8Array) => T): Promise<T> {
    const h = natsHeaders();
    h.set(RpcHeaders.requestId, ctx.requestId);
    if (ctx.namespaceId) h.set(RpcHeaders.namespaceId, ctx.namespaceId);
    if (ctx.namespaceName) h.set(RpcHeaders.namespaceName, ctx.namespaceName);
    if (ctx.userId) h.set(RpcHeaders.userId, ctx.userId);
    // W3C traceparent next to the request id: the handler's span becomes a child of this one.
    const span = tracingEnabled() ? startSpan(subject, { kind: 'client', attributes: rpcSpanAttributes(subject) }) : undefined;
    span?.inject(traceHeaderWriter(h));
    const started = process.hrtime.bigint();
    let outcome = 'ok';
    try {
      const msg = await this.nc.request(prefixedSubject(this.options.prefix, subject), codec.encode(payload ?? {}), {
        timeout: timeoutMs,
        headers: h,
      });
      const status = msg.headers?.get(RPC_STATUS_HEADER);
      if (status === RpcStatus.ok) return read(msg.data);
      if (status !== RpcStatus.error) {
        outcome = 'BAD_REPLY';
        throw this.badReply(subject, status);
      }
      const error = decodeError(msg.data);
      outcome = error.code;
      throw DomainError.fromPayload(error);
    } catch (err) {
      if (err instanceof NatsError) {
        outcome = err.code;
        throw this.transportError(err, subject, timeoutMs);
      }
      throw err;
    } finally {
      this.metrics.rpcClientDuration.observe({ subject, outcome }, Number(process.hrtime.bigint() - started) / 1e9);
      if (span) spanOutcome(span, outcome);
    }
  }

  /** A reply without a known status: not from an RpcServer of this version (a mixed deployment, or another responder). */
  private badReply(subject: string, status: string | undefined): DomainError {
    const service = subject.split('.')[0];
    return new DomainError(
      ErrorCode.SERVICE_UNAVAILABLE,
      `Messaging failure talking to the ${service} service: a reply with ${status ? `status ${status}` : `no ${RPC_STATUS_HEADER} header`}`,
    );
  }

  private transportError(err: NatsError, subject: string, timeoutMs: number): DomainError {
    const service = subject.split('.')[0];
    if (err.code === NatsErrorCode.MaxPayloadExceeded) {
      return new DomainError(
        ErrorCode.PAYLOAD_TOO_LARGE,
        `The request is too large to pass to the ${service} service (the messaging limit is ${this.nc.info?.max_payload ?? 'unknown'} bytes)`,
      );
    }
    if (err.code === NatsErrorCode.NoResponders) {
      return new DomainError(ErrorCode.SERVICE_UNAVAILABLE, `The ${service} service is not available right now; try again shortly`);
    }
    if (err.code === NatsErrorCode.Timeout) {
      return new DomainError(ErrorCode.TIMEOUT, `The ${service} service did not answer within ${timeoutMs} ms`);
    }
    return new DomainError(ErrorCode.SERVICE_UNAVAILABLE, `Messaging failure talking to the ${service} service: ${err.message}`);
  }
}
