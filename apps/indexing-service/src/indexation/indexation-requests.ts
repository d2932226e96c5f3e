import type { IndexedFileEntity } from './indexed-file.entity';

/**
 * The port between the Files API and the indexation pipeline. The Files API records every request
 * on the IndexedFile itself (PENDING, requested_time, the reparse flag, the namespace's name) and
 * then hands the file to this port, which publishes the request. Publishing is after the write, not
 * in its transaction: a request whose publish was lost (a crash in between, NATS away) is still
 * recorded as unclaimed, and the sweeper publishes it again (pipeline/sweeper.ts).
 */
export interface IndexationRequests {
  /** Publishes the file's current indexation request. Never throws: a failure is logged and left to the sweeper. */
  requested(file: IndexedFileEntity): Promise<void>;
  /** Publishes a recompute of the file's ontologies (POST /files/{id}/recompute-ontologies); never throws. */
  ontologiesRequested(file: IndexedFileEntity, requestId?: string): Promise<void>;
}

export const INDEXATION_REQUESTS = Symbol('INDEXATION_REQUESTS');
