import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsInt, IsOptional, IsString, IsUUID, Max, MaxLength, Min, MinLength } from 'class-validator';
import { JOB_LIMITS } from './jobs';

/** Passages one search may return. */
export const SEARCH_LIMIT_MAX = 50;

/**
 * POST /api/core/passages/search (an extension): the search the jobs use (BM25 and the node
 * vectors, fused), over every indexed file of the caller's namespace or over the files named.
 */
export class SearchPassagesRequestDto {
  @ApiProperty({ description: 'What to look for: a question or keywords', minLength: 1, maxLength: 2000 })
  @IsString()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  @MinLength(1, { message: 'must not be empty' })
  @MaxLength(2000)
  query: string;

  @ApiPropertyOptional({ description: 'Passages to return at most', minimum: 1, maximum: SEARCH_LIMIT_MAX, default: 10 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(SEARCH_LIMIT_MAX)
  limit: number = 10;

  @ApiPropertyOptional({
    description: "IndexedFile ids to search; every indexed file of the caller's namespace when left out",
    type: [String],
    format: 'uuid',
    maxItems: JOB_LIMITS.files,
  })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1, { message: 'must name at least one file when given (leave it out to search every file)' })
  @ArrayMaxSize(JOB_LIMITS.files)
  @IsUUID('all', { each: true, message: 'each must be a UUID' })
  fileIds?: string[];
}

export class PassageHitDto {
  @ApiProperty({ description: 'The passage id (the id of the document node it was built from)' })
  id: string;

  @ApiProperty({ description: 'The IndexedFile id' })
  fileId: string;

  @ApiProperty()
  fileName: string;

  @ApiProperty({ description: 'The type of the node: paragraph, row, title…' })
  nodeType: string;

  @ApiProperty()
  text: string;

  @ApiProperty({ type: [String], description: 'Headings above the passage, outermost first' })
  headings: string[];

  @ApiProperty({ description: 'Fused retrieval score, higher is better; comparable only within one answer' })
  score: number;
}

export class SearchPassagesReplyDto {
  @ApiProperty({ type: [PassageHitDto], description: 'Best first' })
  passages: PassageHitDto[];
}
