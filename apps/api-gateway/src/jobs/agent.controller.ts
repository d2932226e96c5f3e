import { Body, Headers, Query } from '@nestjs/common';
import {
  AgentJobsCreate,
  AgentJobsList,
  AgentJobsTrace,
  CreateAgentJobRequestDto,
  JobsResults,
  ListAgentJobsQueryDto,
  type AgentJobOutputsDto,
  type AgentTraceDto,
  type JobDto,
  type JobPageDto,
  type RpcContext,
} from '@docintel/contracts';
import { UuidParam } from '../http/uuid-param';
import { Caller } from '../identity/rpc-context.decorator';
import { idempotencyKey } from './idempotency-key';
import { JobReadRoutes } from './jobs.controllers';
import { JOB_ROUTES, JobController, JobRoute } from './job-routes';

const ROUTES = JOB_ROUTES.agent;

/** What the results route answers before the run has written its output. */
const notYet = (status: string): AgentJobOutputsDto => ({
  answer: '',
  explanation: `The job is ${status}; its answer is written when it ends.`,
  referenceIds: [],
});

/** Conversations over the caller's documents: answers with citations, text or structured. */
@JobController(ROUTES)
export class AgentJobsController extends JobReadRoutes(ROUTES, ['list', 'results']) {
  @JobRoute(ROUTES, 'create')
  create(
    @Body() body: CreateAgentJobRequestDto,
    @Headers('idempotency-key') key: string | string[] | undefined,
    @Caller() ctx: RpcContext,
  ): Promise<JobDto> {
    const idempotency = idempotencyKey(key);
    return this.rpc.call(AgentJobsCreate, { ...body, ...(idempotency ? { idempotencyKey: idempotency } : {}) }, ctx);
  }

  @JobRoute(ROUTES, 'list')
  list(@Query() query: ListAgentJobsQueryDto, @Caller() ctx: RpcContext): Promise<JobPageDto> {
    return this.rpc.call(AgentJobsList, query, ctx);
  }

  /** One run, one output: until the run has written it, what the job is doing. */
  @JobRoute(ROUTES, 'results')
  async getResults(@UuidParam('jobId') jobId: string, @Caller() ctx: RpcContext): Promise<AgentJobOutputsDto> {
    const part = await this.rpc.call(JobsResults, { kind: 'agent', jobId }, ctx);
    const output = part.items[0] as AgentJobOutputsDto | undefined;
    return output ?? notYet((await this.job(jobId, ctx)).status);
  }

  @JobRoute(ROUTES, 'trace')
  getTrace(@UuidParam('jobId') jobId: string, @Caller() ctx: RpcContext): Promise<AgentTraceDto> {
    return this.rpc.call(AgentJobsTrace, { jobId }, ctx);
  }
}
