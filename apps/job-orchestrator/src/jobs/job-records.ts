import type { JobKind, JobStatus } from '@docintel/contracts';

/** A file the job reads, as resolved when it was created. */
export interface JobFile {
  fileId: string;
  name: string;
}

export type UnitStatus = 'PENDING' | 'RUNNING' | 'DONE' | 'FAILED' | 'ABORTED';
export const TERMINAL_UNIT_STATUSES: readonly UnitStatus[] = ['DONE', 'FAILED', 'ABORTED'];

/**
 * A job as stored. `I` is its kind's inputs (the request as accepted, kept for GET /inputs and for
 * the units to read): the kind's runner sees them typed (kinds/<kind>/), code for every kind sees unknown.
 */
export interface JobRecord<I = unknown> {
  id: string;
  namespaceId: string;
  userId: string;
  kind: JobKind;
  name: string;
  status: JobStatus;
  errorMessage: string | null;
  inputs: I;
  files: JobFile[];
  archived: boolean;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  modifiedAt: Date;
  /** The conversation of a stateful agent job. */
  conversationId: string | null;
}

export interface UnitCounts {
  total: number;
  done: number;
  failed: number;
  running: number;
  answered: number;
}

/** A unit of a job: a question (QA), a file (extraction) or a source (find-similar); `R` is its kind's result. */
export interface UnitRecord<R = unknown> {
  jobId: string;
  unit: number;
  label: string;
  fileId: string | null;
  dependsOn: number[];
  status: UnitStatus;
  attempts: number;
  error: string | null;
  results: R[];
}

/** A unit as the job is created with it. */
export interface NewUnit {
  unit: number;
  label: string;
  fileId: string | null;
  dependsOn: number[];
}
