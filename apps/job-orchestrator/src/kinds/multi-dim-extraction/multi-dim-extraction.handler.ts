import { Injectable } from '@nestjs/common';
import {
  CreateMultiDimJobRequest,
  MultiDimExtractionJobsCreate,
  MultiDimExtractionJobsRows,
  MultiDimRowsRequest,
  type JobDto,
  type MultiDimRowsPart,
  type RpcContext,
} from '@docintel/contracts';
import { RpcHandler } from '@docintel/messaging';
import { MultiDimExtractionJobs } from './multi-dim-extraction-jobs';

/** The multi-dimensional extraction job's own calls; its other reads and cancel are the jobs.jobs.* calls of its kind. */
@Injectable()
export class MultiDimExtractionJobsHandler {
  constructor(private readonly jobs: MultiDimExtractionJobs) {}

  @RpcHandler(MultiDimExtractionJobsCreate)
  create(req: CreateMultiDimJobRequest, ctx: RpcContext): Promise<JobDto> {
    return this.jobs.create(ctx, req);
  }

  @RpcHandler(MultiDimExtractionJobsRows)
  rows(req: MultiDimRowsRequest, ctx: RpcContext): Promise<MultiDimRowsPart> {
    return this.jobs.rows(ctx, req.jobId, req.fromRow);
  }
}
