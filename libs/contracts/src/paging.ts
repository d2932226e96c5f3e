import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

export const MAX_PAGE_SIZE = 1000;
export const DEFAULT_PAGE_SIZE = 20;

/** The page envelope of every page-based list. */
export interface Page<T> {
  data: T[];
  totalPages: number;
  totalElements: number;
  hasNext: boolean;
}

/**
 * The OpenAPI class of a page of `item`, named `<name>` in the document: the envelope is written
 * here once for every page-based list.
 */
export function PageDto<T>(item: new () => T, name: string): new () => Page<T> {
  class PageOf implements Page<T> {
    @ApiProperty({ type: [item] })
    data: T[];

    @ApiProperty({ type: 'integer', format: 'int32' })
    totalPages: number;

    @ApiProperty({ type: 'integer', format: 'int64' })
    totalElements: number;

    @ApiProperty()
    hasNext: boolean;
  }
  Object.defineProperty(PageOf, 'name', { value: name });
  return PageOf;
}

export function toPage<T>(data: T[], totalElements: number, page: number, pageSize: number): Page<T> {
  const totalPages = Math.ceil(totalElements / pageSize);
  return { data, totalPages, totalElements, hasNext: page + 1 < totalPages };
}

export type SortOrder = 'asc' | 'desc';

const lower = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.toLowerCase() : value);

/**
 * page / pageSize / sortBy / sortOrder / q, as the providers and collections lists take them.
 * Subclasses narrow sortBy to the properties their resource can be sorted by.
 */
export class PageQueryDto {
  @ApiPropertyOptional({ description: 'Page number (0-based)', type: 'integer', format: 'int32', default: 0 })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'must be an integer' })
  @Min(0, { message: 'must be 0 or greater' })
  page = 0;

  @ApiPropertyOptional({ description: 'Page size', type: 'integer', format: 'int32', default: DEFAULT_PAGE_SIZE })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'must be an integer' })
  @Min(1, { message: `must be between 1 and ${MAX_PAGE_SIZE}` })
  @Max(MAX_PAGE_SIZE, { message: `must be between 1 and ${MAX_PAGE_SIZE}` })
  pageSize = DEFAULT_PAGE_SIZE;

  @ApiPropertyOptional({ description: 'Sort direction (asc/desc)', default: 'asc' })
  @IsOptional()
  @Transform(lower)
  @IsIn(['asc', 'desc'], { message: 'must be asc or desc' })
  sortOrder: SortOrder = 'asc';

  @ApiPropertyOptional({ description: 'Text search filter' })
  @IsOptional()
  @IsString({ message: 'must be a string' })
  @MaxLength(200, { message: 'must be at most 200 characters' })
  q?: string;
}
