import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsDefined, IsIn, IsOptional, IsString, MaxLength, ValidateIf, ValidateNested } from 'class-validator';
import { FILE_SORT_FIELDS, OwnerProfileDto, type FileSortField } from './files';
import { EntityIdDto, UserIdDto } from './identifiers';
import { PageDto, PageQueryDto, type Page } from './paging';
import { IsNonEmptyText } from './text-rules';

export const COLLECTION_SORT_FIELDS = ['name', 'createdTime', 'filesCount'] as const;
export type CollectionSortField = (typeof COLLECTION_SORT_FIELDS)[number];

export const MAX_COLLECTION_NAME = 200;
export const MAX_COLLECTION_DESCRIPTION = 4000;
export const MAX_COLLECTION_ICON = 200;

/** A named group of IndexedFiles in a namespace. A file may be in several collections. */
export class CollectionDto {
  @ApiProperty({ type: EntityIdDto, description: 'entityType COLLECTION' })
  id: EntityIdDto;

  @ApiProperty({ type: 'integer', format: 'int64', description: 'Epoch milliseconds' })
  createdTime: number;

  @ApiProperty({ type: UserIdDto, description: 'The user who created it; only they may update or delete it' })
  owner: UserIdDto;

  @ApiProperty({ type: EntityIdDto, description: 'entityType POLICY' })
  policy: EntityIdDto;

  @ApiProperty()
  name: string;

  @ApiPropertyOptional({ type: 'string', nullable: true })
  description: string | null;

  @ApiPropertyOptional({ type: 'string', nullable: true })
  icon: string | null;

  @ApiProperty() ownerFirstName: string;
  @ApiProperty() ownerLastName: string;
  @ApiProperty() ownerEmail: string;
  @ApiProperty() ownerAvatarUrl: string;

  @ApiProperty({ type: 'integer', format: 'int64' })
  filesCount: number;

  @ApiPropertyOptional({ type: EntityIdDto, nullable: true })
  derivedFromCollectionId: EntityIdDto | null;

  @ApiPropertyOptional({ type: 'string', nullable: true })
  derivedFromCollectionName: string | null;

  @ApiPropertyOptional({ type: EntityIdDto, nullable: true })
  derivedFromViewId: EntityIdDto | null;

  @ApiPropertyOptional({ type: 'string', nullable: true })
  derivedFromViewName: string | null;

  @ApiProperty()
  chained: boolean;

  @ApiPropertyOptional({ type: EntityIdDto, nullable: true })
  derivedToCollectionId: EntityIdDto | null;

  @ApiPropertyOptional({ type: 'string', nullable: true })
  derivedToCollectionName: string | null;
}

export const CollectionPageDto = PageDto(CollectionDto, 'CollectionPageDto');
export type CollectionPageDto = Page<CollectionDto>;

export class ListCollectionsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ description: `Sort field: ${COLLECTION_SORT_FIELDS.join(', ')}`, default: 'name' })
  @IsOptional()
  @IsIn(COLLECTION_SORT_FIELDS, { message: `must be one of ${COLLECTION_SORT_FIELDS.join(', ')}` })
  sortBy?: CollectionSortField;
}

/** GET /collections/{id}/files: same sort fields as GET /files; q filters on file names. */
export class ListCollectionFilesQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ description: `Sort field: ${FILE_SORT_FIELDS.join(', ')}`, default: 'name' })
  @IsOptional()
  @IsIn(FILE_SORT_FIELDS, { message: `must be one of ${FILE_SORT_FIELDS.join(', ')}` })
  sortBy?: FileSortField;
}

export class CreateCollectionRequestDto {
  @ApiProperty({ example: 'Clinical trials 2024' })
  @IsNonEmptyText(MAX_COLLECTION_NAME)
  name: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString({ message: 'must be a string' })
  @MaxLength(MAX_COLLECTION_DESCRIPTION, { message: `must be at most ${MAX_COLLECTION_DESCRIPTION} characters` })
  description?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString({ message: 'must be a string' })
  @MaxLength(MAX_COLLECTION_ICON, { message: `must be at most ${MAX_COLLECTION_ICON} characters` })
  icon?: string;
}

/**
 * Only the fields present change. `name` cannot be cleared; `description` and `icon` are cleared
 * with null.
 */
export class UpdateCollectionRequestDto {
  @ApiPropertyOptional()
  @ValidateIf((o: UpdateCollectionRequestDto) => o.name !== undefined)
  @IsNonEmptyText(MAX_COLLECTION_NAME)
  name?: string;

  @ApiPropertyOptional({ type: 'string', nullable: true })
  @IsOptional()
  @IsString({ message: 'must be a string' })
  @MaxLength(MAX_COLLECTION_DESCRIPTION, { message: `must be at most ${MAX_COLLECTION_DESCRIPTION} characters` })
  description?: string | null;

  @ApiPropertyOptional({ type: 'string', nullable: true })
  @IsOptional()
  @IsString({ message: 'must be a string' })
  @MaxLength(MAX_COLLECTION_ICON, { message: `must be at most ${MAX_COLLECTION_ICON} characters` })
  icon?: string | null;
}

export class AddFileToCollectionRequestDto {
  @ApiProperty({ description: 'IndexedFile ID to add to the collection', example: 'a1b2c3d4-e5f6-7890-abcd-ef1234567890' })
  @IsString({ message: 'must be a string' })
  @MaxLength(200)
  fileId: string;
}

// NATS payloads of the indexing.collections.* subjects.

export class CollectionRefRequest {
  @IsString()
  @MaxLength(200)
  collectionId: string;
}

export class CreateCollectionRequest extends CreateCollectionRequestDto {
  @ValidateNested()
  @Type(() => OwnerProfileDto)
  @IsDefined()
  owner: OwnerProfileDto;
}

export class UpdateCollectionRequest extends UpdateCollectionRequestDto {
  @IsString()
  @MaxLength(200)
  collectionId: string;
}

export class ListCollectionFilesRequest extends ListCollectionFilesQueryDto {
  @IsString()
  @MaxLength(200)
  collectionId: string;
}

export class AddFileToCollectionRequest extends AddFileToCollectionRequestDto {
  @IsString()
  @MaxLength(200)
  collectionId: string;
}

export class RemoveFileFromCollectionRequest {
  @IsString()
  @MaxLength(200)
  collectionId: string;

  @IsString()
  @MaxLength(200)
  fileId: string;
}
