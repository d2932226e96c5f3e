/**
 * The job routes of each kind, typed (the client's paths are literal types, so one switch per
 * call), and `useJob`: a job read at once, then followed with the client's `waitForJob`.
 */
import { waitForJob, type Annotation, type JobKind, type JobOf } from '@docintel/api-client';
import { useCallback, useEffect, useRef, useState } from 'react';
import { unwrap, type Api } from '../../api/client';
import { useApi } from '../../session/session';
import { isTerminal } from './values';

export type CitedKind = Exclude<JobKind, 'find-similar'>;

export function getJob<K extends JobKind>(api: Api, kind: K, jobId: string, signal?: AbortSignal): Promise<JobOf<K>> {
  const init = { params: { path: { jobId } }, signal };
  switch (kind) {
    case 'qa':
      return unwrap(api.GET('/api/core/qa/jobs/{jobId}', init)) as Promise<JobOf<K>>;
    case 'extraction':
      return unwrap(api.GET('/api/core/extraction/jobs/{jobId}', init)) as Promise<JobOf<K>>;
    case 'multi-dim-extraction':
      return unwrap(api.GET('/api/core/multi-dim-extraction/jobs/{jobId}', init)) as Promise<JobOf<K>>;
    case 'find-similar':
      return unwrap(api.GET('/api/core/find-similar/jobs/{jobId}', init)) as Promise<JobOf<K>>;
    default:
      return unwrap(api.GET('/api/core/agent/jobs/{jobId}', init)) as Promise<JobOf<K>>;
  }
}

export function cancelJob<K extends JobKind>(api: Api, kind: K, jobId: string): Promise<JobOf<K>> {
  const init = { params: { path: { jobId } } };
  switch (kind) {
    case 'qa':
      return unwrap(api.POST('/api/core/qa/jobs/{jobId}/cancel', init)) as Promise<JobOf<K>>;
    case 'extraction':
      return unwrap(api.POST('/api/core/extraction/jobs/{jobId}/cancel', init)) as Promise<JobOf<K>>;
    case 'multi-dim-extraction':
      return unwrap(api.POST('/api/core/multi-dim-extraction/jobs/{jobId}/cancel', init)) as Promise<JobOf<K>>;
    case 'find-similar':
      return unwrap(api.POST('/api/core/find-similar/jobs/{jobId}/cancel', init)) as Promise<JobOf<K>>;
    default:
      return unwrap(api.POST('/api/core/agent/jobs/{jobId}/cancel', init)) as Promise<JobOf<K>>;
  }
}

/** The citations of a job (GET …/annotations). */
export function getAnnotations(api: Api, kind: CitedKind, jobId: string, signal?: AbortSignal): Promise<Annotation[]> {
  const init = { params: { path: { jobId } }, signal };
  switch (kind) {
    case 'qa':
      return unwrap(api.GET('/api/core/qa/jobs/{jobId}/annotations', init));
    case 'extraction':
      return unwrap(api.GET('/api/core/extraction/jobs/{jobId}/annotations', init));
    case 'multi-dim-extraction':
      return unwrap(api.GET('/api/core/multi-dim-extraction/jobs/{jobId}/annotations', init));
    case 'agent':
      return unwrap(api.GET('/api/core/agent/jobs/{jobId}/annotations', init));
  }
}

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
