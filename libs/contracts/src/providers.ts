import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { EntityIdDto, UserIdDto } from './identifiers';
import { PageDto, PageQueryDto, type Page } from './paging';

export const PROVIDER_TYPES = ['LOCAL', 'S3'] as const;
export type ProviderType = (typeof PROVIDER_TYPES)[number];

/**
 * What a namespace name may be (identity refuses any other when it creates a namespace): 1-63
 * letters, digits, '.', '_' or '-', starting with a letter or digit. Such a name is always a safe
 * single path segment, so storage can use it to place a namespace's items (`{namespace}`).
 */
export const NAMESPACE_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;

/** The placeholder of a provider's per-namespace root or prefix template. */
export const NAMESPACE_PLACEHOLDER = '{namespace}';

export const PROVIDER_SORT_FIELDS = ['name', 'createdTime', 'type'] as const;
export type ProviderSortField = (typeof PROVIDER_SORT_FIELDS)[number];

/** A storage provider as the API shows it: configuration without secrets. */
export class ProviderDto {
  @ApiProperty({ type: EntityIdDto })
  id: EntityIdDto;

  @ApiProperty({ type: 'integer', format: 'int64', description: 'Epoch milliseconds' })
  createdTime: number;

  @ApiProperty({ type: UserIdDto })
  owner: UserIdDto;

  @ApiProperty({ type: EntityIdDto })
  policy: EntityIdDto;

  @ApiProperty()
  name: string;

  @ApiPropertyOptional()
  icon: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'Tagged by `type`; LOCAL: { type, name }; S3: { type, bucketName, region }. Secrets never appear.',
  })
  config: Record<string, unknown> & { type: ProviderType };

  @ApiProperty({ enum: PROVIDER_TYPES })
  type: ProviderType;

  @ApiProperty()
  system: boolean;
}

export const ProviderPageDto = PageDto(ProviderDto, 'ProviderPageDto');
export type ProviderPageDto = Page<ProviderDto>;

export class ListProvidersQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ description: `Sort field: ${PROVIDER_SORT_FIELDS.join(', ')}`, default: 'name' })
  @IsOptional()
  @IsIn(PROVIDER_SORT_FIELDS, { message: `must be one of ${PROVIDER_SORT_FIELDS.join(', ')}` })
  sortBy?: ProviderSortField;
}

/** storage.providers.get; an id that is not a UUID names no provider (404), so it is not rejected here. */
export class GetProviderRequest {
  @IsString()
  @MaxLength(200)
  providerId: string;
}
