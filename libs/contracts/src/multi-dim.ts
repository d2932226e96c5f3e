import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsBoolean, IsDefined, IsIn, IsInt, IsOptional, IsString, Matches, MaxLength, Min } from 'class-validator';
import { EntityIdDto } from './identifiers';
import { CreateJobBase, FilesInputDto, IsIdempotencyKey, JOB_LIMITS } from './jobs';
import { IsNestedList, IsNestedObject, IsTextList } from './list-rules';
import { IsNonEmptyText } from './text-rules';

/**
 * Multi-dimensional (schema-based) extraction: one row per entity across the files of a job, with
 * a cell per schema column, each cited to where it was read (COMPAT.md, "Multi-dimensional
 * extraction"). The wire names types and roles with their ENTITY_COLUMN_TYPE_ / ENTITY_COLUMN_ROLE_
 * prefixes.
 */

export const ENTITY_COLUMN_TYPES = ['UNSPECIFIED', 'STRING', 'INT', 'FLOAT', 'BOOL'] as const;
export type EntityColumnTypeName = (typeof ENTITY_COLUMN_TYPES)[number];
export const ENTITY_COLUMN_ROLES = [
  'UNSPECIFIED',
  'IDENTIFIER',
  'LABEL',
  'GROUP',
  'TIMEPOINT',
  'VALUE',
  'UNIT',
  'DEFINITION',
  'COMMENT',
] as const;
export type EntityColumnRoleName = (typeof ENTITY_COLUMN_ROLES)[number];

const TYPE_PREFIX = 'ENTITY_COLUMN_TYPE_';
const ROLE_PREFIX = 'ENTITY_COLUMN_ROLE_';
export const WIRE_COLUMN_TYPES = ENTITY_COLUMN_TYPES.map((t) => `${TYPE_PREFIX}${t}`);
export const WIRE_COLUMN_ROLES = ENTITY_COLUMN_ROLES.map((r) => `${ROLE_PREFIX}${r}`);

/** "ENTITY_COLUMN_TYPE_INT" → "INT" (the short form is accepted too). */
export const columnTypeName = (wire: string | undefined): EntityColumnTypeName =>
  (wire?.startsWith(TYPE_PREFIX) ? wire.slice(TYPE_PREFIX.length) : (wire ?? 'UNSPECIFIED')) as EntityColumnTypeName;
export const columnRoleName = (wire: string | undefined): EntityColumnRoleName =>
  (wire?.startsWith(ROLE_PREFIX) ? wire.slice(ROLE_PREFIX.length) : (wire ?? 'UNSPECIFIED')) as EntityColumnRoleName;

/** Rows a file gives at most (a file's unit stores its rows and citations in one transaction). */
export const MULTI_DIM_LIMITS = { columns: 50, allowedValues: 200, rowsPerFile: 5_000 } as const;

const upper = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.toUpperCase() : value);
const prefixed =
  (prefix: string) =>
  ({ value }: { value: unknown }) =>
    typeof value === 'string' && value && !value.toUpperCase().startsWith(prefix) ? `${prefix}${value.toUpperCase()}` : upper({ value });

export class EntityColumnDto {
  @ApiProperty({ description: 'Key of the column, unique in the schema; cells name their column by it' })
  @IsDefined({ message: 'is required' })
  @IsNonEmptyText(JOB_LIMITS.idChars)
  @Matches(/^[^\s]+$/, { message: 'must not contain white space' })
  key: string;

  @ApiProperty({ description: 'What the column holds, in words ("Number of patients")' })
  @IsDefined({ message: 'is required' })
  @IsNonEmptyText(JOB_LIMITS.idChars)
  label: string;

  @ApiPropertyOptional({ enum: WIRE_COLUMN_TYPES, default: 'ENTITY_COLUMN_TYPE_STRING' })
  @IsOptional()
  @Transform(prefixed(TYPE_PREFIX))
  @IsIn(WIRE_COLUMN_TYPES, { message: `must be one of ${WIRE_COLUMN_TYPES.join(', ')}` })
  type?: string;

  @ApiPropertyOptional({ enum: WIRE_COLUMN_ROLES, default: 'ENTITY_COLUMN_ROLE_UNSPECIFIED' })
  @IsOptional()
  @Transform(prefixed(ROLE_PREFIX))
  @IsIn(WIRE_COLUMN_ROLES, { message: `must be one of ${WIRE_COLUMN_ROLES.join(', ')}` })
  role?: string;

  @ApiPropertyOptional({ description: 'More about the column; its words help find it in headers and text' })
  @IsOptional()
  @IsString({ message: 'must be a string' })
  @MaxLength(JOB_LIMITS.questionChars, { message: `must be at most ${JOB_LIMITS.questionChars} characters` })
  description?: string;

  @ApiPropertyOptional({ type: [String], description: 'When given, a cell holds one of these or nothing' })
  @IsOptional()
  @IsTextList(MULTI_DIM_LIMITS.allowedValues, JOB_LIMITS.enumValueChars)
  allowedValues?: string[];

  @ApiPropertyOptional({ description: 'Rows with equal values in every row-key column are one entity and are merged' })
  @IsOptional()
  @IsBoolean({ message: 'must be true or false' })
  isRowKey?: boolean;
}

export class EntitySchemaDto {
  @ApiProperty({ description: 'What one row is ("Trial arm", "Invoice line")' })
  @IsDefined({ message: 'is required' })
  @IsNonEmptyText(JOB_LIMITS.idChars)
  name: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString({ message: 'must be a string' })
  @MaxLength(JOB_LIMITS.questionChars, { message: `must be at most ${JOB_LIMITS.questionChars} characters` })
  description?: string;

  @ApiProperty({ type: [EntityColumnDto] })
  @IsDefined({ message: 'is required' })
  @IsNestedList(EntityColumnDto, MULTI_DIM_LIMITS.columns, 'column')
  columns: EntityColumnDto[];
}

/** POST /multi-dim-extraction/jobs: files, config and name as every job kind has them, and the schema. */
export class CreateMultiDimJobRequestDto extends CreateJobBase {
  @ApiProperty({ type: EntitySchemaDto })
  @IsDefined({ message: 'is required' })
  @IsNestedObject(EntitySchemaDto)
  schema: EntitySchemaDto;
}

export class EntityCellDto {
  @ApiProperty()
  columnKey: string;

  @ApiPropertyOptional({ description: 'Typed as the column says (number, boolean or text); null when not found', nullable: true })
  value: string | number | boolean | null;

  @ApiProperty()
  explanation: string;

  @ApiProperty({ type: [EntityIdDto], description: 'Annotations where the value was read' })
  referenceIds: EntityIdDto[];
}

export class EntityRowDto {
  @ApiProperty()
  explanation: string;

  @ApiProperty({ type: [EntityIdDto] })
  referenceIds: EntityIdDto[];

  @ApiProperty({ type: [EntityCellDto] })
  cells: EntityCellDto[];
}

export class EntityExtractionDto {
  @ApiProperty()
  metaId: string;

  @ApiProperty({ description: 'The schema name' })
  meta: string;

  @ApiProperty({ type: EntitySchemaDto })
  schema: EntitySchemaDto;

  @ApiProperty()
  explanation: string;

  @ApiProperty({ type: [EntityIdDto] })
  referenceIds: EntityIdDto[];

  @ApiProperty({ type: [EntityRowDto] })
  rows: EntityRowDto[];
}

export class MultiDimJobOutputsDto {
  @ApiProperty({ type: EntityExtractionDto })
  entityExtraction: EntityExtractionDto;
}

export class MultiDimJobInputsDto {
  @ApiProperty({ type: FilesInputDto })
  files: FilesInputDto;

  @ApiProperty({ type: EntitySchemaDto })
  schema: EntitySchemaDto;
}

// ---- NATS payloads (gateway -> job-orchestrator) ----

/** jobs.multi-dim.create: the body, with the Idempotency-Key header the gateway read. */
export class CreateMultiDimJobRequest extends CreateMultiDimJobRequestDto {
  @IsIdempotencyKey()
  idempotencyKey?: string;
}

/** jobs.multi-dim.rows: the job's rows (merged across files) from `fromRow` on, as many as fit one NATS message. */
export class MultiDimRowsRequest {
  @IsString()
  @MaxLength(200)
  jobId: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  fromRow?: number;
}

export interface MultiDimRowsPart {
  /** The entity extraction without its rows and their references (the gateway joins the parts). */
  head: Omit<EntityExtractionDto, 'rows' | 'referenceIds'>;
  rows: EntityRowDto[];
  /** The row to ask from next, or null after the last. */
  nextRow: number | null;
}
