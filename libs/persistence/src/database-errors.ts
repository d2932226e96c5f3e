/**
 * SQLSTATEs that say the server cannot serve this session now but will: it is starting up or
 * shutting down (57P0x), has no connection slot left (53300), or the connection failed (08xxx).
 */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300', '08000', '08001', '08003', '08004', '08006']);

/** Socket errors of a connection to the server that is refused, lost or unanswered. */
const CONNECTION_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'EAI_AGAIN']);

/** What node-postgres says when its pool gave up waiting for a connection or the server went away. */
const UNAVAILABLE_MESSAGES = [
  /timeout exceeded when trying to connect/i,
  /connection terminated (unexpectedly|due to connection timeout)/i,
  /the database system is (starting up|shutting down|in recovery mode)/i,
];

/** What a client is told when the database cannot be reached (503 with Retry-After). */
export const DATABASE_UNAVAILABLE_MESSAGE = 'The database is not available right now (it may be restarting); try again shortly';

/**
 * Whether `err` (as node-postgres or TypeORM raises it, possibly wrapped) means PostgreSQL cannot
 * be reached right now, rather than that the query is wrong: such a request may succeed if sent
 * again in a moment, so it deserves a 503 with Retry-After, never a 500.
 */
export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 4) return false;
  const e = err as { code?: unknown; message?: unknown; driverError?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === 'string' && (UNAVAILABLE_SQLSTATES.has(e.code) || CONNECTION_ERRNOS.has(e.code))) return true;
  if (typeof e.message === 'string' && UNAVAILABLE_MESSAGES.some((m) => m.test(e.message as string))) return true;
  // TypeORM's QueryFailedError keeps the pg error as driverError; Node's AggregateError (one
  // ECONNREFUSED per address of localhost) keeps them in errors.
  const nested = [e.driverError, e.cause, ...(Array.isArray(e.errors) ? e.errors : [])];
  return nested.some((n) => n !== err && isDatabaseUnavailable(n, depth + 1));
}
