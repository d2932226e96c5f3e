/**
 * The seam between the Files API and the indexation pipeline. The Files API records every request
 * on the IndexedFile (status PENDING, counters, reparse flag) in its own transaction, then tells the
 * pipeline through this port, which the pipeline module binds (pipeline/indexation-dispatcher.ts:
 * create the root node, emit root_node.created).
 */
export interface IndexationRequested {
  namespaceId: string;
  /** Rules and storage know a namespace by its name. */
  namespaceName?: string;
  fileId: string;
  /** created: POST /files; reindex: POST /files/{id}/reindex; ontologies: POST /files/{id}/recompute-ontologies. */
  reason: 'created' | 'reindex' | 'ontologies';
  /** The bytes must be read and parsed again (always true for a new file). */
  reparse: boolean;
  providerId: string;
  key: string;
  mediaType: string | null;
  size: number | null;
  /** Epoch ms of the request as recorded on the file; lets a consumer drop superseded requests. */
  requestedTime: number;
  requestId?: string;
}

export interface IndexationRequests {
  requested(event: IndexationRequested): Promise<void>;
}

export const INDEXATION_REQUESTS = Symbol('INDEXATION_REQUESTS');
