import { Injectable } from '@nestjs/common';
import {
  type AgentJobInputsDto,
  type AgentJobOutputsDto,
  CreateExtractionJobRequest,
  CreateFindSimilarJobRequest,
  CreateMultiDimJobRequest,
  MultiDimJobsCreate,
  MultiDimJobsRows,
  MultiDimRowsRequest,
  type MultiDimRowsPart,
  FindSimilarJobRefRequest,
  FindSimilarJobsCreate,
  FindSimilarJobsGet,
  FindSimilarJobsList,
  ListFindSimilarJobsRequest,
  type FindSimilarJobHead,
  type FindSimilarSourcesDto,
  type MultiDimJobInputsDto,
  type SourceMatchesDto,
  CreateQaJobRequest,
  ExtractionJobsCreate,
  JobPartRequest,
  JobRefRequest,
  JobsAnnotations,
  JobsCancel,
  JobsGet,
  JobsInputs,
  JobsList,
  JobsResults,
  ListJobsRequest,
  QaJobsCreate,
  type AnnotationDto,
  type ExtractionJobInputsDto,
  type JobDto,
  type Page,
  type QaJobInputsDto,
  type JobPart,
  type MetaResultDto,
  type QaResultDto,
  type RpcContext,
} from '@docintel/contracts';
import { RpcHandler } from '@docintel/messaging';
import { JobsService } from './jobs.service';

@Injectable()
export class JobsHandler {
  constructor(private readonly jobs: JobsService) {}

  @RpcHandler(QaJobsCreate)
  createQa(req: CreateQaJobRequest, ctx: RpcContext): Promise<JobDto> {
    return this.jobs.createQa(ctx, req);
  }

  @RpcHandler(ExtractionJobsCreate)
  createExtraction(req: CreateExtractionJobRequest, ctx: RpcContext): Promise<JobDto> {
    return this.jobs.createExtraction(ctx, req);
  }

  @RpcHandler(MultiDimJobsCreate)
  createMultiDim(req: CreateMultiDimJobRequest, ctx: RpcContext): Promise<JobDto> {
    return this.jobs.createMultiDim(ctx, req);
  }

  @RpcHandler(MultiDimJobsRows)
  multiDimRows(req: MultiDimRowsRequest, ctx: RpcContext): Promise<MultiDimRowsPart> {
    return this.jobs.multiDimRows(ctx, req.jobId, req.fromRow);
  }

  @RpcHandler(FindSimilarJobsCreate)
  createFindSimilar(req: CreateFindSimilarJobRequest, ctx: RpcContext): Promise<FindSimilarJobHead> {
    return this.jobs.createFindSimilar(ctx, req);
  }

  @RpcHandler(FindSimilarJobsGet)
  getFindSimilar(req: FindSimilarJobRefRequest, ctx: RpcContext): Promise<FindSimilarJobHead> {
    return this.jobs.findSimilar(ctx, req.jobId);
  }

  @RpcHandler(FindSimilarJobsList)
  listFindSimilar(req: ListFindSimilarJobsRequest, ctx: RpcContext): Promise<Page<FindSimilarJobHead>> {
    return this.jobs.listFindSimilar(ctx, req);
  }

  @RpcHandler(JobsList)
  list(req: ListJobsRequest, ctx: RpcContext): Promise<Page<JobDto>> {
    return this.jobs.list(ctx, req.kind, req);
  }

  @RpcHandler(JobsGet)
  get(req: JobRefRequest, ctx: RpcContext): Promise<JobDto> {
    return this.jobs.get(ctx, req.kind, req.jobId);
  }

  @RpcHandler(JobsInputs)
  inputs(
    req: JobRefRequest,
    ctx: RpcContext,
  ): Promise<QaJobInputsDto | ExtractionJobInputsDto | FindSimilarSourcesDto | MultiDimJobInputsDto | AgentJobInputsDto> {
    return this.jobs.inputs(ctx, req.kind, req.jobId);
  }

  @RpcHandler(JobsResults)
  results(req: JobPartRequest, ctx: RpcContext): Promise<JobPart<QaResultDto | MetaResultDto | SourceMatchesDto | AgentJobOutputsDto>> {
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
