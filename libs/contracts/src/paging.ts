import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsDefined, IsIn, IsOptional, IsString, MaxLength, ValidateBy } from 'class-validator';

export const MAX_PAGE_SIZE = 1000;
export const DEFAULT_PAGE_SIZE = 20;
/**
 * The largest page number: the reference API declares `page` an int32. With at most MAX_PAGE_SIZE
 * per page the offset stays below 2.2e12, exact in a JavaScript number and far inside PostgreSQL's bigint.
 */
export const MAX_PAGE = 2_147_483_647;

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

/**
 * Query strings carry numbers as text: only plain decimal digits (an optional minus, so that -1
 * is reported as out of range) become a number. `1e3`, `0x10`, `1.5`, ` 7` or `` stay strings and
 * are refused, instead of what Number() would make of them. Numbers (NATS payloads) pass as they are.
 */
export const decimalInteger = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^-?[0-9]+$/.test(value) ? Number(value) : value;

/** The one problem of a paging number, or null; messages as the API has always given them. */
function pagingProblem(value: unknown, min: number, max: number, range: { below: string; above: string }): string | null {
  if (typeof value !== 'number' || Number.isNaN(value)) return 'must be an integer';
  if (value < min) return range.below;
  if (value > max) return range.above;
  return Number.isInteger(value) ? null : 'must be an integer';
}

/** A paging parameter: decimal digits from a query string, or a number, within [min, max]. */
function PagingInteger(name: string, min: number, max: number, range: { below: string; above: string }): PropertyDecorator {
  const transform = Transform(decimalInteger);
  const validate = ValidateBy({
    name,
    validator: {
      validate: (value: unknown) => pagingProblem(value, min, max, range) === null,
      defaultMessage: (args) => pagingProblem(args?.value, min, max, range) ?? 'is invalid',
    },
  });
  return (target, key) => {
    transform(target, key);
    validate(target, key);
  };
}

const PAGE_SIZE_RANGE = `must be between 1 and ${MAX_PAGE_SIZE}`;

/** `page`: 0-based, 0 to MAX_PAGE. */
export const IsPageNumber = () =>
  PagingInteger('isPageNumber', 0, MAX_PAGE, { below: 'must be 0 or greater', above: `must be at most ${MAX_PAGE}` });

/** `pageSize`: 1 to MAX_PAGE_SIZE. */
export const IsPageSize = () => PagingInteger('isPageSize', 1, MAX_PAGE_SIZE, { below: PAGE_SIZE_RANGE, above: PAGE_SIZE_RANGE });

/** `page` and `pageSize`, both required: the files and job lists take them so, as the reference's int32 query parameters. */
export class RequiredPageQueryDto {
  @ApiProperty({ description: 'Page size', type: 'integer', format: 'int32', minimum: 1, maximum: MAX_PAGE_SIZE })
  @IsDefined({ message: 'is required' })
  @IsPageSize()
  pageSize: number;

  @ApiProperty({ description: 'Page number (0-based)', type: 'integer', format: 'int32', minimum: 0, maximum: MAX_PAGE })
  @IsDefined({ message: 'is required' })
  @IsPageNumber()
  page: number;
}

export type SortOrder = 'asc' | 'desc';

const lower = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.toLowerCase() : value);

/**
 * page / pageSize / sortBy / sortOrder / q, as the providers and collections lists take them.
 * Subclasses narrow sortBy to the properties their resource can be sorted by.
 */
export class PageQueryDto {
  @ApiPropertyOptional({
    description: 'Page number (0-based)',
    type: 'integer',
    format: 'int32',
    default: 0,
    minimum: 0,
    maximum: MAX_PAGE,
  })
  @IsOptional()
  @IsPageNumber()
  page = 0;

  @ApiPropertyOptional({
    description: 'Page size',
    type: 'integer',
    format: 'int32',
    default: DEFAULT_PAGE_SIZE,
    minimum: 1,
    maximum: MAX_PAGE_SIZE,
  })
  @IsOptional()
  @IsPageSize()
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
