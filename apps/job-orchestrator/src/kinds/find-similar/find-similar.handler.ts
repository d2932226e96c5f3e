import { Injectable } from '@nestjs/common';
import {
  CreateFindSimilarJobRequest,
  FindSimilarJobRefRequest,
  FindSimilarJobsCreate,
  FindSimilarJobsGet,
  FindSimilarJobsList,
  ListFindSimilarJobsRequest,
  type FindSimilarJobHead,
  type Page,
  type RpcContext,
} from '@docintel/contracts';
import { RpcHandler } from '@docintel/messaging';
import { FindSimilarJobs } from './find-similar-jobs';

/** The find-similar job's own calls: it is created and read in its own shape (FindSimilarJob, not Job). */
@Injectable()
export class FindSimilarJobsHandler {
  constructor(private readonly jobs: FindSimilarJobs) {}

  @RpcHandler(FindSimilarJobsCreate)
  create(req: CreateFindSimilarJobRequest, ctx: RpcContext): Promise<FindSimilarJobHead> {
    return this.jobs.create(ctx, req);
  }

  @RpcHandler(FindSimilarJobsGet)
  get(req: FindSimilarJobRefRequest, ctx: RpcContext): Promise<FindSimilarJobHead> {
    return this.jobs.get(ctx, req.jobId);
  }

  @RpcHandler(FindSimilarJobsList)
  list(req: ListFindSimilarJobsRequest, ctx: RpcContext): Promise<Page<FindSimilarJobHead>> {
    return this.jobs.list(ctx, req);
  }
}
