import { DomainError, ErrorCode, type RpcContext } from '@docintel/contracts';

/** The caller's namespace id: every IndexedFile and collection belongs to exactly one. */
export function requireNamespace(ctx: RpcContext): string {
  if (!ctx.namespaceId) throw new DomainError(ErrorCode.UNAUTHENTICATED, 'The request carries no namespace');
  return ctx.namespaceId;
}

export function requireUser(ctx: RpcContext): string {
  if (!ctx.userId) throw new DomainError(ErrorCode.UNAUTHENTICATED, 'The request carries no user');
  return ctx.userId;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids that are not UUIDs name nothing: callers answer 404 instead of asking Postgres. */
export const isUuid = (id: string): boolean => UUID.test(id);

/** ILIKE pattern matching `q` anywhere, with its wildcards escaped. */
export const containsPattern = (q: string): string => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
