/**
 * A remote bibliographic search find-similar asks about sources that are not among the caller's
 * files. Adapters (OpenAlex today) implement it; the unit runner only knows this interface.
 */

/** What a work is looked up by. */
export type WorkIdentifier = { kind: 'doi'; value: string } | { kind: 'pmcid'; value: string };

/** `doi:10.1/x`, `pmcid:PMC123`: how a lookup is named in statistics.errorsBySearchResultId. */
export const identifierLabel = (id: WorkIdentifier): string => `${id.kind}:${id.value}`;

/** A work as the remote describes it, in the remote's terms mapped to ours. */
export interface BibliographicWork {
  /** The remote's id of the work (the searchResultId). */
  id: string;
  title: string;
  doi?: string;
  authors: string[];
  year?: number;
  /** Plain text, when the remote has it. */
  abstract?: string;
  /** Keywords and concepts, best first. */
  keywords: string[];
}

/** A lookup that failed after its retries (timeout, 429, 5xx, unreachable, a body that is not a work). */
export class RemoteLookupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RemoteLookupError';
  }
}

export interface BibliographicSource {
  /** Short name, e.g. `openalex`. */
  readonly name: string;
  /** The work, or null when the remote does not know it. Throws RemoteLookupError when the remote could not answer. */
  lookup(id: WorkIdentifier, signal?: AbortSignal): Promise<BibliographicWork | null>;
}

/** Nest token of the configured source; its value is null when FIND_SIMILAR_REMOTE is none. */
export const BIBLIOGRAPHIC_SOURCE = Symbol('BIBLIOGRAPHIC_SOURCE');
