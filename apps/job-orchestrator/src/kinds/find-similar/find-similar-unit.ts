import { Inject, Injectable } from '@nestjs/common';
import {
  SimilarFilesBySource,
  SimilarFilesByWork,
  normalizeDoi,
  parseOpenAccessId,
  type SourceIdentifierDto,
  type SourceMatchesDto,
} from '@docintel/contracts';
import { RpcClient } from '@docintel/messaging';
import { LOGGER, type Logger } from '@docintel/observability';
import { SERVICE_ENV } from '@docintel/runtime';
import type { JobKindRunner } from '../../jobs/job-kind';
import type { JobRecord, UnitRecord } from '../../jobs/job-records';
import type { UnitOutcome } from '../../jobs/jobs.repository';
import type { JobsEnv } from '../../jobs.env';
import { jobContext } from '../../reading/unit-context';
import {
  BIBLIOGRAPHIC_SOURCE,
  identifierLabel,
  RemoteLookupError,
  type BibliographicSource,
  type BibliographicWork,
  type WorkIdentifier,
} from './bibliographic-source';
import type { FindSimilarInputs } from './find-similar-inputs';
import { workOntologies } from './work-ontologies';

/** What the remote is asked for a source: its DOI, then its open-access id (an arXiv id as the DOI arXiv registers, a PMC id as a PMCID). */
export function remoteIdentifiers(source: SourceIdentifierDto): WorkIdentifier[] {
  const ids: WorkIdentifier[] = [];
  const doi = source.doi ? normalizeDoi(source.doi) : null;
  if (doi) ids.push({ kind: 'doi', value: doi });
  const oa = source.openAccessId ? parseOpenAccessId(source.openAccessId) : null;
  if (oa?.kind === 'arxiv') ids.push({ kind: 'doi', value: `10.48550/arxiv.${oa.id}` });
  if (oa?.kind === 'pmc') ids.push({ kind: 'pmcid', value: oa.id });
  return ids.filter((id, i) => ids.findIndex((o) => o.kind === id.kind && o.value === id.value) === i);
}

/** A source that could not be searched at all (its unit failed): unmatched, with the reason. */
export function failedSourceMatches(source: SourceIdentifierDto, reason: string): SourceMatchesDto {
  return { source, files: [], metadataOnly: [], match: 'NONE', remoteSearch: 'NOT_NEEDED', error: reason };
}

/**
 * One source of a find-similar job. The indexing service looks for the source among the caller's
 * files (by id, DOI, open-access id) and ranks the others against it. A source that is not a local
 * file but has a DOI or open-access id is looked up in the remote bibliographic search, when one is
 * configured: the work found is returned as metadataOnly and the caller's files are ranked against
 * its title, abstract, authors and keywords. Remote failures are recorded on the source, never
 * thrown: the job ends either way. Calls to the indexing service that fail for a transient reason
 * are retried by the unit worker.
 */
@Injectable()
export class FindSimilarUnitRunner implements JobKindRunner<FindSimilarInputs, SourceMatchesDto> {
  constructor(
    private readonly rpc: RpcClient,
    @Inject(BIBLIOGRAPHIC_SOURCE) private readonly remote: BibliographicSource | null,
    @Inject(SERVICE_ENV) private readonly env: JobsEnv,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async run(
    job: JobRecord<FindSimilarInputs>,
    unit: UnitRecord<SourceMatchesDto>,
    requestId: string,
    signal: AbortSignal,
  ): Promise<UnitOutcome<SourceMatchesDto>> {
    const source = job.inputs.sourceIdentifiers[unit.unit];
    const matches = await this.search(source, jobContext(job, requestId), signal);
    return { status: 'DONE', results: [matches], answered: 1, annotations: [] };
  }

  failedResults(job: JobRecord<FindSimilarInputs>, unit: UnitRecord<SourceMatchesDto>, reason: string): SourceMatchesDto[] {
    return [failedSourceMatches(job.inputs.sourceIdentifiers[unit.unit], reason)];
  }

  private async search(source: SourceIdentifierDto, ctx: ReturnType<typeof jobContext>, signal: AbortSignal): Promise<SourceMatchesDto> {
    const limits = { limit: this.env.FIND_SIMILAR_MAX_FILES, minScore: this.env.FIND_SIMILAR_MIN_SCORE };
    const local = await this.rpc.call(SimilarFilesBySource, { source, ...limits }, ctx);
    if (local.source) {
      return { source, files: [local.source, ...local.similar], metadataOnly: [], match: 'LOCAL', remoteSearch: 'NOT_NEEDED' };
    }
    const unmatched = (remoteSearch: SourceMatchesDto['remoteSearch'], extra: Partial<SourceMatchesDto> = {}): SourceMatchesDto => ({
      source,
      files: [],
      metadataOnly: [],
      match: 'NONE',
      remoteSearch,
      ...extra,
    });
    const ids = remoteIdentifiers(source);
    if (!ids.length) return unmatched('NOT_NEEDED'); // a file id that names none of the caller's files
    if (!this.remote) return unmatched('DISABLED');

    const errors: Record<string, string> = {};
    let work: BibliographicWork | null = null;
    for (const id of ids) {
      signal.throwIfAborted();
      try {
        work = await this.remote.lookup(id, signal);
      } catch (err) {
        if (!(err instanceof RemoteLookupError)) throw err;
        errors[identifierLabel(id)] = err.message;
        this.logger.warn({ err, lookup: identifierLabel(id) }, 'find-similar remote lookup failed');
      }
      if (work) break;
    }
    const failed = Object.keys(errors).length ? { lookupErrors: errors, error: Object.values(errors)[0] } : {};
    if (!work) return unmatched(Object.keys(errors).length ? 'FAILED' : 'NOT_FOUND', failed);

    const ranked = await this.rpc.call(
      SimilarFilesByWork,
      {
        title: work.title.slice(0, 2000),
        abstract: work.abstract?.slice(0, 20_000),
        authors: work.authors.slice(0, 500),
        keywords: work.keywords.slice(0, 200),
        doi: work.doi,
        ...limits,
      },
      ctx,
    );
    return {
      source,
      files: [...(ranked.source ? [ranked.source] : []), ...ranked.similar],
      metadataOnly: [{ searchResultId: work.id, ontologies: workOntologies(work, this.remote.name), provider: this.remote.name }],
      match: 'REMOTE',
      remoteSearch: 'FOUND',
      ...failed,
    };
  }
}
