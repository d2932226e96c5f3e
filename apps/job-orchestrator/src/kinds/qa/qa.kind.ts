import type { JobKindFolder } from '../../jobs/job-kind';
import { QaJobs } from './qa-jobs';
import { QaJobsHandler } from './qa.handler';
import { QaUnitRunner } from './qa-unit';

/** Question answering: one unit per question over the job's files. */
export const qaKind: JobKindFolder = { kind: 'qa', noun: 'QA job', runner: QaUnitRunner, providers: [QaJobs, QaJobsHandler] };
