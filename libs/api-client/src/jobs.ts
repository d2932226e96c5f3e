/**
 * Each job kind's routes, typed. The client's paths are literal types, so a call per kind is
 * spelled out once here and everything else (polling, the console) takes the kind as a value.
 */
import type { DocintelClient } from './client';
import { unwrap } from './errors';
import type { Annotation, FindSimilarJob, Job } from './types';

/** The job kinds, by the base path of their endpoints (`/api/core/{kind}/jobs/{jobId}`). */
export type JobKind = 'qa' | 'extraction' | 'multi-dim-extraction' | 'find-similar' | 'agent';
export type JobOf<K extends JobKind> = K extends 'find-similar' ? FindSimilarJob : Job;
/** The kinds whose answers cite their documents (GET …/annotations). */
export type CitedJobKind = Exclude<JobKind, 'find-similar'>;

/** GET /api/core/{kind}/jobs/{jobId}. */
export function getJob<K extends JobKind>(api: DocintelClient, kind: K, jobId: string, signal?: AbortSignal): Promise<JobOf<K>> {
  const init = { params: { path: { jobId } }, signal };
  const read = (): Promise<Job | FindSimilarJob> => {
    switch (kind as JobKind) {
      case 'qa':
        return unwrap(api.GET('/api/core/qa/jobs/{jobId}', init));
      case 'extraction':
        return unwrap(api.GET('/api/core/extraction/jobs/{jobId}', init));
      case 'multi-dim-extraction':
        return unwrap(api.GET('/api/core/multi-dim-extraction/jobs/{jobId}', init));
      case 'find-similar':
        return unwrap(api.GET('/api/core/find-similar/jobs/{jobId}', init));
      case 'agent':
        return unwrap(api.GET('/api/core/agent/jobs/{jobId}', init));
    }
  };
  return read() as Promise<JobOf<K>>;
}

/** A page of the caller's jobs of a kind, newest first. */
export interface JobPageOf<K extends JobKind> {
  data: JobOf<K>[];
  hasNext: boolean;
  totalElements: number;
  totalPages: number;
}

/** GET /api/core/{kind}/jobs: the caller's jobs of a kind, newest first (page is 0-based). */
export function listJobs<K extends JobKind>(
  api: DocintelClient,
  kind: K,
  query: { page: number; pageSize: number },
  signal?: AbortSignal,
): Promise<JobPageOf<K>> {
  const init = { params: { query }, signal };
  const list = (): Promise<JobPageOf<JobKind>> => {
    switch (kind as JobKind) {
      case 'qa':
        return unwrap(api.GET('/api/core/qa/jobs', init));
      case 'extraction':
        return unwrap(api.GET('/api/core/extraction/jobs', init));
      case 'multi-dim-extraction':
        return unwrap(api.GET('/api/core/multi-dim-extraction/jobs', init));
      case 'find-similar':
        return unwrap(api.GET('/api/core/find-similar/jobs', init));
      case 'agent':
        return unwrap(api.GET('/api/core/agent/jobs', init));
    }
  };
  return list() as Promise<JobPageOf<K>>;
}

/** POST /api/core/{kind}/jobs/{jobId}/cancel (an extension): the job as it now is. */
export function cancelJob<K extends JobKind>(api: DocintelClient, kind: K, jobId: string): Promise<JobOf<K>> {
  const init = { params: { path: { jobId } } };
  const cancel = (): Promise<Job | FindSimilarJob> => {
    switch (kind as JobKind) {
      case 'qa':
        return unwrap(api.POST('/api/core/qa/jobs/{jobId}/cancel', init));
      case 'extraction':
        return unwrap(api.POST('/api/core/extraction/jobs/{jobId}/cancel', init));
      case 'multi-dim-extraction':
        return unwrap(api.POST('/api/core/multi-dim-extraction/jobs/{jobId}/cancel', init));
      case 'find-similar':
        return unwrap(api.POST('/api/core/find-similar/jobs/{jobId}/cancel', init));
      case 'agent':
        return unwrap(api.POST('/api/core/agent/jobs/{jobId}/cancel', init));
    }
  };
  return cancel() as Promise<JobOf<K>>;
}

/** GET /api/core/{kind}/jobs/{jobId}/annotations: where the job's answers were read. */
export function getAnnotations(api: DocintelClient, kind: CitedJobKind, jobId: string, signal?: AbortSignal): Promise<Annotation[]> {
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
