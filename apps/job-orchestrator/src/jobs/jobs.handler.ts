import { Injectable } from '@nestjs/common';
import {
  JobPartRequest,
  JobRefRequest,
  JobsAnnotations,
  JobsCancel,
  JobsGet,
  JobsInputs,
  JobsList,
  JobsResults,
  ListJobsRequest,
  type AnnotationDto,
  type JobDto,
  type JobPart,
  type Page,
  type RpcContext,
} from '@docintel/contracts';
import { RpcHandler } from '@docintel/messaging';
import { JobsService, type JobInputsReply, type JobResultsReply } from './jobs.service';

/** The calls every job kind shares: list, get, inputs, results, annotations, cancel (the kind travels in the request). */
@Injectable()
export class JobsHandler {
  constructor(private readonly jobs: JobsService) {}

  @RpcHandler(JobsList)
  list(req: ListJobsRequest, ctx: RpcContext): Promise<Page<JobDto>> {
    return this.jobs.list(ctx, req.kind, req);
  }

  @RpcHandler(JobsGet)
  get(req: JobRefRequest, ctx: RpcContext): Promise<JobDto> {
    return this.jobs.get(ctx, req.kind, req.jobId);
  }

  @RpcHandler(JobsInputs)
  inputs(req: JobRefRequest, ctx: RpcContext): Promise<JobInputsReply> {
    return this.jobs.inputs(ctx, req.kind, req.jobId);
  }

  @RpcHandler(JobsResults)
  results(req: JobPartRequest, ctx: RpcContext): Promise<JobPart<JobResultsReply>> {
    return this.jobs.results(ctx, req.kind, req.jobId, req.fromUnit);
  }

  @RpcHandler(JobsAnnotations)
  annotations(req: JobPartRequest, ctx: RpcContext): Promise<JobPart<AnnotationDto>> {
    return this.jobs.annotations(ctx, req.kind, req.jobId, req.fromUnit);
  }

  @RpcHandler(JobsCancel)
  cancel(req: JobRefRequest, ctx: RpcContext): Promise<JobDto> {
    return this.jobs.cancel(ctx, req.kind, req.jobId);
  }
}
