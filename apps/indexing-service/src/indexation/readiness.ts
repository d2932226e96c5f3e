import type { StepProgress } from '@docintel/contracts';
import { PROGRESS_KEYS } from './progress-keys';

/**
 * The steps after parsing, all of which a file waits for before it is SUCCESS: what QA and
 * extraction jobs search (the passages and their lexical index, passage_indexing; the vectors of the
 * dense leg, node_embedding), and what agent jobs, find-similar and readers of the document see
 * (the ontologies and metadata; formula readings on the nodes). So a job started at SUCCESS gets
 * the answer it would get a minute later, and a client has one status to poll.
 */
export const READINESS_STEPS = [PROGRESS_KEYS.passages, PROGRESS_KEYS.embedding, PROGRESS_KEYS.formulas, PROGRESS_KEYS.ontologies] as const;

/** The run a file is waiting for: its current request and the tree it committed. */
export interface ReadinessRun {
  requestedTime: number;
  generation: number;
}

export type Readiness = { kind: 'waiting'; step: string } | { kind: 'SUCCESS' } | { kind: 'FAILED'; message: string };

const TERMINAL: ReadonlyArray<string> = ['SUCCESS', 'SKIPPED', 'FAILED'];

/** The message of a file whose passages could not all be indexed. */
export function passagesFailedMessage(lastError: string | null | undefined): string {
  return `Passage indexing failed, so questions would miss parts of the document: ${lastError ?? 'no reason given'}. Reindex to try again.`;
}

/**
 * Whether the file's run is ready to be asked, from its additionalInfos. A step record of another
 * run (an older parse or reindex) counts as not started. A failed passage_indexing fails the file:
 * questions would silently miss the passages it did not index. Any other step failed or skipped
 * does not: search answers from the lexical index alone for nodes without vectors, a formula
 * without its reading keeps its text, a file without ontologies is still searched; nothing more
 * will come, so answers are settled. The step shows FAILED or SKIPPED with its reason.
 */
export function readiness(additionalInfo: Record<string, unknown>, run: ReadinessRun): Readiness {
  for (const step of READINESS_STEPS) {
    const p = additionalInfo[step] as Pick<StepProgress, 'status' | 'requestedTime' | 'generation'> | undefined;
    if (!p || p.requestedTime !== run.requestedTime || p.generation !== run.generation || !TERMINAL.includes(p.status)) {
      return { kind: 'waiting', step };
    }
  }
  const passages = additionalInfo[PROGRESS_KEYS.passages] as StepProgress;
  if (passages.status === 'FAILED') return { kind: 'FAILED', message: passagesFailedMessage(passages.lastError) };
  return { kind: 'SUCCESS' };
}

/** The last time a step the file waits for reported, for the sweeper's "nothing moves" test. */
export function lastStepUpdate(additionalInfo: Record<string, unknown>): number {
  return Math.max(0, ...READINESS_STEPS.map((s) => (additionalInfo[s] as StepProgress | undefined)?.updatedTime ?? 0));
}
