import type { StepProgress } from '@docintel/contracts';
import type { IndexingEnv } from '../indexing.env';
import { PROGRESS_KEYS } from '../indexation/progress-keys';

/**
 * The lanes of the pipeline. A large file (a 400-page PDF is tens of thousands of nodes, a hundred
 * batches, minutes of parsing and embedding) would hold every message queued behind it in a single
 * queue; in its own lane, with its own durable consumer, the work of small files keeps flowing
 * beside it. Both lanes' consumers read the same subject, each taking its lane's messages and
 * passing over the others' (an ack, nothing done); each lane's queue depth is on /metrics under
 * its durable's name.
 */
export type Lane = 'small' | 'large';

/** The durable consumer of a step's lane: the step's own name for small files, `<step>_large` for large ones. */
export function laneDurable(step: string, lane: Lane): string {
  return lane === 'large' ? `${step}_large` : step;
}

/** Both lanes' durable consumers of a step. */
export function laneDurables(step: string): [string, string] {
  return [laneDurable(step, 'small'), laneDurable(step, 'large')];
}

/** A file announced in at least PIPELINE_LARGE_FILE_BATCHES batches goes to the large lane. */
export function laneOf(event: { batches: number }, env: Pick<IndexingEnv, 'PIPELINE_LARGE_FILE_BATCHES'>): Lane {
  return event.batches >= env.PIPELINE_LARGE_FILE_BATCHES ? 'large' : 'small';
}

/**
 * The lane of a file's work that is not one of its node batches (its formula batches, its
 * ontologies): the lane of its node batches, from the count its run was announced with (planned
 * in additionalInfos with the tree). A file without that record has no tree worth a lane: small.
 */
export function fileLane(additionalInfo: Record<string, unknown>, env: Pick<IndexingEnv, 'PIPELINE_LARGE_FILE_BATCHES'>): Lane {
  const planned = additionalInfo[PROGRESS_KEYS.passages] as Pick<StepProgress, 'batches'> | undefined;
  return laneOf({ batches: planned?.batches ?? 0 }, env);
}

/**
 * The lane of a request to parse a file, from the size recorded when the file was created: a
 * file of PARSE_LARGE_FILE_BYTES or more is parsed in a thread of its own, one at a time
 * (parsing/parsers.ts), and waits for its turn in its own lane rather than in a consumer small
 * files need. A size nobody knows goes to the small lane (the parser still reads it apart).
 */
export function parseLaneOf(request: { size: number | null }, env: Pick<IndexingEnv, 'PARSE_LARGE_FILE_BYTES'>): Lane {
  return request.size !== null && request.size >= env.PARSE_LARGE_FILE_BYTES ? 'large' : 'small';
}
