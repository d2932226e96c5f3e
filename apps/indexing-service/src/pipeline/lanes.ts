import type { IndexingEnv } from '../indexing.env';

/**
 * The lanes of a step after parsing. A large file (a 400-page PDF is tens of thousands of nodes,
 * a hundred batches) would hold every batch queued behind it for minutes in a single queue; in its
 * own lane, with its own durable consumer, the batches of small files keep flowing beside it.
 * Both lanes' consumers read the same subject, each taking its lane's batches and passing over the
 * others' (an ack, nothing read); each lane's queue depth is on /metrics under its durable's name.
 */
export type Lane = 'small' | 'large';

/** A file announced in at least PIPELINE_LARGE_FILE_BATCHES batches goes to the large lane. */
export function laneOf(event: { batches: number }, env: Pick<IndexingEnv, 'PIPELINE_LARGE_FILE_BATCHES'>): Lane {
  return event.batches >= env.PIPELINE_LARGE_FILE_BATCHES ? 'large' : 'small';
}
