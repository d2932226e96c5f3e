import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsObject, IsString, MaxLength, ValidateIf } from 'class-validator';
import type { ErrorDetail } from './errors';
import type { HookPoint } from './subjects';

/** The one message for a filter that is missing, null or not an object. */
export const FILTER_REQUIRED = 'is required and must be an object ({} matches everything)';

export const TRIGGER_IDS = ['corpus_parsing', 'node_embedding', 'formula_augmentation'] as const;
export type TriggerId = (typeof TRIGGER_IDS)[number];
export type ExecutionMode = 'critical' | 'asynchronous';

/** A rule filter; which keys a trigger accepts is its JSON Schema's business (libs/rules). */
export interface RuleFilter {
  mime_types?: string[];
  exclude_mime_types?: string[];
  node_types?: string[];
  classifications?: string[];
  content_patterns?: string[];
  min_file_size?: number;
  max_file_size?: number;
}

export class TriggerDto {
  @ApiProperty({ example: 'corpus_parsing' })
  trigger_id: TriggerId;

  @ApiProperty()
  description: string;

  @ApiProperty({ type: [String], example: ['root_node.created'] })
  hook_points: HookPoint[];

  @ApiProperty({ enum: ['critical', 'asynchronous'] })
  execution_mode: ExecutionMode;
}

export class TriggerListDto {
  @ApiProperty({ type: [TriggerDto] })
  triggers: TriggerDto[];
}

export class TriggerSchemaDto {
  @ApiProperty()
  trigger_id: TriggerId;

  @ApiProperty({ type: 'object', additionalProperties: true, description: 'JSON Schema of the filter object' })
  schema: Record<string, unknown>;
}

export class RuleDto {
  @ApiProperty()
  trigger_id: TriggerId;

  @ApiProperty({ description: 'The namespace the rule belongs to' })
  namespace: string;

  @ApiProperty({ type: 'object', additionalProperties: true })
  filter: RuleFilter;

  @ApiProperty({ description: 'ISO 8601' })
  created_at: string;

  @ApiProperty({ description: 'ISO 8601' })
  updated_at: string;

  @ApiPropertyOptional({
    description:
      'Only on a rule stored before the current filter limits or regular expression syntax, which its filter no longer fits: what is wrong, field by field. Such a rule does not run until it is replaced with PUT.',
    type: 'array',
    items: { type: 'object', properties: { field: { type: 'string' }, problem: { type: 'string' } } },
  })
  problems?: ErrorDetail[];

  @ApiPropertyOptional({
    description: 'True when `filter` is shortened for display because the stored filter is larger than the filter size limit.',
  })
  filter_truncated?: boolean;
}

export class RuleListDto {
  @ApiProperty()
  namespace: string;

  @ApiProperty({ type: [RuleDto] })
  rules: RuleDto[];
}

export class CreateRuleDto {
  @ApiProperty({ example: 'corpus_parsing' })
  @IsString({ message: 'must be a string' })
  @MaxLength(100)
  trigger_id: string;

  /** Absent: the empty filter (matches everything). null is not a filter. */
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, example: { mime_types: ['application/pdf'] } })
  @ValidateIf((o: CreateRuleDto) => o.filter !== undefined)
  @IsObject({ message: 'must be an object' })
  filter?: Record<string, unknown>;
}

/** A PUT replaces the whole filter, so it must say what the filter is: `{}` to match everything. */
export class UpsertRuleDto {
  @ApiProperty({ type: 'object', additionalProperties: true, example: { max_file_size: 10485760 } })
  @IsObject({ message: FILTER_REQUIRED })
  filter: Record<string, unknown>;
}

/** rules.* RPC payloads */
export class TriggerRefRequest {
  @IsString()
  @MaxLength(100)
  trigger_id: string;
}

export class UpsertRuleRequest {
  @IsString()
  @MaxLength(100)
  trigger_id: string;

  @IsObject({ message: FILTER_REQUIRED })
  filter: Record<string, unknown>;
}

/** What a hook point knows about the operation, for rule filters to match on. */
export interface RuleFacts {
  mimeType?: string | null;
  size?: number | null;
  nodeTypes?: string[];
  classifications?: string[];
  texts?: string[];
}

export class EvaluateRulesRequest {
  @IsString()
  trigger_id: string;

  @IsObject()
  facts: RuleFacts;
}

/** The decision for one operation: run or not, and the rule's filter for per-node decisions. */
export interface RuleDecision {
  run: boolean;
  /** Why not, in words a user understands (shown on the IndexedFile). */
  reason?: string;
  filter?: RuleFilter;
}
