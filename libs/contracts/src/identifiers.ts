import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export type EntityType = 'FILE' | 'COLLECTION' | 'PROVIDER' | 'POLICY' | 'JOB' | 'ANNOTATION' | 'CONCEPT_NOTE';

/** `{ id, entityType }`: how the API names any entity. */
export class EntityIdDto {
  @ApiProperty({ type: 'string', format: 'uuid' })
  id: string;

  @ApiProperty({ type: 'string' })
  entityType: EntityType;
}

export class UserIdDto {
  @ApiPropertyOptional({ type: 'string' })
  id: string;
}

export const entityId = (id: string, entityType: EntityType): EntityIdDto => ({ id, entityType });
