import { ApiExtraModels, ApiProperty, ApiPropertyOptional, ApiSchema, getSchemaPath } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  IsBoolean,
  IsDefined,
  IsIn,
  IsOptional,
  IsString,
  MaxLength,
  ValidateBy,
  ValidateNested,
  type ValidationOptions,
} from 'class-validator';
import type { ErrorDetail } from './errors';
import { EntityIdDto, UserIdDto } from './identifiers';
import { keyExtension, keyProblems } from './item-keys';
import { PageDto, RequiredPageQueryDto, type Page } from './paging';

/** The extensions POST /files accepts, canonical lower case without the dot. */
export const SUPPORTED_EXTENSIONS = [
  'pdf',
  'txt',
  'html',
  'htm',
  'doc',
  'docx',
  'csv',
  'xlsx',
  'xls',
  'ods',
  'jpg',
  'jpeg',
  'png',
  'webp',
  'bmp',
  'tiff',
  'json',
  'xml',
] as const;
export type SupportedExtension = (typeof SUPPORTED_EXTENSIONS)[number];

export const INDEXATION_STATUSES = ['PENDING', 'RUNNING', 'SUCCESS', 'FAILED', 'ABORTED'] as const;
export type IndexationStatus = (typeof INDEXATION_STATUSES)[number];

export const FILE_SORT_FIELDS = ['name', 'path', 'createdTime', 'size'] as const;
export type FileSortField = (typeof FILE_SORT_FIELDS)[number];

const SUPPORTED_LIST = SUPPORTED_EXTENSIONS.join(', ');

/**
 * Checks the key of a file to index: a valid file key (not ending in '/') whose extension is one
 * of the supported ones. Returns the problems, empty when the key is fine.
 */
export function indexableKeyProblems(key: unknown, field = 'key'): ErrorDetail[] {
  const problems = keyProblems(key, 'file', field);
  if (problems.length) return problems;
  const ext = keyExtension(key as string);
  if (!ext) return [{ field, problem: `has no file extension; supported extensions: ${SUPPORTED_LIST}` }];
  if (!(SUPPORTED_EXTENSIONS as readonly string[]).includes(ext)) {
    return [{ field, problem: `has the unsupported extension .${ext}; supported extensions: ${SUPPORTED_LIST}` }];
  }
  return [];
}

/** class-validator rule around indexableKeyProblems, so the gateway answers 400 before any RPC. */
export const IsIndexableKey = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isIndexableKey',
      validator: {
        validate: (value: unknown) => indexableKeyProblems(value).length === 0,
        defaultMessage: (args) => indexableKeyProblems(args?.value)[0]?.problem ?? 'is not a valid file key',
      },
    },
    options,
  );

const upper = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.toUpperCase() : value);
/** Query strings carry 'true'/'false'; anything else stays as it is and fails IsBoolean. */
const toBoolean = ({ value }: { value: unknown }) => {
  const v = typeof value === 'string' ? value.toLowerCase() : value;
  return v === 'true' ? true : v === 'false' ? false : value;
};

/** `lastIndexationInfos`: where the file is in its indexation. */
export class IndexationInfosDto {
  @ApiProperty({ enum: INDEXATION_STATUSES })
  status: IndexationStatus;

  @ApiPropertyOptional({ type: 'string', nullable: true, description: 'Why the last run FAILED; null otherwise' })
  errorMessage: string | null;

  @ApiPropertyOptional({ type: 'string', nullable: true, description: 'Always null: failures are explained in errorMessage' })
  errorTraceback: string | null;
}

/**
 * An indexed document, created from a provider item. `key` and `lastMergeJob` are sent as the
 * interface lists them but stay out of the OpenAPI properties, which follow the reference schema.
 */
@ApiSchema({
  description:
    'An indexed document. Besides the properties below, every IndexedFile also carries `key` (the full provider item key, equal to `path`) ' +
    'and `lastMergeJob` (null), as the service interface lists them.',
})
export class IndexedFileDto {
  @ApiProperty({ type: EntityIdDto, description: 'entityType FILE' })
  id: EntityIdDto;

  @ApiProperty({ type: 'integer', format: 'int64', description: 'Epoch milliseconds' })
  createdTime: number;

  @ApiProperty({ type: UserIdDto, description: 'The user who created it' })
  owner: UserIdDto;

  @ApiProperty({ type: EntityIdDto, description: 'entityType POLICY' })
  policy: EntityIdDto;

  @ApiProperty({ type: EntityIdDto, description: 'entityType PROVIDER' })
  providerId: EntityIdDto;

  @ApiProperty({ description: 'File name: the last segment of the key', example: 'report.pdf' })
  name: string;

  @ApiProperty({ description: 'Full path of the item in its provider (the same as key)', example: 'documents/report.pdf' })
  path: string;

  /** The full provider item key (what the reference client reads besides path). */
  key: string;

  @ApiProperty({ type: 'integer', format: 'int64', nullable: true, description: 'Bytes' })
  size: number | null;

  @ApiPropertyOptional({
    type: 'string',
    nullable: true,
    description: 'SHA-256 of the content, hex; null until the content has been read by indexation',
  })
  checksum: string | null;

  @ApiPropertyOptional({ type: 'string', nullable: true })
  mediaType: string | null;

  @ApiProperty({ example: 'pdf' })
  extension: string;

  @ApiProperty({ description: 'True once an indexation has completed and the document can be read' })
  indexed: boolean;

  @ApiProperty()
  matchComputed: boolean;

  @ApiProperty()
  displayName: string;

  @ApiProperty()
  dbName: string;

  @ApiProperty({ type: IndexationInfosDto })
  lastIndexationInfos: IndexationInfosDto;

  @ApiProperty() ownerFirstName: string;
  @ApiProperty() ownerLastName: string;
  @ApiProperty() ownerEmail: string;
  @ApiProperty() ownerAvatarUrl: string;

  @ApiProperty()
  providerName: string;

  @ApiProperty({ type: 'object', additionalProperties: true })
  additionalInfo: Record<string, unknown>;

  @ApiProperty({ type: 'object', additionalProperties: true })
  additionalInfos: Record<string, unknown>;

  @ApiPropertyOptional({ type: 'string', nullable: true })
  description: string | null;

  @ApiPropertyOptional({ type: 'string', nullable: true })
  authors: string | null;

  @ApiPropertyOptional({ type: 'string', nullable: true })
  title: string | null;

  /** Merges of duplicate files do not exist yet: always null. */
  lastMergeJob: Record<string, unknown> | null;

  @ApiProperty({ enum: ['FILE'] })
  type: 'FILE';
}

export const IndexedFilePageDto = PageDto(IndexedFileDto, 'IndexedFilePageDto');
export type IndexedFilePageDto = Page<IndexedFileDto>;

/** GET /files: the files of one provider; page and pageSize are required there. */
export class ListFilesQueryDto extends RequiredPageQueryDto {
  @ApiProperty({ description: 'Provider ID' })
  @IsDefined({ message: 'is required' })
  @IsString({ message: 'must be a string' })
  @MaxLength(200)
  providerId: string;

  @ApiPropertyOptional({ description: `Sort property: ${FILE_SORT_FIELDS.join(', ')}`, default: 'name' })
  @IsOptional()
  @IsIn(FILE_SORT_FIELDS, { message: `must be one of ${FILE_SORT_FIELDS.join(', ')}` })
  sortProperty?: FileSortField;

  @ApiPropertyOptional({ description: 'Sort order: ASC or DESC (any case)', default: 'ASC' })
  @IsOptional()
  @Transform(upper)
  @IsIn(['ASC', 'DESC'], { message: 'must be ASC or DESC' })
  sortOrder?: 'ASC' | 'DESC';

  @ApiPropertyOptional({ description: 'Extension: only files whose name contains this text (any case)', maxLength: 200 })
  @IsOptional()
  @IsString({ message: 'must be a string' })
  @MaxLength(200)
  q?: string;

  @ApiPropertyOptional({
    description: "Extension: only files whose key starts with this (a folder such as 'reports/2026/')",
    maxLength: 4096,
  })
  @IsOptional()
  @IsString({ message: 'must be a string' })
  @MaxLength(4096)
  keyPrefix?: string;
}

export class CreateFileRequestDto {
  @ApiProperty({ description: 'Source provider ID', example: '01a91a21-3136-4094-96da-ded4dce3824f' })
  @IsDefined({ message: 'is required' })
  @IsString({ message: 'must be a string' })
  @MaxLength(200)
  providerId: string;

  @ApiProperty({
    description: `Full file key (must not end with '/'); extension one of ${SUPPORTED_LIST}`,
    example: 'documents/report.pdf',
  })
  @IsIndexableKey()
  key: string;
}

/** Who creates a resource, as shown beside it (ownerEmail, ...). The gateway fills it from the token. */
export class OwnerProfileDto {
  @IsString()
  @MaxLength(320)
  email: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  firstName?: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  lastName?: string;

  @IsOptional()
  @IsString()
  @MaxLength(2048)
  avatarUrl?: string;
}

/** indexing.files.create */
export class CreateIndexedFileRequest extends CreateFileRequestDto {
  @ValidateNested()
  @Type(() => OwnerProfileDto)
  @IsDefined()
  owner: OwnerProfileDto;
}

/** get, delete, ontologies, recompute-ontologies. An id that is not a UUID names no file (404), so it is not rejected here. */
export class FileRefRequest {
  @IsString()
  @MaxLength(200)
  fileId: string;
}

export class ReindexQueryDto {
  @ApiPropertyOptional({ description: 'Reparse document content', type: 'boolean', default: false })
  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean({ message: 'must be true or false' })
  reparse: boolean = false;
}

/** indexing.files.reindex */
export class ReindexFileRequest extends FileRefRequest {
  @IsBoolean()
  reparse: boolean;
}

/** One ontology meta: a named value with how it was found. */
export class OntologyMetaDto {
  @ApiProperty()
  metaName: string;

  @ApiProperty({ description: 'Any JSON value' })
  metaValue: unknown;

  @ApiPropertyOptional()
  explanation?: string;

  @ApiPropertyOptional({ type: [EntityIdDto], description: 'Annotations (entityType ANNOTATION) supporting the value' })
  annotationIds?: EntityIdDto[];
}

/** A concept computed for a file (keyphrase, entity, bibliographic fact), with its metas. */
@ApiExtraModels(OntologyMetaDto)
export class OntologyDto {
  @ApiProperty({ type: EntityIdDto })
  conceptId: EntityIdDto;

  @ApiProperty()
  name: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: { $ref: getSchemaPath(OntologyMetaDto) } })
  metas?: Record<string, OntologyMetaDto>;
}
