import type { AnswerTypeDto, FilesInputDto, JobKind, JobLaunchConfigDto, JobStatus, MetaInputDto, QuestionInputDto } from '@docintel/contracts';

/** The request of a job as accepted, kept for GET /inputs and for the units to read. */
export interface QaInputs {
  files: FilesInputDto;
  questions: Array<QuestionInputDto & { id: string; answerType: AnswerTypeDto; inputQuestionIds: string[] }>;
  config?: JobLaunchConfigDto;
}

export interface ExtractionInputs {
  files: FilesInputDto;
  metas: Array<MetaInputDto & { answerType: AnswerTypeDto }>;
  config?: JobLaunchConfigDto;
}

export type JobInputs = QaInputs | ExtractionInputs;

/** A file the job reads, as resolved when it was created. */
export interface JobFile {
  fileId: string;
  name: string;
}

export type UnitStatus = 'PENDING' | 'RUNNING' | 'DONE' | 'FAILED' | 'ABORTED';
export const TERMINAL_UNIT_STATUSES: readonly UnitStatus[] = ['DONE', 'FAILED', 'ABORTED'];

export interface JobRecord {
  id: string;
  namespaceId: string;
  userId: string;
  kind: JobKind;
  name: string;
  status: JobStatus;
  errorMessage: string | null;
  inputs: JobInputs;
  files: JobFile[];
  archived: boolean;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  modifiedAt: Date;
}

export interface UnitCounts {
  total: number;
  done: number;
  failed: number;
  running: number;
  answered: number;
}

/** A unit of a job: a question (QA) or a file (extraction). */
export interface UnitRecord {
  jobId: string;
  unit: number;
  label: string;
  fileId: string | null;
  dependsOn: number[];
  status: UnitStatus;
  attempts: number;
  error: string | null;
  results: unknown[];
}

/** A unit as the job is created with it. */
export interface NewUnit {
  unit: number;
  label: string;
  fileId: string | null;
  dependsOn: number[];
}
