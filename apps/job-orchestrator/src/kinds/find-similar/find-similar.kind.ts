import type { JobKindFolder } from '../../jobs/job-kind';
import { bibliographicSourceProvider } from './bibliographic-source.provider';
import { FindSimilarJobs } from './find-similar-jobs';
import { FindSimilarJobsHandler } from './find-similar.handler';
import { FindSimilarUnitRunner } from './find-similar-unit';

/** Find-similar: one unit per source, matched among the caller's files and, when configured, the remote bibliographic search. */
export const findSimilarKind: JobKindFolder = {
  kind: 'find-similar',
  noun: 'Find-similar job',
  runner: FindSimilarUnitRunner,
  providers: [bibliographicSourceProvider, FindSimilarJobs, FindSimilarJobsHandler],
};
