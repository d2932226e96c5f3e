import type { JobKindFolder } from '../../jobs/job-kind';
import { ExtractionJobs } from './extraction-jobs';
import { ExtractionJobsHandler } from './extraction.handler';
import { ExtractionUnitRunner } from './extraction-unit';

/** Metadata extraction: one unit per file, each meta read from it. */
export const extractionKind: JobKindFolder = {
  kind: 'extraction',
  noun: 'Extraction job',
  runner: ExtractionUnitRunner,
  providers: [ExtractionJobs, ExtractionJobsHandler],
};
