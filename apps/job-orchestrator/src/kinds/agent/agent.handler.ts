import { Injectable } from '@nestjs/common';
import {
  AgentJobsCreate,
  AgentJobsList,
  AgentJobsTrace,
  AgentTraceRequest,
  CreateAgentJobRequest,
  ListAgentJobsRequest,
  type AgentTraceDto,
  type JobDto,
  type Page,
  type RpcContext,
} from '@docintel/contracts';
import { RpcHandler } from '@docintel/messaging';
import { AgentJobsService } from './agent-jobs.service';

/** The agent's own calls; its get, inputs, results, annotations and cancel are the jobs.jobs.* calls of kind agent. */
@Injectable()
export class AgentHandler {
  constructor(private readonly agents: AgentJobsService) {}

  @RpcHandler(AgentJobsCreate)
  create(req: CreateAgentJobRequest, ctx: RpcContext): Promise<JobDto> {
    return this.agents.create(ctx, req);
  }

  @RpcHandler(AgentJobsList)
  list(req: ListAgentJobsRequest, ctx: RpcContext): Promise<Page<JobDto>> {
    return this.agents.list(ctx, req);
  }

  @RpcHandler(AgentJobsTrace)
  trace(req: AgentTraceRequest, ctx: RpcContext): Promise<AgentTraceDto> {
    return this.agents.trace(ctx, req.jobId);
  }
}
