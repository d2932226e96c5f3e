/** `useJob`: a job read at once, then followed with the client's `waitForJob`. */
import {
  cancelJob,
  getAnnotations,
  getJob,
  isTransientError,
  waitForJob,
  type Annotation,
  type CitedJobKind,
  type JobKind,
  type JobOf,
} from '@docintel/api-client';
import { useCallback, useEffect, useRef, useState } from 'react';
import { unwrap } from '../../api/client';
import { useAsync } from '../../lib/use-async';
import { navigate } from '../../router/router';
import { useApi } from '../../session/session';
import { isTerminal } from './values';

/** The console polls faster than the interface's default cadence: a person is watching. */
const POLLING = { initialDelayMs: 1000, maxDelayMs: 10_000, factor: 1.5 };

export interface JobState<K extends JobKind> {
  job: JobOf<K> | null;
  error: unknown;
  /** The last read failed on a transient error (a busy or restarting server): following goes on. */
  busy: unknown;
  cancelling: boolean;
  cancelError: unknown;
  cancel: () => void;
}

/**
 * A job by id: read once, then polled with `waitForJob` until its status is terminal. A busy or
 * restarting server (5xx, 429, a network failure) does not end the following: the card says so and
 * the polling backs off and goes on; only an error no retry can fix (404, 401…) ends it.
 */
export function useJob<K extends JobKind>(kind: K, jobId: string | null): JobState<K> {
  const api = useApi();
  const [job, setJob] = useState<JobOf<K> | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState<unknown>(null);
  const [cancelling, setCancelling] = useState(false);
  const [cancelError, setCancelError] = useState<unknown>(null);
  const controllerRef = useRef<AbortController | null>(null);

  useEffect(() => {
    setJob(null);
    setError(null);
    setBusy(null);
    setCancelError(null);
    if (!jobId) return;
    const controller = new AbortController();
    controllerRef.current = controller;
    const { signal } = controller;
    const seen = (j: JobOf<K>) => {
      if (signal.aborted) return;
      setBusy(null);
      setJob(j);
    };
    (async () => {
      const first = await getJob(api, kind, jobId, signal).catch((err: unknown) => {
        if (signal.aborted || !isTransientError(err)) throw err;
        setBusy(err);
        return null;
      });
      if (signal.aborted) return;
      if (first) {
        seen(first);
        if (isTerminal(first.status)) return;
      }
      const last = await waitForJob(api, kind, jobId, {
        ...POLLING,
        signal,
        onPoll: seen,
        onTransientError: (err) => !signal.aborted && setBusy(err),
      });
      seen(last);
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

  return { job, error, busy, cancelling, cancelError, cancel };
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

/** The kinds whose inputs can be read back (GET …/inputs) in the shape their create route takes. */
export type RerunnableKind = 'qa' | 'extraction' | 'multi-dim-extraction';

/** Creates the job again with the inputs of `jobId` (and its name): its new id. */
async function createAgain(api: ReturnType<typeof useApi>, kind: RerunnableKind, jobId: string, name: string | undefined): Promise<string> {
  const path = { params: { path: { jobId } } };
  switch (kind) {
    case 'qa': {
      const inputs = await unwrap(api.GET('/api/core/qa/jobs/{jobId}/inputs', path));
      return (await unwrap(api.POST('/api/core/qa/jobs', { body: { ...inputs, name } }))).jobId;
    }
    case 'extraction': {
      const inputs = await unwrap(api.GET('/api/core/extraction/jobs/{jobId}/inputs', path));
      return (await unwrap(api.POST('/api/core/extraction/jobs', { body: { ...inputs, name } }))).jobId;
    }
    case 'multi-dim-extraction': {
      const inputs = await unwrap(api.GET('/api/core/multi-dim-extraction/jobs/{jobId}/inputs', path));
      return (await unwrap(api.POST('/api/core/multi-dim-extraction/jobs', { body: { ...inputs, name } }))).jobId;
    }
  }
}

/** "Run again" of a job that failed or was aborted: the same inputs as a new job, whose page then opens. */
export function useRunAgain(kind: RerunnableKind, jobId: string, pageOf: (jobId: string) => string) {
  const api = useApi();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = useCallback(
    (name?: string) => {
      setBusy(true);
      setError(null);
      createAgain(api, kind, jobId, name).then(
        (id) => {
          setBusy(false);
          navigate(pageOf(id));
        },
        (err: unknown) => {
          setBusy(false);
          setError(err);
        },
      );
    },
    [api, kind, jobId, pageOf],
  );
  return { run, busy, error };
}

/**
 * A job of a kind that cites and can run again, as its page shows it: the followed job, its
 * "Run again", and its results with their citations once it has a status.
 */
export function useCitedJobRun<K extends CitedJobKind & RerunnableKind, R>(
  kind: K,
  jobId: string,
  pageOf: (jobId: string) => string,
  readResults: (signal: AbortSignal) => Promise<R>,
) {
  const state = useJob(kind, jobId);
  const runAgain = useRunAgain(kind, jobId, pageOf);
  const outputs = useJobOutputs(kind, state, jobId, readResults);
  return { state, runAgain, ...outputs };
}
