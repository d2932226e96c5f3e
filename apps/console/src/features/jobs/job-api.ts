/** `useJob`: a job read at once, then followed with the client's `waitForJob`. */
import {
  cancelJob,
  getAnnotations,
  getJob,
  waitForJob,
  type Annotation,
  type CitedJobKind,
  type JobKind,
  type JobOf,
} from '@docintel/api-client';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useAsync } from '../../lib/use-async';
import { useApi } from '../../session/session';
import { isTerminal } from './values';

/** The console polls faster than the interface's default cadence: a person is watching. */
const POLLING = { initialDelayMs: 1000, maxDelayMs: 10_000, factor: 1.5 };

export interface JobState<K extends JobKind> {
  job: JobOf<K> | null;
  error: unknown;
  cancelling: boolean;
  cancelError: unknown;
  cancel: () => void;
}

/** A job by id: read once, then polled with `waitForJob` until its status is terminal. */
export function useJob<K extends JobKind>(kind: K, jobId: string | null): JobState<K> {
  const api = useApi();
  const [job, setJob] = useState<JobOf<K> | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [cancelling, setCancelling] = useState(false);
  const [cancelError, setCancelError] = useState<unknown>(null);
  const controllerRef = useRef<AbortController | null>(null);

  useEffect(() => {
    setJob(null);
    setError(null);
    setCancelError(null);
    if (!jobId) return;
    const controller = new AbortController();
    controllerRef.current = controller;
    const { signal } = controller;
    (async () => {
      const first = await getJob(api, kind, jobId, signal);
      if (signal.aborted) return;
      setJob(first);
      if (isTerminal(first.status)) return;
      const last = await waitForJob(api, kind, jobId, { ...POLLING, signal, onPoll: (j) => !signal.aborted && setJob(j) });
      if (!signal.aborted) setJob(last);
    })().catch((err: unknown) => {
      if (!signal.aborted) setError(err);
    });
    return () => controller.abort();
  }, [api, kind, jobId]);

  const cancel = useCallback(() => {
    if (!jobId) return;
    setCancelling(true);
    setCancelError(null);
    cancelJob(api, kind, jobId).then(
      (j) => {
        // The answer is the job as it now is (ABORTED): no need to wait for the next poll.
        controllerRef.current?.abort();
        setJob(j);
        setCancelling(false);
      },
      (err: unknown) => {
        setCancelError(err);
        setCancelling(false);
      },
    );
  }, [api, kind, jobId]);

  return { job, error, cancelling, cancelError, cancel };
}

/**
 * A job's results and citations, read again each time a unit ends, so a running job shows what it
 * has so far. `readResults` reads the kind's results route (paths are literal types, one per kind).
 */
export function useJobOutputs<K extends CitedJobKind, R>(
  kind: K,
  state: JobState<K>,
  jobId: string,
  readResults: (signal: AbortSignal) => Promise<R>,
) {
  const api = useApi();
  const status = state.job?.status;
  const done = state.job?.progress ? state.job.progress.done + state.job.progress.failed : 0;
  const outputs = useAsync(
    async (signal): Promise<[R, Annotation[]] | null> =>
      status ? Promise.all([readResults(signal), getAnnotations(api, kind, jobId, signal)]) : null,
    [api, kind, jobId, status, done],
  );
  const [results, annotations] = outputs.data ?? [null, undefined];
  return { results, annotations, error: outputs.error, status };
}
