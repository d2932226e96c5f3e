import { headers as natsHeaders, JSONCodec, type MsgHdrs } from 'nats';
import { ErrorCode, RpcHeaders, type ErrorPayload } from '@docintel/contracts';
import type { TraceSpan } from '@docintel/observability';

/**
 * How a reply travels. A header says what the body is: `ok`, the handler's data as JSON and
 * nothing around it (empty for undefined); `error`, `{ code, message, details }`. Keeping the data
 * out of an envelope lets a caller hand the bytes on unread (RpcClient.callJson).
 */
export const RPC_STATUS_HEADER = 'x-rpc-status';

export const RpcStatus = { ok: 'ok', error: 'error' } as const;
export type RpcStatus = (typeof RpcStatus)[keyof typeof RpcStatus];

const codec = JSONCodec<unknown>();
const EMPTY = new Uint8Array(0);

export function replyHeaders(requestId: string, status: RpcStatus): MsgHdrs {
  const h = natsHeaders();
  h.set(RpcHeaders.requestId, requestId);
  h.set(RPC_STATUS_HEADER, status);
  return h;
}

/**
 * The body of an `ok` reply; throws (a NatsError BAD_JSON) for a value JSON cannot hold, such as a
 * BigInt. A Buffer is the reply's JSON already (JsonBytes, built by a handler that has the text at
 * hand, such as a page of rows with jsonb columns): it goes as it is, not encoded a second time.
 */
export function encodeData(data: unknown): Uint8Array {
  if (data === undefined) return EMPTY;
  return Buffer.isBuffer(data) ? data : codec.encode(data);
}

/** The data of an `ok` body; throws (a NatsError BAD_JSON) when it is not JSON. */
export function decodeData(body: Uint8Array): unknown {
  return body.length ? codec.decode(body) : undefined;
}

export function encodeError(error: ErrorPayload): Uint8Array {
  return codec.encode(error);
}

export function decodeError(body: Uint8Array): ErrorPayload {
  return codec.decode(body) as ErrorPayload;
}

/** Outcomes that are the caller's doing (a 4xx at the gateway): the span is not marked failed for them. */
const CALLER_ERRORS = new Set<string>([
  ErrorCode.VALIDATION_FAILED,
  ErrorCode.UNAUTHENTICATED,
  ErrorCode.FORBIDDEN,
  ErrorCode.NOT_FOUND,
  ErrorCode.CONFLICT,
  ErrorCode.TOO_MANY_REQUESTS,
  ErrorCode.PAYLOAD_TOO_LARGE,
  ErrorCode.UNSUPPORTED_MEDIA_TYPE,
  ErrorCode.RANGE_NOT_SATISFIABLE,
]);

export function rpcSpanAttributes(subject: string): Record<string, string> {
  return { 'rpc.system': 'nats', 'rpc.method': subject, 'messaging.system': 'nats', 'messaging.destination.name': subject };
}

/** Ends an RPC span with its outcome (the metrics' outcome label): an error code, a NATS code, ok. */
export function spanOutcome(span: TraceSpan, outcome: string): void {
  span.setAttributes({ 'docintel.rpc.outcome': outcome });
  if (outcome !== 'ok' && !CALLER_ERRORS.has(outcome)) span.fail(outcome);
  span.end();
}
