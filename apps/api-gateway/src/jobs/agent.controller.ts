import { Body, Controller, Get, Headers, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiExtraModels, ApiHeader, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  AGENT_LIMITS,
  AgentJobInputsDto,
  AgentJobOutputsDto,
  AgentJobsCreate,
  AgentJobsList,
  AgentJobsTrace,
  AgentTraceDto,
  AnnotationDto,
  CreateAgentJobRequestDto,
  JobDto,
  JobPageDto,
  JobsResults,
  ListAgentJobsQueryDto,
  type RpcContext,
} from '@docintel/contracts';
import { RpcClient } from '@docintel/messaging';
import { ApiErrors } from '../http/api-errors.decorator';
import { UuidParam } from '../http/uuid-param';
import { Caller } from '../identity/rpc-context.decorator';
import { idempotencyKey } from './idempotency-key';
import { JOB_ID, JobReads } from './jobs.controllers';

/** What the results route answers before the run has written its output. */
const notYet = (status: string): AgentJobOutputsDto => ({
  answer: '',
  explanation: `The job is ${status}; its answer is written when it ends.`,
  referenceIds: [],
});

/** Conversations over the caller's documents: answers with citations, text or structured. */
@ApiTags('Agent')
@ApiBearerAuth('TOKEN')
@ApiExtraModels(AgentJobOutputsDto, AgentJobInputsDto)
@Controller('api/core/agent/jobs')
export class AgentJobsController extends JobReads {
  constructor(rpc: RpcClient) {
    super(rpc, 'agent');
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'createAgentJob',
    summary: 'Create agent job',
    description:
      'Stateful (`message`, optional `conversation_id`) or stateless (`messages`); runs asynchronously. The same Idempotency-Key with the same body returns the same job; with another body, 409.',
  })
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description: `At most ${AGENT_LIMITS.idempotencyKeyChars} visible ASCII characters; remembered for JOB_IDEMPOTENCY_TTL_SECONDS (24 h by default)`,
  })
  @ApiOkResponse({ type: JobDto, description: 'Job created (or the job an earlier request with the same Idempotency-Key created)' })
  @ApiErrors(400, 401, 404, 409, 415)
  create(
    @Body() body: CreateAgentJobRequestDto,
    @Headers('idempotency-key') key: string | string[] | undefined,
    @Caller() ctx: RpcContext,
  ): Promise<JobDto> {
    const idempotency = idempotencyKey(key);
    return this.rpc.call(AgentJobsCreate, { ...body, ...(idempotency ? { idempotencyKey: idempotency } : {}) }, ctx);
  }

  @Get()
  @ApiOperation({
    operationId: 'listAgentJobs',
    summary: 'List agent jobs',
    description: "The caller's agent jobs, newest first; with conversationId, one conversation's.",
  })
  @ApiOkResponse({ type: JobPageDto })
  @ApiErrors(400, 401)
  list(@Query() query: ListAgentJobsQueryDto, @Caller() ctx: RpcContext): Promise<JobPageDto> {
    return this.rpc.call(AgentJobsList, query, ctx);
  }

  @Get(':jobId')
  @ApiOperation({ operationId: 'getAgentJob', summary: 'Get agent job' })
  @JOB_ID
  @ApiOkResponse({ type: JobDto })
  @ApiErrors(400, 401, 404)
  get(@UuidParam('jobId') jobId: string, @Caller() ctx: RpcContext): Promise<JobDto> {
    return this.job(jobId, ctx);
  }

  @Get(':jobId/inputs')
  @ApiOperation({
    operationId: 'getAgentJobInputs',
    summary: 'Get agent job inputs',
    description: 'The messages, files and configuration, in camelCase.',
  })
  @JOB_ID
  @ApiOkResponse({ type: AgentJobInputsDto })
  @ApiErrors(400, 401, 404)
  getInputs(@UuidParam('jobId') jobId: string, @Caller() ctx: RpcContext) {
    return this.inputs(jobId, ctx);
  }

  @Get(':jobId/results')
  @ApiOperation({
    operationId: 'getAgentJobOutputs',
    summary: 'Get agent job outputs',
    description: 'The answer (text, or an object valid against output_model_schema), the explanation and the ids of the cited annotations.',
  })
  @JOB_ID
  @ApiOkResponse({ type: AgentJobOutputsDto })
  @ApiErrors(400, 401, 404)
  async getResults(@UuidParam('jobId') jobId: string, @Caller() ctx: RpcContext): Promise<AgentJobOutputsDto> {
    const part = await this.rpc.call(JobsResults, { kind: 'agent', jobId }, ctx);
    const output = part.items[0] as AgentJobOutputsDto | undefined;
    return output ?? notYet((await this.job(jobId, ctx)).status);
  }

  @Get(':jobId/annotations')
  @ApiOperation({
    operationId: 'getAgentJobAnnotations',
    summary: 'Get agent job annotations',
    description: 'The DOCUMENT_STATEMENT annotations the answer cites, with positions.',
  })
  @JOB_ID
  @ApiOkResponse({ type: [AnnotationDto] })
  @ApiErrors(400, 401, 404)
  getAnnotations(@UuidParam('jobId') jobId: string, @Caller() ctx: RpcContext): Promise<AnnotationDto[]> {
    return this.annotations(jobId, ctx);
  }

  @Get(':jobId/trace')
  @ApiOperation({
    operationId: 'getAgentJobTrace',
    summary: 'Get agent job trace (extension)',
    description: 'The tool calls of the run in order, with their arguments and results or errors; filled in while the job runs.',
  })
  @JOB_ID
  @ApiOkResponse({ type: AgentTraceDto })
  @ApiErrors(400, 401, 404)
  getTrace(@UuidParam('jobId') jobId: string, @Caller() ctx: RpcContext): Promise<AgentTraceDto> {
    return this.rpc.call(AgentJobsTrace, { jobId }, ctx);
  }

  @Post(':jobId/cancel')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'cancelAgentJob',
    summary: 'Cancel an agent job (extension)',
    description: 'Ends a PENDING or RUNNING job as ABORTED, with the question and extraction jobs it started.',
  })
  @JOB_ID
  @ApiOkResponse({ type: JobDto })
  @ApiErrors(400, 401, 404)
  cancel(@UuidParam('jobId') jobId: string, @Caller() ctx: RpcContext): Promise<JobDto> {
    return this.cancelJob(jobId, ctx);
  }
}
