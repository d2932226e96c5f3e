import type { JobKindFolder } from '../../jobs/job-kind';
import { MultiDimExtractionJobs } from './multi-dim-extraction-jobs';
import { MultiDimExtractionJobsHandler } from './multi-dim-extraction.handler';
import { MultiDimExtractionUnitRunner } from './multi-dim-extraction-unit';

/** Multi-dimensional extraction: one unit per file gives rows of the schema; rows are merged across files when read. */
export const multiDimExtractionKind: JobKindFolder = {
  kind: 'multi-dim-extraction',
  noun: 'Multi-dimensional extraction job',
  runner: MultiDimExtractionUnitRunner,
  providers: [MultiDimExtractionJobs, MultiDimExtractionJobsHandler],
};
