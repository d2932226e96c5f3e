import { randomUUID } from 'node:crypto';
import type { Logger } from '@docintel/observability';

export interface SafetyNetOptions {
  /** How the process ends after an uncaught exception (tests pass a fake). */
  exit?: (code: number) => void;
}

/**
 * The process-level last resort; errors are meant to be handled where they happen (RpcServer
 * answers every handler failure, JetStream consumers nak or dead-letter), so reaching either
 * listener here is a bug to fix, logged with an error id to find it by.
 *
 * - An unhandled promise rejection is logged and the process keeps serving. The failed operation
 *   has already unwound through its promise chain; nothing else was interrupted half-way, so
 *   there is no reason to take every other request of the process down with it (Node's default
 *   since v15 is to exit).
 * - An uncaught exception stays fatal. It was thrown synchronously out of some event callback
 *   (a socket, a timer, the NATS client's parser) and unwound through code that did not expect it,
 *   so in-memory state may be half-updated: a subscription silently dead, a pool slot never
 *   released. Exiting with status 1 lets the supervisor (Kubernetes, scripts/start.js) start a
 *   clean process; the log line says why.
 *
 * Returns a function that removes both listeners.
 */
export function installProcessSafetyNet(logger: Logger, opts: SafetyNetOptions = {}): () => void {
  const exit = opts.exit ?? ((code: number) => process.exit(code));
  const onRejection = (reason: unknown): void => {
    const errorId = randomUUID();
    logger.error({ err: reason, errorId }, `unhandled promise rejection (error id ${errorId}); the process keeps running`);
  };
  const onException = (err: Error, origin: string): void => {
    const errorId = randomUUID();
    logger.fatal({ err, errorId, origin }, `uncaught exception (error id ${errorId}); exiting, the process state may be inconsistent`);
    exit(1);
  };
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);
  return () => {
    process.off('unhandledRejection', onRejection);
    process.off('uncaughtException', onException);
  };
}
