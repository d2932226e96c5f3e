import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsIn,
  IsInt,
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
import { EntityIdDto, UserIdDto } from './identifiers';
import { IsIdList, IsNestedList, IsTextList } from './list-rules';
import type { Position } from './nodes';
import { PageDto, RequiredPageQueryDto, type Page } from './paging';
import { IsNonEmptyText } from './text-rules';

/**
 * AI jobs (QA and metadata extraction): what clients send and read, as the reference API has it
 * (reference-openapi.json: CreateQARequest, CreateExtractRequest, Job, QAJobOutputs, ExtractJobOutputs,
 * EliseAnnotation). Fields the reference lacks are marked "extension" in their descriptions.
 */

export const JOB_KINDS = ['qa', 'extraction', 'multi-dim-extraction', 'find-similar', 'agent'] as const;
export type JobKind = (typeof JOB_KINDS)[number];

/** The Job's taskType per kind. */
export const JOB_TASK_TYPES: Record<JobKind, string> = {
  qa: 'QA',
  extraction: 'EXTRACTION',
  'multi-dim-extraction': 'MULTI_DIM_EXTRACTION',
  'find-similar': 'FIND_SIMILAR',
  agent: 'AGENT',
};

/** The statuses of QA and extraction jobs (the reference's Job). */
export const JOB_STATUSES = ['PENDING', 'RUNNING', 'SUCCESS', 'FAILED', 'ABORTED'] as const;
/** Any job's status: a successful find-similar job ends COMPLETED instead of SUCCESS (interface.md). */
export type JobStatus = (typeof JOB_STATUSES)[number] | 'COMPLETED';
export const TERMINAL_JOB_STATUSES: readonly JobStatus[] = ['SUCCESS', 'COMPLETED', 'FAILED', 'ABORTED'];

export const ANSWER_DATA_TYPES = ['STRING', 'INT', 'FLOAT', 'BOOL', 'DATE', 'ENUM'] as const;
export type AnswerDataType = (typeof ANSWER_DATA_TYPES)[number];
export const DATE_FORMATS = ['ISO', 'EUR', 'US'] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];
export const DECIMAL_PRECISIONS = [
  'ZERO_DECIMALS',
  'ONE_DECIMAL',
  'TWO_DECIMALS',
  'THREE_DECIMALS',
  'FOUR_DECIMALS',
  'FIVE_DECIMALS',
] as const;
export type DecimalPrecision = (typeof DECIMAL_PRECISIONS)[number];

/** Limits of one job's input: large enough for real work, small enough that one request cannot stall a service. */
export const JOB_LIMITS = {
  questions: 100,
  metas: 100,
  fileIds: 1000,
  collectionIds: 100,
  /** Files a job may cover after collections are expanded. */
  files: 1000,
  questionChars: 4000,
  enumValues: 200,
  enumValueChars: 500,
  inputQuestionIds: 50,
  idChars: 200,
} as const;

/**
 * The Idempotency-Key header of every job create (visible ASCII): the same key with the same body
 * returns the job the first request created, so a client may retry a create that timed out.
 */
export const JOB_IDEMPOTENCY_KEY = { maxChars: 200, pattern: /^[\x21-\x7e]+$/ } as const;

/** The Idempotency-Key as a create call carries it from the gateway (checked there; checked again here, for other callers). */
export function IsIdempotencyKey(): PropertyDecorator {
  return (target, key) => {
    IsOptional()(target, key);
    IsString()(target, key);
    MaxLength(JOB_IDEMPOTENCY_KEY.maxChars)(target, key);
    Matches(JOB_IDEMPOTENCY_KEY.pattern)(target, key);
  };
}

const upper = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.toUpperCase() : value);

/** The type an answer must have (ExpectedAnswerTypeDto). */
export class AnswerTypeDto {
  @ApiProperty({ enum: ANSWER_DATA_TYPES, default: 'STRING' })
  @IsIn(ANSWER_DATA_TYPES, { message: `must be one of ${ANSWER_DATA_TYPES.join(', ')}` })
  dataType: AnswerDataType;

  @ApiPropertyOptional({ description: 'A list of values instead of one', default: false })
  @IsOptional()
  @IsBoolean({ message: 'must be true or false' })
  multiValued?: boolean;

  @ApiPropertyOptional({ type: [String], description: 'List of possible values for enum types (required for ENUM)' })
  @IsOptional()
  @IsTextList(JOB_LIMITS.enumValues, JOB_LIMITS.enumValueChars)
  enumValues?: string[];

  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' }, description: 'Accepted and kept; not used' })
  @IsOptional()
  enumColors?: Record<string, string>;

  @ApiPropertyOptional({ description: 'Accepted and kept; not used' })
  @IsOptional()
  @IsBoolean({ message: 'must be true or false' })
  enumSuggestionsEnabled?: boolean;

  @ApiPropertyOptional({ type: [String], description: 'Values an ENUM answer must not take' })
  @IsOptional()
  @IsArray({ message: 'must be an array' })
  @ArrayMaxSize(JOB_LIMITS.enumValues)
  @IsString({ each: true, message: 'must be strings' })
  @MaxLength(JOB_LIMITS.enumValueChars, { each: true })
  rejectedEnumValues?: string[];

  @ApiPropertyOptional({ enum: DATE_FORMATS, description: 'How DATE answers are written in rawValue (the typed value is ISO 8601)' })
  @IsOptional()
  @Transform(upper)
  @IsIn(DATE_FORMATS, { message: `must be one of ${DATE_FORMATS.join(', ')}` })
  dateFormat?: DateFormat;

  @ApiPropertyOptional({ enum: DECIMAL_PRECISIONS, description: 'Rounding of FLOAT answers' })
  @IsOptional()
  @Transform(upper)
  @IsIn(DECIMAL_PRECISIONS, { message: `must be one of ${DECIMAL_PRECISIONS.join(', ')}` })
  decimalPrecision?: DecimalPrecision;
}

/** The answer type a question has when it names none. */
export const DEFAULT_ANSWER_TYPE: AnswerTypeDto = { dataType: 'STRING', multiValued: false };

export class FilesInputDto {
  @ApiPropertyOptional({ type: [String], description: 'IndexedFile ids' })
  @IsOptional()
  @IsIdList(JOB_LIMITS.fileIds)
  fileIds?: string[];

  @ApiPropertyOptional({ type: [String], description: 'Collection ids, expanded to their files' })
  @IsOptional()
  @IsIdList(JOB_LIMITS.collectionIds)
  collectionIds?: string[];
}

export class JobLaunchConfigDto {
  @ApiPropertyOptional({ description: 'Leave out files that are not indexed instead of refusing the job', default: false })
  @IsOptional()
  @IsBoolean({ message: 'must be true or false' })
  skip_unindexed_files?: boolean;
}

/** A QA question (EliseQuestionInput). */
export class QuestionInputDto {
  @ApiPropertyOptional({ description: 'Id of the question within the job (default: its 1-based position); inputQuestionIds name it' })
  @IsOptional()
  @IsNonEmptyText(JOB_LIMITS.idChars)
  id?: string;

  @ApiProperty({ description: 'The question' })
  @IsDefined({ message: 'is required' })
  @IsNonEmptyText(JOB_LIMITS.questionChars)
  question: string;

  @ApiPropertyOptional({ type: AnswerTypeDto, description: 'Default: STRING, single-valued' })
  @IsOptional()
  @ValidateNested()
  @Type(() => AnswerTypeDto)
  answerType?: AnswerTypeDto;

  @ApiPropertyOptional({ description: 'Extra instructions; the built-in engine reads their words as context' })
  @IsOptional()
  @IsString({ message: 'must be a string' })
  @MaxLength(JOB_LIMITS.questionChars)
  guidelines?: string;

  @ApiPropertyOptional({ description: 'The answer expected; the result says whether the answer matches it' })
  @IsOptional()
  @IsString({ message: 'must be a string' })
  @MaxLength(JOB_LIMITS.questionChars)
  expectedAnswer?: string;

  @ApiPropertyOptional({ type: [String], description: 'Ids of questions of this job whose answers this question sees' })
  @IsOptional()
  @IsArray({ message: 'must be an array' })
  @ArrayMaxSize(JOB_LIMITS.inputQuestionIds)
  @IsString({ each: true, message: 'must be strings' })
  @MaxLength(JOB_LIMITS.idChars, { each: true })
  inputQuestionIds?: string[];
}

/** An extraction meta (EliseMetaInput). */
export class MetaInputDto {
  @ApiProperty({ description: 'Name of the value to extract, e.g. "contract end date"' })
  @IsDefined({ message: 'is required' })
  @IsNonEmptyText(JOB_LIMITS.idChars)
  meta: string;

  @ApiPropertyOptional({ description: 'What the value is, in words; used as the question' })
  @IsOptional()
  @IsString({ message: 'must be a string' })
  @MaxLength(JOB_LIMITS.questionChars)
  description?: string;

  @ApiPropertyOptional({ type: AnswerTypeDto, description: 'Default: STRING, single-valued' })
  @IsOptional()
  @ValidateNested()
  @Type(() => AnswerTypeDto)
  answerType?: AnswerTypeDto;
}

export class CreateJobBase {
  @ApiProperty({ type: FilesInputDto })
  @IsDefined({ message: 'is required' })
  @ValidateNested()
  @Type(() => FilesInputDto)
  files: FilesInputDto;

  @ApiPropertyOptional({
    type: JobLaunchConfigDto,
    description: 'Extension of the reference OpenAPI document (the interface has it): launch options',
  })
  @IsOptional()
  @ValidateNested()
  @Type(() => JobLaunchConfigDto)
  config?: JobLaunchConfigDto;

  @ApiPropertyOptional({ description: 'Extension: a name for the job (default: from its first question or meta)' })
  @IsOptional()
  @IsString({ message: 'must be a string' })
  @MaxLength(JOB_LIMITS.idChars)
  name?: string;
}

/** POST /qa/jobs (CreateQARequest). */
export class CreateQaJobRequestDto extends CreateJobBase {
  @ApiProperty({ type: [QuestionInputDto] })
  @IsDefined({ message: 'is required' })
  @IsNestedList(QuestionInputDto, JOB_LIMITS.questions, 'question')
  questions: QuestionInputDto[];
}

/** POST /extraction/jobs (CreateExtractRequest). */
export class CreateExtractionJobRequestDto extends CreateJobBase {
  @ApiProperty({ type: [MetaInputDto] })
  @IsDefined({ message: 'is required' })
  @IsNestedList(MetaInputDto, JOB_LIMITS.metas, 'meta')
  metas: MetaInputDto[];
}

/** Extension: how far a job has come. A unit is one question (QA) or one file (extraction). */
export class JobProgressDto {
  @ApiProperty({ description: 'Units of work of the job' })
  total: number;

  @ApiProperty({ description: 'Units answered' })
  done: number;

  @ApiProperty({ description: 'Units that failed (their answers say why)' })
  failed: number;

  @ApiProperty({ description: 'Units being worked on now' })
  running: number;

  @ApiProperty({ description: 'Questions (QA) or metas x files (extraction) answered so far' })
  answered: number;
}

/** The Job, as every job route returns it. */
export class JobDto {
  @ApiProperty()
  jobId: string;

  @ApiProperty({ enum: JOB_STATUSES })
  status: JobStatus;

  @ApiProperty({ description: 'QA or EXTRACTION' })
  taskType: string;

  @ApiProperty({ type: 'integer', format: 'int64', description: 'Epoch milliseconds' })
  createdTime: number;

  @ApiPropertyOptional({ type: 'number', format: 'double', description: 'Seconds from start to end (so far, while running)' })
  executionTime?: number;

  @ApiPropertyOptional({ description: 'Why the job failed or was aborted' })
  errorMessage?: string;

  @ApiProperty()
  name: string;

  @ApiProperty()
  archived: boolean;

  @ApiPropertyOptional({ type: 'integer', format: 'int64', description: 'Extension: epoch ms of the last change' })
  modifiedTime?: number;

  @ApiPropertyOptional({ type: JobProgressDto, description: 'Extension: progress of the job' })
  progress?: JobProgressDto;
}

export const JobPageDto = PageDto(JobDto, 'PageDataJob');
export type JobPageDto = Page<JobDto>;

export const JOB_SORT_FIELDS = ['createdTime', 'name', 'status'] as const;
export type JobSortField = (typeof JOB_SORT_FIELDS)[number];

/** GET /K/jobs. */
export class ListJobsQueryDto extends RequiredPageQueryDto {
  @ApiPropertyOptional({ description: `Sort property: ${JOB_SORT_FIELDS.join(', ')}`, default: 'createdTime' })
  @IsOptional()
  @IsIn(JOB_SORT_FIELDS, { message: `must be one of ${JOB_SORT_FIELDS.join(', ')}` })
  sortProperty?: JobSortField;

  @ApiPropertyOptional({ description: 'Sort order: ASC or DESC (any case)', default: 'DESC' })
  @IsOptional()
  @Transform(upper)
  @IsIn(['ASC', 'DESC'], { message: 'must be ASC or DESC' })
  sortOrder?: 'ASC' | 'DESC';
}

/** A typed value (DataValue): exactly one field is set. Dates are ISO 8601 date-times (UTC midnight). */
export class DataValueDto {
  @ApiPropertyOptional() strValue?: string;
  @ApiPropertyOptional() boolValue?: boolean;
  @ApiPropertyOptional({ type: 'integer', format: 'int64' }) longValue?: number;
  @ApiPropertyOptional({ type: 'number', format: 'double' }) doubleValue?: number;
  @ApiPropertyOptional({ type: 'string', format: 'date-time' }) dateValue?: string;
  @ApiPropertyOptional({ type: [String] }) strListValue?: string[];
  @ApiPropertyOptional({ type: [Boolean] }) boolListValue?: boolean[];
  @ApiPropertyOptional({ type: 'array', items: { type: 'integer', format: 'int64' } }) longListValue?: number[];
  @ApiPropertyOptional({ type: 'array', items: { type: 'number', format: 'double' } }) doubleListValue?: number[];
  @ApiPropertyOptional({ type: [String] }) dateListValue?: string[];
}
export type DataValue = DataValueDto;

/** One QA answer (EliseQAResult). */
export class QaResultDto {
  @ApiProperty() question: string;
  @ApiProperty({ description: 'The answer as text; empty when not found' }) rawValue: string;
  @ApiProperty({ description: 'How the answer was found, or why none was' }) explanation: string;
  @ApiProperty({ description: 'The passage the answer was read from' }) sourcedContent: string;
  @ApiProperty({ type: [EntityIdDto], description: 'Annotations (citations), resolved by GET /qa/jobs/{jobId}/annotations' })
  referenceIds: EntityIdDto[];
  @ApiPropertyOptional() expectedAnswer?: string;
  @ApiPropertyOptional({ type: 'number', format: 'float', description: '1 when the answer matches expectedAnswer, 0 when not' })
  answerValidity?: number;
  @ApiPropertyOptional() validityExplaination?: string;
  @ApiProperty({ type: [String] }) inputQuestionIds: string[];
  @ApiProperty({ description: 'Extension: the question id' }) questionId: string;
  @ApiPropertyOptional({ type: DataValueDto, description: 'Extension: the answer parsed into its answerType' }) answer?: DataValueDto;
  @ApiProperty({ description: 'Extension: false when no answer was found (rawValue is then empty)' }) found: boolean;
  @ApiProperty({ type: 'number', format: 'float', description: 'Extension: confidence 0..1' }) confidence: number;
  @ApiPropertyOptional({
    description:
      'Extension: the engine that answered: builtin, local-onnx:<model> or llm:<model>; absent when no engine was asked (no indexed file, a failed question)',
  })
  engine?: string;
}

export class QaJobOutputsDto {
  @ApiProperty({ type: [QaResultDto] }) results: QaResultDto[];
}

/** One extracted value of one file (EliseMetaResult). */
export class MetaResultDto {
  @ApiProperty({ type: 'string', format: 'uuid', description: 'Id of this result' }) id: string;
  @ApiProperty() meta: string;
  @ApiProperty({ type: AnswerTypeDto }) answerType: AnswerTypeDto;
  @ApiProperty({ type: DataValueDto, description: 'The typed value; {} when not found' }) answer: DataValueDto;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description: 'The value as found in the document (a string), or null',
  })
  rawValue: string | null;
  @ApiProperty() explanation: string;
  @ApiProperty({ type: [EntityIdDto] }) referenceIds: EntityIdDto[];
  @ApiProperty({ description: 'Extension: the file the value was extracted from' }) fileId: string;
  @ApiProperty({ description: 'Extension: false when no value was found' }) found: boolean;
  @ApiProperty({ type: 'number', format: 'float', description: 'Extension: confidence 0..1' }) confidence: number;
}

export class ExtractionJobOutputsDto {
  @ApiProperty({ type: [MetaResultDto] }) results: MetaResultDto[];
}

export class QaJobInputsDto {
  @ApiProperty({ type: FilesInputDto }) files: FilesInputDto;
  @ApiProperty({ type: [QuestionInputDto] }) questions: QuestionInputDto[];
  @ApiPropertyOptional({ type: JobLaunchConfigDto, description: 'Extension: the launch options given' }) config?: JobLaunchConfigDto;
}

export class ExtractionJobInputsDto {
  @ApiProperty({ type: FilesInputDto }) files: FilesInputDto;
  @ApiProperty({ type: [MetaInputDto] }) metas: MetaInputDto[];
  @ApiPropertyOptional({ type: JobLaunchConfigDto, description: 'Extension: the launch options given' }) config?: JobLaunchConfigDto;
}

/** A citation: where in which document an answer was read (EliseDocumentStatement). */
export class DocumentStatementDto {
  @ApiProperty({ enum: ['DOCUMENT_STATEMENT'] }) type: 'DOCUMENT_STATEMENT';
  @ApiProperty({ description: 'The text cited' }) content: string;
  @ApiProperty() documentName: string;
  @ApiProperty({ description: 'The IndexedFile id' }) documentId: string;
  @ApiProperty({
    type: 'array',
    items: { type: 'object' },
    description:
      'BBOX {page_number, bbox} for PDFs and images, CELL {sheet_name, row, col} for spreadsheets, LINE {line_number, column_index_start, column_index_stop} for text, CSV, JSON, XML and HTML (lines of the source), PARAGRAPH {paragraph_index, column_index_start, column_index_stop} for DOCX and DOC',
  })
  positions: Position[];
  @ApiPropertyOptional({ description: 'Extension: the document node cited' }) nodeId?: string;
  @ApiPropertyOptional({ description: 'Extension: the words of `content` the answer was read from, when narrower than the node' })
  quote?: string;
}

/** An annotation (EliseAnnotation). */
export class AnnotationDto {
  @ApiProperty({ type: EntityIdDto }) id: EntityIdDto;
  @ApiProperty({ type: 'integer', format: 'int64' }) createdTime: number;
  @ApiProperty({ type: 'integer', format: 'int64' }) modifiedTime: number;
  @ApiProperty({ type: UserIdDto }) owner: UserIdDto;
  @ApiProperty({ type: UserIdDto }) lastModifier: UserIdDto;
  @ApiProperty({ type: EntityIdDto, description: 'The job the annotation belongs to' }) space: EntityIdDto;
  @ApiProperty({ enum: ['DOCUMENT_STATEMENT'] }) type: 'DOCUMENT_STATEMENT';
  @ApiProperty({ enum: ['VALID', 'NOTVALID'] }) status: 'VALID' | 'NOTVALID';
  @ApiProperty({ type: DocumentStatementDto }) data: DocumentStatementDto;
}

// ---- NATS payloads (gateway -> job-orchestrator) ----

/** jobs.qa.create: the body, with the Idempotency-Key header the gateway read. */
export class CreateQaJobRequest extends CreateQaJobRequestDto {
  @IsIdempotencyKey()
  idempotencyKey?: string;
}
/** jobs.extraction.create: the body, with the Idempotency-Key header the gateway read. */
export class CreateExtractionJobRequest extends CreateExtractionJobRequestDto {
  @IsIdempotencyKey()
  idempotencyKey?: string;
}

/** jobs.jobs.list */
export class ListJobsRequest extends ListJobsQueryDto {
  @IsIn(JOB_KINDS)
  kind: JobKind;
}

/** jobs.jobs.get / inputs / results / annotations / cancel. An id that is not a UUID names no job (404). */
export class JobRefRequest {
  @IsIn(JOB_KINDS)
  kind: JobKind;

  @IsString()
  @MaxLength(200)
  jobId: string;
}

/**
 * jobs.jobs.results / annotations, one part at a time: the units from `fromUnit` on, as many as fit
 * in one NATS message. The gateway asks for the next part (`nextUnit`) until there is none, so a
 * job of any size is answered whole over HTTP.
 */
export class JobPartRequest extends JobRefRequest {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  fromUnit?: number;
}

export interface JobPart<T> {
  items: T[];
  /** The unit to ask from next, or null when this part was the last. */
  nextUnit: number | null;
}

/** work.jobs.unit: one unit of a job is ready to run (WORK stream). */
export class JobUnitWork {
  @IsUUID()
  jobId: string;

  @Type(() => Number)
  @IsInt()
  @Min(0)
  unit: number;
}

// ---- NATS payloads (job-orchestrator -> indexing-service) ----

/** indexing.files.resolve: the files a job's FilesInput names, in the caller's namespace. */
export class ResolveFilesRequest {
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(JOB_LIMITS.fileIds)
  @IsUUID('all', { each: true })
  fileIds?: string[];

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(JOB_LIMITS.collectionIds)
  @IsUUID('all', { each: true })
  collectionIds?: string[];
}

export interface ResolvedFile {
  fileId: string;
  name: string;
  /** lastIndexationInfos.status */
  status: string;
  /** True when the file's node tree is committed and readable (status SUCCESS). */
  indexed: boolean;
}

export interface ResolveFilesReply {
  /** Every distinct file named or in a named collection, in the order first named. */
  files: ResolvedFile[];
  /** Ids that name nothing in the caller's namespace. */
  missingFileIds: string[];
  missingCollectionIds: string[];
}

/**
 * indexing.passages.search: hybrid (BM25 + dense) passage retrieval over some files of the caller's
 * namespace, or over all of its indexed files when `fileIds` is left out.
 */
export class PassageSearchRequest {
  @IsString()
  @MinLength(1)
  @MaxLength(8000)
  query: string;

  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(JOB_LIMITS.files)
  @IsUUID('all', { each: true })
  fileIds?: string[];

  /** Passages to return at most. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(200)
  limit: number;

  /** Also return passages whose text contains none of the query's terms (dense hits); default true. */
  @IsOptional()
  @IsBoolean()
  dense?: boolean;
}

/**
 * indexing.passages.around: the passage of a node of a file of the caller's namespace, with up to
 * `before` passages before it and `after` after it in reading order. A node that is not a
 * passage of its own (a cell, a heading) is read through the passage that contains it.
 */
export class PassagesAroundRequest {
  @IsUUID('all', { message: 'must be a UUID' })
  fileId: string;

  @IsString()
  @MinLength(1)
  @MaxLength(200)
  nodeId: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(20)
  before: number = 2;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(20)
  after: number = 2;
}

/** The passages in reading order; `index` is the position of the node's own passage in the list. */
export interface PassagesAroundReply {
  passages: PassageDto[];
  index: number;
}

/**
 * A piece of a passage's text that comes from one document node: `start`/`end` are character
 * offsets into the passage text. A row passage has one segment per cell, so that a citation of
 * part of the row points at the cell.
 */
export interface PassageSegment {
  nodeId: string;
  nodeType: string;
  start: number;
  end: number;
  positions: Position[];
}

export interface PassageDto {
  /** The passage id (the node id of the node it was built from). */
  id: string;
  fileId: string;
  fileName: string;
  nodeType: string;
  text: string;
  /** Headings above the passage, outermost first (context for the reader). */
  headings: string[];
  segments: PassageSegment[];
  /** Fused retrieval score, higher is better; only comparable within one reply. */
  score: number;
}

export interface PassageSearchReply {
  passages: PassageDto[];
}
