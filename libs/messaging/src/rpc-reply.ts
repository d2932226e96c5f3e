import { headers as natsHeaders, JSONCodec, type MsgHdrs } from 'nats';
import { RpcHeaders, type ErrorPayload } from '@docintel/contracts';

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

/** The body of an `ok` reply; throws (a NatsError BAD_JSON) for a value JSON cannot hold, such as a BigInt. */
export function encodeData(data: unknown): Uint8Array {
  return data === undefined ? EMPTY : codec.encode(data);
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
