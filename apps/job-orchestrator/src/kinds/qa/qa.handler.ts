import { Injectable } from '@nestjs/common';
import { CreateQaJobRequest, QaJobsCreate, type JobDto, type RpcContext } from '@docintel/contracts';
import { RpcHandler } from '@docintel/messaging';
import { QaJobs } from './qa-jobs';

/** The QA job's own call; its reads and cancel are the jobs.jobs.* calls of kind qa. */
@Injectable()
export class QaJobsHandler {
  constructor(private readonly jobs: QaJobs) {}

  @RpcHandler(QaJobsCreate)
  create(req: CreateQaJobRequest, ctx: RpcContext): Promise<JobDto> {
    return this.jobs.create(ctx, req);
  }
}
