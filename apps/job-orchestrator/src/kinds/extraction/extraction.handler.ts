import { Injectable } from '@nestjs/common';
import { CreateExtractionJobRequest, ExtractionJobsCreate, type JobDto, type RpcContext } from '@docintel/contracts';
import { RpcHandler } from '@docintel/messaging';
import { ExtractionJobs } from './extraction-jobs';

/** The extraction job's own call; its reads and cancel are the jobs.jobs.* calls of kind extraction. */
@Injectable()
export class ExtractionJobsHandler {
  constructor(private readonly jobs: ExtractionJobs) {}

  @RpcHandler(ExtractionJobsCreate)
  create(req: CreateExtractionJobRequest, ctx: RpcContext): Promise<JobDto> {
    return this.jobs.create(ctx, req);
  }
}
