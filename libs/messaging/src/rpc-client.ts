import { Inject, Injectable } from '@nestjs/common';
import { ErrorCode as NatsErrorCode, JSONCodec, headers as natsHeaders, NatsError, type NatsConnection } from 'nats';
import { DomainError, ErrorCode, RpcHeaders, type RpcCall, type RpcContext, type RpcReply } from '@docintel/contracts';
import { Metrics } from '@docintel/observability';
import { NATS_CONNECTION, NATS_OPTIONS, prefixedSubject, type NatsOptions } from './nats.options';

const codec = JSONCodec<unknown>();

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
    return this.send<Res>(call.subject, payload, ctx, timeoutMs);
  }

  private async send<T>(subject: string, payload: unknown, ctx: RpcContext, timeoutMs: number): Promise<T> {
    const h = natsHeaders();
    h.set(RpcHeaders.requestId, ctx.requestId);
    if (ctx.namespaceId) h.set(RpcHeaders.namespaceId, ctx.namespaceId);
    if (ctx.namespaceName) h.set(RpcHeaders.namespaceName, ctx.namespaceName);
    if (ctx.userId) h.set(RpcHeaders.userId, ctx.userId);
    const started = process.hrtime.bigint();
    let outcome = 'ok';
    try {
      const msg = await this.nc.request(prefixedSubject(this.options.prefix, subject), codec.encode(payload ?? {}), {
        timeout: timeoutMs,
        headers: h,
      });
      const reply = codec.decode(msg.data) as RpcReply<T>;
      if (!reply.ok) {
        outcome = reply.error.code;
        throw DomainError.fromPayload(reply.error);
      }
      return reply.data;
    } catch (err) {
      if (err instanceof NatsError) {
        outcome = err.code;
        throw this.transportError(err, subject, timeoutMs);
      }
      throw err;
    } finally {
      this.metrics.rpcClientDuration.observe({ subject, outcome }, Number(process.hrtime.bigint() - started) / 1e9);
    }
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
