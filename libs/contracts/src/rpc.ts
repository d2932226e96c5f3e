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

import type { ErrorPayload } from './errors';

/** The reply envelope of every request/reply subject. */
export type RpcReply<T> = { ok: true; data: T } | { ok: false; error: ErrorPayload };
