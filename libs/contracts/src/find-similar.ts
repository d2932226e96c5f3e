import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsDefined,
  IsNumber,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import type { OntologyDto } from './files';
import { IsIdempotencyKey, JobProgressDto, ListJobsQueryDto } from './jobs';
import { IsNestedList } from './list-rules';
import { PageDto, type Page } from './paging';

/**
 * Find-similar jobs (spec COMPAT.md, "Find-similar"): for each source (a document named by file
 * id, DOI or open-access id), the caller's indexed files that are that document or most similar
 * to it, and, where a remote bibliographic search is configured, the work the remote knows
 * ("metadataOnly"). Fields the spec does not list are marked "Extension" in their descriptions.
 */

export const FIND_SIMILAR_LIMITS = {
  /** Sources one job may name. */
  sources: 100,
  /** Characters of one identifier. */
  identifierChars: 300,
  /** Similar files returned per source at most (besides the source file itself). */
  filesPerSource: 50,
  /** Ontologies given per matched file: the "Document metadata" concept and the first keyphrases. */
  ontologiesPerFile: 12,
} as const;

export const FIND_SIMILAR_STATUSES = ['PENDING', 'RUNNING', 'COMPLETED', 'FAILED', 'ABORTED'] as const;
export type FindSimilarStatus = (typeof FIND_SIMILAR_STATUSES)[number];

/** A DOI as written by people: bare, `doi:10.…`, or a doi.org URL. */
const DOI_INPUT = /^(?:(?:https?:\/\/)?(?:dx\.)?doi\.org\/|doi:\s*)?10\.\d{4,9}\/\S+$/i;
/** arXiv ids, new style (2101.00001, arXiv:2101.00001v2) and old style (hep-th/9901001), and PubMed Central ids (PMC1234567). */
const ARXIV_NEW = /^(?:arxiv:\s*)?(\d{4}\.\d{4,5})(?:v\d+)?$/i;
const ARXIV_OLD = /^(?:arxiv:\s*)?([a-z-]+(?:\.[a-z]{2})?\/\d{7})(?:v\d+)?$/i;
const PMCID = /^(?:pmcid:\s*)?(pmc\d{1,10})$/i;

/** The DOI in its canonical form (lower case, no URL or `doi:` prefix, no trailing punctuation), or null when it is not one. */
export function normalizeDoi(raw: string): string | null {
  const text = raw.trim();
  if (!DOI_INPUT.test(text)) return null;
  return text
    .replace(/^(?:(?:https?:\/\/)?(?:dx\.)?doi\.org\/|doi:\s*)/i, '')
    .toLowerCase()
    .replace(/[.,;:'"\]>}]+$/, '');
}

export type OpenAccessId = { kind: 'arxiv'; id: string } | { kind: 'pmc'; id: string };

/** An arXiv id without version (`2101.00001`, `hep-th/9901001`) or a PMC id in upper case (`PMC1234567`); null when it is neither. */
export function parseOpenAccessId(raw: string): OpenAccessId | null {
  const text = raw.trim();
  const arxiv = ARXIV_NEW.exec(text) ?? ARXIV_OLD.exec(text);
  if (arxiv) return { kind: 'arxiv', id: arxiv[1].toLowerCase() };
  const pmc = PMCID.exec(text);
  return pmc ? { kind: 'pmc', id: pmc[1].toUpperCase() } : null;
}

const OPEN_ACCESS_ID = new RegExp(`${ARXIV_NEW.source}|${ARXIV_OLD.source}|${PMCID.source}`, 'i');

/** One source: a document named by file id, DOI or open-access id (at least one; the job checks that). */
export class SourceIdentifierDto {
  @ApiPropertyOptional({
    description: 'DOI of the document, bare (10.1234/abc) or as doi:… or a doi.org URL',
    example: '10.7554/eLife.56337',
  })
  @IsOptional()
  @IsString({ message: 'must be a string' })
  @MaxLength(FIND_SIMILAR_LIMITS.identifierChars, { message: `must be at most ${FIND_SIMILAR_LIMITS.identifierChars} characters` })
  @Matches(DOI_INPUT, { message: 'must be a DOI such as 10.1234/abc (optionally doi:… or https://doi.org/…)' })
  doi?: string;

  @ApiPropertyOptional({ description: 'Id of one of your indexed files (IndexedFile id)' })
  @IsOptional()
  @IsString({ message: 'must be a string' })
  @IsUUID('all', { message: 'must be a file id (a UUID)' })
  id?: string;

  @ApiPropertyOptional({
    description: 'Open-access id: an arXiv id (2101.00001, arXiv:2101.00001v2, hep-th/9901001) or a PubMed Central id (PMC1234567)',
  })
  @IsOptional()
  @IsString({ message: 'must be a string' })
  @MaxLength(FIND_SIMILAR_LIMITS.identifierChars, { message: `must be at most ${FIND_SIMILAR_LIMITS.identifierChars} characters` })
  @Matches(OPEN_ACCESS_ID, { message: 'must be an arXiv id (2101.00001, arXiv:2101.00001v2) or a PubMed Central id (PMC1234567)' })
  openAccessId?: string;
}

/** POST /find-similar/jobs. */
export class CreateFindSimilarJobRequestDto {
  @ApiProperty({
    type: [SourceIdentifierDto],
    description: `The documents to find similar files for: 1 to ${FIND_SIMILAR_LIMITS.sources}, each naming doi, id or openAccessId`,
  })
  @IsDefined({ message: 'is required' })
  @IsNestedList(SourceIdentifierDto, FIND_SIMILAR_LIMITS.sources, 'source identifier')
  sourceIdentifiers: SourceIdentifierDto[];
}

/** How much each signal contributed to a file's score (each 0..1). */
export class SimilaritySignalsDto {
  @ApiPropertyOptional({
    type: 'number',
    format: 'float',
    description: "Cosine similarity of the documents' mean node vectors (absent when either has none)",
  })
  embedding?: number;
  @ApiProperty({ type: 'number', format: 'float', description: 'Overlap of the title words' })
  title: number;
  @ApiProperty({ type: 'number', format: 'float', description: 'Overlap of the authors' })
  authors: number;
  @ApiProperty({ type: 'number', format: 'float', description: 'Overlap of the keyphrases' })
  keyphrases: number;
}

/** One of the caller's files that is the source or similar to it. */
export class FileMatchDto {
  @ApiProperty({ description: 'The IndexedFile id' }) fileId: string;
  @ApiProperty() providerId: string;
  @ApiProperty() path: string;
  @ApiProperty() name: string;
  @ApiProperty({ type: 'string', nullable: true }) checksum: string | null;
  @ApiProperty({
    type: 'array',
    items: { type: 'object' },
    description: `The file's "Document metadata" concept and first keyphrases (at most ${FIND_SIMILAR_LIMITS.ontologiesPerFile}); GET /files/{id}/ontologies has them all`,
  })
  ontologies: OntologyDto[];
  @ApiProperty({
    type: 'number',
    format: 'float',
    description: 'Extension: similarity to the source, 0..1 (1 for the source itself), best first',
  })
  score: number;
  @ApiProperty({ description: 'Extension: true when this file is the source document itself (it then comes first)' })
  isSource: boolean;
  @ApiPropertyOptional({ type: SimilaritySignalsDto, description: 'Extension: the parts of the score' })
  signals?: SimilaritySignalsDto;
}

/** A work only the remote bibliographic search knows. */
export class MetadataOnlyMatchDto {
  @ApiProperty({ description: "The remote's id of the work (for OpenAlex, https://openalex.org/W…)" }) searchResultId: string;
  @ApiProperty({
    type: 'array',
    items: { type: 'object' },
    description: 'Title, authors, DOI, year and keywords, in the shape files have them',
  })
  ontologies: OntologyDto[];
  @ApiPropertyOptional({ description: 'Extension: the bibliographic source that answered (openalex)' }) provider?: string;
}

export const SOURCE_MATCH_KINDS = ['LOCAL', 'REMOTE', 'NONE'] as const;
export type SourceMatchKind = (typeof SOURCE_MATCH_KINDS)[number];
/** Per source: whether the remote was asked and what it said. */
export const REMOTE_LOOKUP_STATUSES = ['NOT_NEEDED', 'DISABLED', 'FOUND', 'NOT_FOUND', 'FAILED'] as const;
export type RemoteLookupStatus = (typeof REMOTE_LOOKUP_STATUSES)[number];
/** Per job: NOT_NEEDED (no source needed it), DISABLED (needed but not configured), OK, PARTIAL (some lookups failed), FAILED (all failed). */
export const REMOTE_SEARCH_STATUSES = ['NOT_NEEDED', 'DISABLED', 'OK', 'PARTIAL', 'FAILED'] as const;
export type RemoteSearchStatus = (typeof REMOTE_SEARCH_STATUSES)[number];

export class SourceMatchesDto {
  @ApiProperty({ type: SourceIdentifierDto, description: 'The source as given' }) source: SourceIdentifierDto;
  @ApiProperty({
    type: [FileMatchDto],
    description: 'The source file first when it is one of your files, then the most similar files, best first',
  })
  files: FileMatchDto[];
  @ApiProperty({ type: [MetadataOnlyMatchDto] }) metadataOnly: MetadataOnlyMatchDto[];
  @ApiProperty({
    enum: SOURCE_MATCH_KINDS,
    description: 'Extension: LOCAL (the source is one of your files), REMOTE (found by the remote search), NONE',
  })
  match: SourceMatchKind;
  @ApiProperty({ enum: REMOTE_LOOKUP_STATUSES, description: 'Extension: what the remote bibliographic search did for this source' })
  remoteSearch: RemoteLookupStatus;
  @ApiPropertyOptional({ description: 'Extension: why this source could not be searched, or why the remote lookup failed' })
  error?: string;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: 'Extension: the remote lookups that failed for this source: identifier looked up (doi:…, pmcid:…) -> reason',
  })
  lookupErrors?: Record<string, string>;
}

export class FindSimilarSourcesDto {
  @ApiProperty({ type: [SourceIdentifierDto] }) sourceIdentifiers: SourceIdentifierDto[];
}

export class FindSimilarStatisticsDto {
  @ApiProperty() sourcesQueried: number;
  @ApiProperty() sourcesMatchedLocally: number;
  @ApiProperty() sourcesMatchedRemotely: number;
  @ApiProperty() sourcesUnmatched: number;
  @ApiProperty({ enum: REMOTE_SEARCH_STATUSES }) remoteSearchStatus: RemoteSearchStatus;
  @ApiProperty() totalFileMatches: number;
  @ApiProperty() totalMetadataOnlyMatches: number;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: 'Remote lookups that failed: the identifier looked up (e.g. doi:10.1/x) -> the reason',
  })
  errorsBySearchResultId: Record<string, string>;
}

/**
 * The statistics of a find-similar result: every count is over the sources searched so far (all of
 * them once the job is over). A source whose search failed counts as unmatched.
 */
export function findSimilarStatistics(result: SourceMatchesDto[]): FindSimilarStatisticsDto {
  const errorsBySearchResultId: Record<string, string> = {};
  let needed = 0;
  let disabled = 0;
  let failed = 0;
  for (const r of result) {
    Object.assign(errorsBySearchResultId, r.lookupErrors ?? {});
    if (r.remoteSearch !== 'NOT_NEEDED') needed++;
    if (r.remoteSearch === 'DISABLED') disabled++;
    if (r.remoteSearch === 'FAILED') failed++;
  }
  const remoteSearchStatus: RemoteSearchStatus =
    needed === 0
      ? 'NOT_NEEDED'
      : disabled === needed
        ? 'DISABLED'
        : failed === needed - disabled
          ? 'FAILED'
          : failed || Object.keys(errorsBySearchResultId).length
            ? 'PARTIAL'
            : 'OK';
  return {
    sourcesQueried: result.length,
    sourcesMatchedLocally: result.filter((r) => r.match === 'LOCAL').length,
    sourcesMatchedRemotely: result.filter((r) => r.match === 'REMOTE').length,
    sourcesUnmatched: result.filter((r) => r.match === 'NONE').length,
    remoteSearchStatus,
    totalFileMatches: result.reduce((n, r) => n + r.files.length, 0),
    totalMetadataOnlyMatches: result.reduce((n, r) => n + r.metadataOnly.length, 0),
    errorsBySearchResultId,
  };
}

/** The find-similar Job, as create, get and list return it. */
export class FindSimilarJobDto {
  @ApiProperty() jobId: string;
  @ApiProperty({ enum: FIND_SIMILAR_STATUSES }) status: FindSimilarStatus;
  @ApiProperty({ type: 'integer', format: 'int64', description: 'Epoch milliseconds' }) createdTime: number;
  @ApiProperty({ type: 'integer', format: 'int64', description: 'Epoch milliseconds of the last change' }) modifiedTime: number;
  @ApiPropertyOptional({ type: 'integer', format: 'int64', description: 'Milliseconds from start to end (so far, while running)' })
  executionTimeMs?: number;
  @ApiPropertyOptional({ description: 'Why the job failed or was aborted' }) errorMessage?: string;
  @ApiProperty({ type: FindSimilarSourcesDto }) sources: FindSimilarSourcesDto;
  @ApiProperty({ type: [SourceMatchesDto], description: 'One entry per source searched so far, in the order given' })
  result: SourceMatchesDto[];
  @ApiProperty({ type: FindSimilarStatisticsDto }) statistics: FindSimilarStatisticsDto;
  @ApiPropertyOptional({ description: 'Extension: FIND_SIMILAR' }) taskType?: string;
  @ApiPropertyOptional({ type: JobProgressDto, description: 'Extension: progress of the job (a unit is one source)' })
  progress?: JobProgressDto;
}

export const FindSimilarJobPageDto = PageDto(FindSimilarJobDto, 'PageDataFindSimilarJob');
export type FindSimilarJobPageDto = Page<FindSimilarJobDto>;

/** A find-similar job as the job orchestrator answers it: the result is read in parts (jobs.jobs.results) and the statistics computed from it. */
export type FindSimilarJobHead = Omit<FindSimilarJobDto, 'result' | 'statistics'>;

// ---- NATS payloads (gateway -> job-orchestrator) ----

/** jobs.find-similar.create: the body, with the Idempotency-Key header the gateway read. */
export class CreateFindSimilarJobRequest extends CreateFindSimilarJobRequestDto {
  @IsIdempotencyKey()
  idempotencyKey?: string;
}

// ---- NATS payloads (job-orchestrator -> indexing-service) ----

/** How many similar files to return, and the lowest score worth returning. */
class SimilarityLimits {
  @Type(() => Number)
  @IsNumber()
  @Min(0)
  @Max(FIND_SIMILAR_LIMITS.filesPerSource)
  limit: number;

  @Type(() => Number)
  @IsNumber()
  @Min(0)
  @Max(1)
  minScore: number;
}

/** indexing.similar.by-source: identify the source among the caller's files, and rank the others against it. */
export class SimilarFilesBySourceRequest extends SimilarityLimits {
  @ValidateNested()
  @Type(() => SourceIdentifierDto)
  source: SourceIdentifierDto;
}

/** indexing.similar.by-work: rank the caller's files against a work known by its metadata only. */
export class SimilarFilesByWorkRequest extends SimilarityLimits {
  @IsString()
  @MinLength(1)
  @MaxLength(2000)
  title: string;

  @IsOptional()
  @IsString()
  @MaxLength(20_000)
  abstract?: string;

  @IsArray()
  @ArrayMaxSize(500)
  @IsString({ each: true })
  @MaxLength(300, { each: true })
  authors: string[];

  @IsArray()
  @ArrayMaxSize(200)
  @IsString({ each: true })
  @MaxLength(300, { each: true })
  keywords: string[];

  /** A DOI of the work: a local file carrying it is the work itself. */
  @IsOptional()
  @IsString()
  @MaxLength(FIND_SIMILAR_LIMITS.identifierChars)
  doi?: string;
}

export const SOURCE_MATCHED_BY = ['id', 'doi', 'openAccessId'] as const;
export type SourceMatchedBy = (typeof SOURCE_MATCHED_BY)[number];

export interface SimilarFilesReply {
  /** The caller's file that is the source (score 1, isSource), or null. */
  source: FileMatchDto | null;
  /** Which identifier found it. */
  matchedBy: SourceMatchedBy | null;
  /** The caller's other files, best first, at most `limit`, each scoring at least `minScore`. */
  similar: FileMatchDto[];
}

/** The find-similar job's kind among JOB_KINDS. */
export const FIND_SIMILAR_KIND = 'find-similar' as const;

/** jobs.find-similar.get: a find-similar job by id (result filled in by the gateway from its parts). */
export class FindSimilarJobRefRequest {
  @IsString()
  @MaxLength(200)
  jobId: string;
}

/** jobs.find-similar.list: the caller's find-similar jobs (each one's result filled in by the gateway from its parts). */
export class ListFindSimilarJobsRequest extends ListJobsQueryDto {}
