import type { DocintelClient } from './client';
import { isTransientError, unwrap } from './errors';
import { getJob, type JobKind, type JobOf } from './jobs';
import type { IndexationStatus, IndexedFile, JobStatus } from './types';

/**
 * The interface's polling cadence: a first check after 3 s, then back-off (3 s, 6 s, 12 s…)
 * capped at 30 s.
 */
export interface BackoffOptions {
  /** Wait before the first check, ms (default 3000). */
  initialDelayMs?: number;
  /** Longest wait between two checks, ms (default 30000). */
  maxDelayMs?: number;
  /** Growth of the wait after each check (default 2; 1 polls at a fixed interval). */
  factor?: number;
}

export interface PollOptions<T> extends BackoffOptions {
  /** Stops waiting (and the request in flight); the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Sees every value read, the last one included (progress display, logs). */
  onPoll?: (value: T) => void;
  /**
   * Keep polling through transient errors (5xx, 429, 408, a network failure: see
   * isTransientError), each passed here as it happens, with the back-off going on. Without it, any
   * error ends the wait.
   */
  onTransientError?: (err: unknown) => void;
}

export const DEFAULT_BACKOFF = { initialDelayMs: 3000, maxDelayMs: 30_000, factor: 2 } as const;

/** The wait before check number `attempt` (0-based): 3000, 6000, 12000, 24000, 30000, 30000… by default. */
export function pollDelay(attempt: number, options: BackoffOptions = {}): number {
  const initial = options.initialDelayMs ?? DEFAULT_BACKOFF.initialDelayMs;
  const max = Math.max(initial, options.maxDelayMs ?? DEFAULT_BACKOFF.maxDelayMs);
  const factor = Math.max(1, options.factor ?? DEFAULT_BACKOFF.factor);
  return Math.min(max, initial * factor ** attempt);
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted', 'AbortError');
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortReason(signal));
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal as AbortSignal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Reads until `done` holds, waiting before each read as BackoffOptions say. An error of `read`
 * ends the wait with that error, unless it is transient and `onTransientError` is given.
 */
export async function pollUntil<T>(
  read: (signal?: AbortSignal) => Promise<T>,
  done: (value: T) => boolean,
  options: PollOptions<T> = {},
): Promise<T> {
  const { signal } = options;
  for (let attempt = 0; ; attempt++) {
    await sleep(pollDelay(attempt, options), signal);
    let value: T;
    try {
      value = await read(signal);
    } catch (err) {
      if (signal?.aborted) throw abortReason(signal);
      if (!options.onTransientError || !isTransientError(err)) throw err;
      options.onTransientError(err);
      continue;
    }
    // A read that ignored the signal does not outlive it.
    if (signal?.aborted) throw abortReason(signal);
    options.onPoll?.(value);
    if (done(value)) return value;
  }
}

export const INDEXATION_TERMINAL_STATUSES: readonly IndexationStatus[] = ['SUCCESS', 'FAILED', 'ABORTED'];
export const JOB_TERMINAL_STATUSES: readonly JobStatus[] = ['SUCCESS', 'COMPLETED', 'FAILED', 'ABORTED'];

/**
 * Polls GET /api/core/files/{id} until `lastIndexationInfos.status` is SUCCESS, FAILED or ABORTED
 * and resolves with that file (check the status: a FAILED run explains itself in errorMessage).
 */
export function waitForIndexedFile(api: DocintelClient, fileId: string, options: PollOptions<IndexedFile> = {}): Promise<IndexedFile> {
  return pollUntil(
    (signal) => unwrap(api.GET('/api/core/files/{id}', { params: { path: { id: fileId } }, signal })),
    (file) => INDEXATION_TERMINAL_STATUSES.includes(file.lastIndexationInfos.status),
    options,
  );
}

/**
 * Polls the job until its status is terminal (SUCCESS, COMPLETED, FAILED or ABORTED) and
 * resolves with it. A find-similar job succeeds with COMPLETED, the others with SUCCESS.
 */
export function waitForJob<K extends JobKind>(
  api: DocintelClient,
  kind: K,
  jobId: string,
  options: PollOptions<JobOf<K>> = {},
): Promise<JobOf<K>> {
  return pollUntil(
    (signal) => getJob(api, kind, jobId, signal),
    (job) => JOB_TERMINAL_STATUSES.includes(job.status),
    options,
  );
}
