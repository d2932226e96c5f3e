import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsDefined,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { FilesInputDto, JobLaunchConfigDto } from './jobs';
import { IsNestedList, IsNestedObject } from './list-rules';
import { RequiredPageQueryDto } from './paging';
import { IsNonEmptyText } from './text-rules';

/**
 * Agent jobs (`/agent/jobs`): a conversation over the caller's documents, as interface.md and
 * COMPAT.md ("Agent") have it. Body fields keep the reference's snake_case names; the inputs route
 * answers them in camelCase, as the reference does.
 */

export const AGENT_LIMITS = {
  messageChars: 32_000,
  messages: 100,
  maxIterations: 50,
  maxCompletionTokens: 32_768,
  idempotencyKeyChars: 200,
} as const;

export const AGENT_ROLES = ['system', 'user', 'assistant'] as const;
export type AgentRole = (typeof AGENT_ROLES)[number];
export const AGENT_MODEL_PRESETS = ['FAST', 'BALANCED'] as const;
export type AgentModelPreset = (typeof AGENT_MODEL_PRESETS)[number];

const lower = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.toLowerCase() : value);
const upper = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.toUpperCase() : value);

/** One turn of a stateless conversation; the role in any case ("User", "ASSISTANT"). */
export class AgentMessageDto {
  @ApiProperty({ enum: AGENT_ROLES, description: 'system, user or assistant, in any case' })
  @IsDefined({ message: 'is required' })
  @Transform(lower)
  @IsIn(AGENT_ROLES, { message: `must be one of ${AGENT_ROLES.join(', ')}` })
  role: AgentRole;

  @ApiProperty()
  @IsDefined({ message: 'is required' })
  @IsString({ message: 'must be a string' })
  @MaxLength(AGENT_LIMITS.messageChars, { message: `must be at most ${AGENT_LIMITS.messageChars} characters` })
  content: string;
}

export class CompletionConfigDto {
  @ApiPropertyOptional({ enum: AGENT_MODEL_PRESETS, description: 'Which configured model answers: FAST or BALANCED' })
  @IsOptional()
  @Transform(upper)
  @IsIn(AGENT_MODEL_PRESETS, { message: `must be one of ${AGENT_MODEL_PRESETS.join(', ')}` })
  model?: AgentModelPreset;

  @ApiPropertyOptional({ minimum: 0, maximum: 2 })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'must be a number' })
  @Min(0, { message: 'must be at least 0' })
  @Max(2, { message: 'must be at most 2' })
  temperature?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: AGENT_LIMITS.maxCompletionTokens })
  @IsOptional()
  @IsInt({ message: 'must be an integer' })
  @Min(1, { message: 'must be at least 1' })
  @Max(AGENT_LIMITS.maxCompletionTokens, { message: `must be at most ${AGENT_LIMITS.maxCompletionTokens}` })
  max_completion_tokens?: number;
}

/** POST /agent/jobs. `message` (stateful) or `messages` (stateless), never both. */
export class CreateAgentJobRequestDto {
  @ApiPropertyOptional({ description: 'Stateful mode: the new user message; earlier turns come from conversation_id' })
  @IsOptional()
  @IsNonEmptyText(AGENT_LIMITS.messageChars)
  message?: string;

  @ApiPropertyOptional({ type: [AgentMessageDto], description: 'Stateless mode: the whole conversation' })
  @IsOptional()
  @IsNestedList(AgentMessageDto, AGENT_LIMITS.messages, 'message')
  messages?: AgentMessageDto[];

  @ApiPropertyOptional({ type: FilesInputDto, description: 'The files the agent can read' })
  @IsOptional()
  @IsNestedObject(FilesInputDto)
  files?: FilesInputDto;

  @ApiPropertyOptional({ type: JobLaunchConfigDto })
  @IsOptional()
  @IsNestedObject(JobLaunchConfigDto)
  config?: JobLaunchConfigDto;

  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean({ message: 'must be true or false' })
  historyInputValid?: boolean;

  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean({ message: 'must be true or false' })
  conversationIdValid?: boolean;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'A JSON Schema the final answer must match' })
  @IsOptional()
  @IsObject({ message: 'must be a JSON Schema object' })
  output_model_schema?: Record<string, unknown>;

  @ApiPropertyOptional({ type: CompletionConfigDto })
  @IsOptional()
  @IsNestedObject(CompletionConfigDto)
  completion_config?: CompletionConfigDto;

  @ApiPropertyOptional({ type: 'integer', format: 'int32', minimum: 1, maximum: AGENT_LIMITS.maxIterations })
  @IsOptional()
  @IsInt({ message: 'must be an integer' })
  @Min(1, { message: 'must be at least 1' })
  @Max(AGENT_LIMITS.maxIterations, { message: `must be at most ${AGENT_LIMITS.maxIterations}` })
  max_iterations?: number;

  @ApiPropertyOptional({ description: 'Stateful mode: the conversation to continue; omit to start one' })
  @IsOptional()
  @IsUUID('all', { message: 'must be a UUID' })
  conversation_id?: string;
}

/** GET /agent/jobs: newest first, optionally one conversation's. */
export class ListAgentJobsQueryDto extends RequiredPageQueryDto {
  @ApiPropertyOptional({ description: 'Only the jobs of this conversation' })
  @IsOptional()
  @IsUUID('all', { message: 'must be a UUID' })
  conversationId?: string;
}

/** GET /agent/jobs/{jobId}/inputs. */
export class AgentJobInputsDto {
  @ApiPropertyOptional() message?: string;
  @ApiPropertyOptional({ type: [AgentMessageDto] }) messages?: AgentMessageDto[];
  @ApiPropertyOptional({ type: FilesInputDto }) files?: FilesInputDto;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) outputModelSchema?: Record<string, unknown>;
  @ApiPropertyOptional({ type: CompletionConfigDto }) completionConfig?: CompletionConfigDto;
  @ApiPropertyOptional() maxIterations?: number;
  @ApiPropertyOptional() conversationId?: string;
}

/** GET /agent/jobs/{jobId}/results. */
export class AgentJobOutputsDto {
  @ApiProperty({ description: 'Text, or a JSON object valid against output_model_schema', oneOf: [{ type: 'string' }, { type: 'object' }] })
  answer: string | Record<string, unknown>;

  @ApiProperty()
  explanation: string;

  @ApiProperty({ type: [String], description: 'Ids of the annotations the answer cites' })
  referenceIds: string[];

  @ApiPropertyOptional({
    description: 'Extension: the conversation the job belongs to (stateful mode), to continue it with conversation_id',
  })
  conversationId?: string;
}

/** An Idempotency-Key: visible ASCII, as HTTP header values of keys usually are. */
export const IDEMPOTENCY_KEY = /^[\x21-\x7e]+$/;

/** jobs.agent.create: the body, with the Idempotency-Key header the gateway read. */
export class CreateAgentJobRequest extends CreateAgentJobRequestDto {
  @IsOptional()
  @IsString()
  @MaxLength(AGENT_LIMITS.idempotencyKeyChars)
  @Matches(IDEMPOTENCY_KEY)
  idempotencyKey?: string;
}

/** jobs.agent.list. */
export class ListAgentJobsRequest extends ListAgentJobsQueryDto {}

/** jobs.agent.trace. An id that is not a UUID names no job (404). */
export class AgentTraceRequest {
  @IsString()
  @MaxLength(200)
  jobId: string;
}

/** One tool call of an agent job. */
export class AgentTraceStepDto {
  @ApiProperty({ description: 'The delivery of the job that made the call (1, or more after a restart)' }) attempt: number;
  @ApiProperty({ description: '1-based iteration of the agent loop' }) iteration: number;
  @ApiProperty({ description: 'search_passages, read_node, list_files, ask_questions, extract_metadata or final_answer' }) tool: string;
  @ApiProperty({ type: 'object', additionalProperties: true }) arguments: unknown;
  @ApiPropertyOptional({ description: 'What the tool returned (long texts shortened)' }) result?: unknown;
  @ApiPropertyOptional({ description: 'Why the call failed' }) error?: string;
  @ApiProperty({ description: 'ISO 8601' }) startedAt: string;
  @ApiProperty() durationMs: number;
}

/** GET /agent/jobs/{jobId}/trace (extension): how the answer was reached. */
export class AgentTraceDto {
  @ApiProperty() jobId: string;
  @ApiProperty({ description: 'builtin (no language model) or llm:<model>' }) engine: string;
  @ApiProperty({ type: [AgentTraceStepDto] }) steps: AgentTraceStepDto[];
}

/** The conversation rules the shape cannot say: one mode at a time (null counts as absent, as for every optional field). Problems name the field. */
export function agentModeProblems(req: CreateAgentJobRequestDto): Array<{ field: string; problem: string }> {
  const problems: Array<{ field: string; problem: string }> = [];
  if (req.message != null && req.messages != null) {
    problems.push({
      field: 'messages',
      problem: 'must not be set together with message (message continues a conversation, messages is a whole one)',
    });
  } else if (req.message == null && req.messages == null) {
    problems.push({ field: 'message', problem: 'is required, or messages for a stateless conversation' });
  }
  if (req.messages != null && req.conversation_id != null) {
    problems.push({ field: 'conversation_id', problem: 'must not be set for a stateless conversation (messages)' });
  }
  if (req.messages?.length && req.messages[req.messages.length - 1].role !== 'user') {
    problems.push({
      field: `messages[${req.messages.length - 1}].role`,
      problem: 'must be user: the conversation ends with the message to answer',
    });
  }
  return problems;
}
