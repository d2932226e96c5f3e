import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { MAX_MEDIA_TYPE_LENGTH } from './item-keys';
import { decimalInteger } from './paging';

export const DEFAULT_ITEMS_LIMIT = 50;
export const MAX_ITEMS_LIMIT = 1000;
export const DEFAULT_DOWNLOAD_MINUTES = 15;
export const MAX_DOWNLOAD_MINUTES = 7 * 24 * 60;

export type ProviderItemType = 'FILE' | 'FOLDER';

/** A media type without control characters (it becomes a stored Content-Type header): see mediaTypeProblems. */
const NO_CONTROL_CHARACTERS = /^[^\u0000-\u001f\u007f-\u009f]*$/;
const NO_CONTROL_MESSAGE = 'must not contain control characters (such as CR or LF)';

/** A file or folder inside a provider. Folders have no size, extension or mediaType. */
export class ProviderItemDto {
  @ApiProperty({ description: 'Provider ID' })
  providerId: string;

  @ApiProperty({ description: "Full item key. Files: 'path/to/file.pdf', Folders: 'path/to/folder/'" })
  key: string;

  @ApiProperty({ enum: ['FILE', 'FOLDER'] })
  type: ProviderItemType;

  @ApiPropertyOptional({ type: 'integer', format: 'int64', nullable: true, description: 'File size in bytes (null for folders)' })
  size?: number | null;

  @ApiPropertyOptional({ type: 'string', nullable: true, description: 'File extension, lower case, without the dot (null for folders)' })
  extension?: string | null;

  @ApiPropertyOptional({ type: 'string', nullable: true, description: 'Media type (null for folders)' })
  mediaType?: string | null;

  @ApiPropertyOptional({ type: 'integer', format: 'int64', nullable: true, description: 'Last modified timestamp in milliseconds' })
  lastModified?: number | null;
}

export class ListItemsResponseDto {
  @ApiProperty({ type: [ProviderItemDto] })
  items: ProviderItemDto[];

  @ApiPropertyOptional({ description: 'Cursor for the next page; absent on the last page' })
  nextCursor?: string;
}

export class ListItemsQueryDto {
  @ApiPropertyOptional({
    type: 'string',
    description: "Directory key: '' (or '/') for the root, or a folder key ending in '/'",
    default: '',
  })
  @IsOptional()
  @IsString({ message: 'must be a string' })
  key = '';

  @ApiPropertyOptional({ description: 'Name filter (case-insensitive substring)' })
  @IsOptional()
  @IsString({ message: 'must be a string' })
  @MaxLength(200, { message: 'must be at most 200 characters' })
  q?: string;

  @ApiPropertyOptional({ description: 'Opaque cursor from a previous nextCursor' })
  @IsOptional()
  @IsString({ message: 'must be a string' })
  @MaxLength(4096, { message: 'is not a valid cursor' })
  cursor?: string;

  @ApiPropertyOptional({ type: 'integer', default: DEFAULT_ITEMS_LIMIT })
  @IsOptional()
  @Transform(decimalInteger)
  @IsInt({ message: 'must be an integer' })
  @Min(1, { message: `must be between 1 and ${MAX_ITEMS_LIMIT}` })
  @Max(MAX_ITEMS_LIMIT, { message: `must be between 1 and ${MAX_ITEMS_LIMIT}` })
  limit = DEFAULT_ITEMS_LIMIT;
}

/** `{ key }`: delete, rename, confirm and create-folder bodies. */
export class ItemReferenceDto {
  @ApiProperty({ description: "Full item key. Files: 'path/to/file.pdf', Folders: 'path/to/folder/'" })
  @IsString({ message: 'must be a string' })
  key: string;
}

export class UploadQueryDto {
  @ApiPropertyOptional({
    type: 'string',
    description: "Target directory: '' (or '/') for the root, or a folder key ending in '/'",
    default: '',
  })
  @IsOptional()
  @IsString({ message: 'must be a string' })
  key = '';
}

export class RenameQueryDto {
  @ApiProperty({ description: 'New name, in the same directory' })
  @IsString({ message: 'must be a string' })
  newName: string;
}

export class UploadUrlRequestDto {
  @ApiProperty({ description: "Full file key (must not end with '/')" })
  @IsString({ message: 'must be a string' })
  key: string;

  @ApiPropertyOptional({ type: 'integer', format: 'int64', description: 'File size in bytes' })
  @IsOptional()
  @IsInt({ message: 'must be an integer' })
  @Min(0, { message: 'must be 0 or greater' })
  size?: number;

  @ApiPropertyOptional({ description: 'Media type' })
  @IsOptional()
  @IsString({ message: 'must be a string' })
  @Matches(NO_CONTROL_CHARACTERS, { message: NO_CONTROL_MESSAGE })
  @MaxLength(MAX_MEDIA_TYPE_LENGTH, { message: `must be at most ${MAX_MEDIA_TYPE_LENGTH} characters` })
  mediaType?: string;
}

export class UploadUrlResponseDto {
  @ApiPropertyOptional({ description: 'Presigned URL for a direct HTTP PUT (absent when not supported)' })
  url?: string;

  @ApiProperty({ type: 'integer', format: 'int32' })
  expiresInSeconds: number;

  @ApiProperty()
  supported: boolean;
}

export class DownloadUrlQueryDto {
  @ApiProperty({ description: "File key (must not end with '/')" })
  @IsString({ message: 'must be a string' })
  key: string;

  @ApiPropertyOptional({ type: 'integer', default: DEFAULT_DOWNLOAD_MINUTES })
  @IsOptional()
  @Transform(decimalInteger)
  @IsInt({ message: 'must be an integer' })
  @Min(1, { message: `must be between 1 and ${MAX_DOWNLOAD_MINUTES}` })
  @Max(MAX_DOWNLOAD_MINUTES, { message: `must be between 1 and ${MAX_DOWNLOAD_MINUTES}` })
  expirationMinutes = DEFAULT_DOWNLOAD_MINUTES;
}

export class DownloadUrlResponseDto {
  @ApiProperty()
  url: string;

  @ApiProperty({ type: 'integer', format: 'int32' })
  expiresInSeconds: number;
}

export class ContentQueryDto {
  @ApiProperty({ description: "File key (must not end with '/')" })
  @IsString({ message: 'must be a string' })
  key: string;
}

/** Domain events storage emits on JetStream (stream DOMAIN_EVENTS), so indexing can follow items. */
export interface ProviderItemEvent {
  providerId: string;
  /**
   * The namespace whose part of the provider changed: keys are relative to that namespace's root,
   * so the same key in two namespaces names two different items.
   */
  namespace?: string;
  key: string;
  type: ProviderItemType;
  /** Present on renames: the key before. */
  previousKey?: string;
  size?: number | null;
  mediaType?: string | null;
  occurredAt: number;
  requestId?: string;
}

// NATS payloads of the storage.items.* subjects: the HTTP query/body plus the provider. Keys are
// checked by the storage service with keyProblems, so that the rules live in one place.

export class ProviderRefRequest {
  @IsString({ message: 'must be a string' })
  @MaxLength(200)
  providerId: string;
}

export class ListItemsRequest extends ListItemsQueryDto {
  @IsString({ message: 'must be a string' })
  @MaxLength(200)
  providerId: string;
}

/** create-folder, delete, stat and confirm. */
export class ItemKeyRequest extends ItemReferenceDto {
  @IsString({ message: 'must be a string' })
  @MaxLength(200)
  providerId: string;
}

export class RenameItemRequest extends ItemKeyRequest {
  @IsString({ message: 'must be a string' })
  newName: string;
}

export class UploadUrlRequest extends UploadUrlRequestDto {
  @IsString({ message: 'must be a string' })
  @MaxLength(200)
  providerId: string;
}

export class DownloadUrlRequest extends DownloadUrlQueryDto {
  @IsString({ message: 'must be a string' })
  @MaxLength(200)
  providerId: string;
}

export const TRANSFER_OPS = ['put', 'get'] as const;
export type TransferOp = (typeof TRANSFER_OPS)[number];

/**
 * Asks storage for a signed, short-lived grant to stream bytes through its internal transfer
 * endpoint: `put` for a multipart upload the gateway relays, `get` for the content endpoint.
 */
export class TransferTargetRequest extends ItemKeyRequest {
  @IsIn(TRANSFER_OPS, { message: `must be one of ${TRANSFER_OPS.join(', ')}` })
  op: TransferOp;

  @IsOptional()
  @IsString({ message: 'must be a string' })
  @Matches(NO_CONTROL_CHARACTERS, { message: NO_CONTROL_MESSAGE })
  @MaxLength(MAX_MEDIA_TYPE_LENGTH, { message: `must be at most ${MAX_MEDIA_TYPE_LENGTH} characters` })
  contentType?: string;

  /** Upper bound on the bytes the caller will send (put). */
  @IsOptional()
  @IsInt({ message: 'must be an integer' })
  @Min(0)
  maxBytes?: number;
}

export interface TransferTarget {
  /** Path segment for `/internal/transfer/<grant>` on the storage service. */
  grant: string;
  expiresInSeconds: number;
}
