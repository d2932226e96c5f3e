export type { components, operations, paths } from './schema';
export * from './types';
export { createDocintelClient, clientFetch, type DocintelClient, type DocintelClientOptions, type FetchLike } from './client';
export { DocintelApiError, isTransientError, unwrap, type ApiData, type ApiResult } from './errors';
export {
  DEFAULT_BACKOFF,
  INDEXATION_TERMINAL_STATUSES,
  JOB_TERMINAL_STATUSES,
  pollDelay,
  pollUntil,
  waitForIndexedFile,
  waitForJob,
  type BackoffOptions,
  type PollOptions,
} from './polling';
export { cancelJob, getAnnotations, getJob, listJobs, type CitedJobKind, type JobKind, type JobOf, type JobPageOf } from './jobs';
export { uploadMultipart, uploadViaPresignedUrl, type UploadBody, type UploadInput, type UploadOptions } from './upload';
