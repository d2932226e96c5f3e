/**
 * Who is asking, carried as NATS headers on every request so that logs and tenancy checks
 * work the same on each hop.
 */
export interface RpcContext {
  requestId: string;
  namespaceId?: string;
  namespaceName?: string;
  userId?: string;
}

export const RpcHeaders = {
  requestId: 'x-request-id',
  namespaceId: 'x-namespace-id',
  namespaceName: 'x-namespace-name',
  userId: 'x-user-id',
} as const;

import type { ClassConstructor } from 'class-transformer';
import type { ErrorPayload } from './errors';

/** The outcome of a request/reply handler; on the wire its status travels in a header (libs/messaging rpc-reply.ts). */
export type RpcReply<T> = { ok: true; data: T } | { ok: false; error: ErrorPayload };

/** The payload of a call that takes none: callers send `{}`. */
export type NoPayload = Record<string, never>;

/** A class a payload is validated into (class-validator decorators on its properties). */
export type RequestClass<T> = ClassConstructor<T>;

/**
 * One request/reply call between services, written once in contracts: the subject, the class the
 * handler validates the payload into, and (for the compiler only) the payload and reply types.
 * `RpcClient.call(def, payload, ctx)` and `@RpcHandler(def)` take it, so a caller cannot send
 * the wrong payload or read the wrong reply, and a handler cannot answer with the wrong type.
 */
export interface RpcCall<Req, Res> {
  /** `<service>.<resource>.<verb>`, without the deployment's NATS_PREFIX. */
  readonly subject: string;
  /** What the handler validates the payload into; none for calls without a payload. */
  readonly request?: RequestClass<Req>;
  /** Never set: carries the payload and reply types for the compiler. */
  readonly types?: { readonly request: Req; readonly reply: Res };
}

/** The payload type of a call definition. */
export type RpcRequestOf<D> = D extends RpcCall<infer Req, unknown> ? Req : never;
/** The reply type of a call definition. */
export type RpcReplyOf<D> = D extends RpcCall<infer _Req, infer Res> ? Res : never;

/**
 * Defines a call: `rpc<FileRefRequest, IndexedFileDto>(Subjects.indexing.filesGet, FileRefRequest)`.
 * A call without a payload class takes no payload: `rpc<NoPayload, RuleListDto>(Subjects.rules.rulesList)`.
 */
export function rpc<Req extends object, Res>(subject: string, request: RequestClass<Req>): RpcCall<Req, Res>;
export function rpc<Req extends NoPayload, Res>(subject: string): RpcCall<Req, Res>;
export function rpc<Req, Res>(subject: string, request?: RequestClass<Req>): RpcCall<Req, Res> {
  return Object.freeze({ subject, request });
}
