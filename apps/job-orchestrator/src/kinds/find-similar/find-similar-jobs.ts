import { Injectable } from '@nestjs/common';
import {
  JOB_TASK_TYPES,
  toPage,
  type CreateFindSimilarJobRequest,
  type FindSimilarJobHead,
  type FindSimilarStatus,
  type ListJobsQueryDto,
  type Page,
  type RpcContext,
} from '@docintel/contracts';
import { JobCreation, shorten, type JobPlan } from '../../jobs/job-creation';
import type { JobRecord, NewUnit, UnitCounts } from '../../jobs/job-records';
import { JobsRepository } from '../../jobs/jobs.repository';
import { JobsService } from '../../jobs/jobs.service';
import { findSimilarInputs, type FindSimilarInputs } from './find-similar-inputs';

/** How a find-similar source is named in its unit's label and the job's name. */
const sourceLabel = (s: { doi?: string; id?: string; openAccessId?: string }) =>
  [s.id && `id ${s.id}`, s.doi && `doi ${s.doi}`, s.openAccessId && `openAccessId ${s.openAccessId}`].filter(Boolean).join(', ');

/** Creating find-similar jobs and reading them back in their own shape (FindSimilarJobHead, not Job). */
@Injectable()
export class FindSimilarJobs {
  constructor(
    private readonly creation: JobCreation,
    private readonly jobs: JobsService,
    private readonly repo: JobsRepository,
  ) {}

  /** One unit per source; the job's files are the ones its units find, so none are resolved up front. */
  create(ctx: RpcContext, req: CreateFindSimilarJobRequest): Promise<FindSimilarJobHead> {
    const inputs = findSimilarInputs(req);
    const plan = (): Promise<JobPlan<FindSimilarInputs>> => {
      const units: NewUnit[] = inputs.sourceIdentifiers.map((s, i) => ({
        unit: i,
        label: shorten(`source ${sourceLabel(s)}`),
        fileId: null,
        dependsOn: [],
      }));
      const more = units.length > 1 ? ` and ${units.length - 1} more` : '';
      return Promise.resolve({
        name: shorten(`Find similar: ${sourceLabel(inputs.sourceIdentifiers[0])}${more}`),
        inputs,
        files: [],
        units,
      });
    };
    return this.creation.create(ctx, 'find-similar', req, {}, plan, async (job) => toFindSimilarHead(job, await this.repo.counts(job.id)));
  }

  async get(ctx: RpcContext, jobId: string): Promise<FindSimilarJobHead> {
    const job = await this.jobs.job<FindSimilarInputs>(ctx, 'find-similar', jobId);
    return toFindSimilarHead(job, await this.repo.counts(job.id));
  }

  async list(ctx: RpcContext, query: ListJobsQueryDto): Promise<Page<FindSimilarJobHead>> {
    const { jobs, total } = await this.jobs.page<FindSimilarInputs>(ctx, 'find-similar', query);
    const counts = await this.repo.countsOf(jobs.map((j) => j.id));
    return toPage(
      jobs.map((j) => toFindSimilarHead(j, counts.get(j.id))),
      total,
      query.page,
      query.pageSize,
    );
  }
}

/** A find-similar job as the orchestrator answers it; executionTimeMs so far while it runs. The gateway adds result and statistics. */
function toFindSimilarHead(job: JobRecord<FindSimilarInputs>, counts?: UnitCounts): FindSimilarJobHead {
  const end = job.finishedAt ?? (job.startedAt ? new Date() : null);
  const head: FindSimilarJobHead = {
    jobId: job.id,
    status: job.status as FindSimilarStatus,
    createdTime: job.createdAt.getTime(),
    modifiedTime: job.modifiedAt.getTime(),
    sources: { sourceIdentifiers: job.inputs.sourceIdentifiers },
    taskType: JOB_TASK_TYPES[job.kind],
  };
  if (job.startedAt && end) head.executionTimeMs = Math.max(0, end.getTime() - job.startedAt.getTime());
  if (job.errorMessage) head.errorMessage = job.errorMessage;
  if (counts) head.progress = counts;
  return head;
}
