import type {
  AgentJobInputsDto,
  AgentRole,
  AnswerTypeDto,
  FilesInputDto,
  JobKind,
  JobLaunchConfigDto,
  JobStatus,
  MetaInputDto,
  QuestionInputDto,
  SourceIdentifierDto,
} from '@docintel/contracts';

import type { MultiDimInputs } from '../multi-dim/multi-dim-inputs';

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

/** A find-similar job's sources, as given; unit i searches sourceIdentifiers[i]. */
export interface FindSimilarInputs {
  sourceIdentifiers: SourceIdentifierDto[];
}

/** An agent job's request as accepted (AgentJobInputsDto), with its launch config. */
export type AgentInputs = AgentJobInputsDto & { config?: JobLaunchConfigDto; messages?: Array<{ role: AgentRole; content: string }> };

export type JobInputs = QaInputs | ExtractionInputs | FindSimilarInputs | MultiDimInputs | AgentInputs;

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

/** A unit of a job: a question (QA), a file (extraction) or a source (find-similar). */
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
