import type { JobKindFolder } from '../jobs/job-kind';
import { agentKind } from './agent/agent.kind';
import { extractionKind } from './extraction/extraction.kind';
import { findSimilarKind } from './find-similar/find-similar.kind';
import { multiDimExtractionKind } from './multi-dim-extraction/multi-dim-extraction.kind';
import { qaKind } from './qa/qa.kind';

/**
 * Every job kind, one folder each (kinds/<kind>/). JobKindRegistry refuses to start when a kind of
 * JOB_KINDS has no runner here, or two.
 */
export const JOB_KIND_FOLDERS: readonly JobKindFolder[] = [qaKind, extractionKind, multiDimExtractionKind, findSimilarKind, agentKind];
