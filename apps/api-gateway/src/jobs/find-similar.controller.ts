import { Body, Query } from '@nestjs/common';
import {
  CreateFindSimilarJobRequestDto,
  FIND_SIMILAR_KIND,
  FindSimilarJobsCreate,
  FindSimilarJobsGet,
  FindSimilarJobsList,
  JobsCancel,
  JobsResults,
  ListJobsQueryDto,
  findSimilarStatistics,
  type FindSimilarJobDto,
  type FindSimilarJobHead,
  type FindSimilarJobPageDto,
  type JobPart,
  type RpcContext,
  type SourceMatchesDto,
} from '@docintel/contracts';
import { RpcClient } from '@docintel/messaging';
import { UuidParam } from '../http/uuid-param';
import { Caller } from '../identity/rpc-context.decorator';
import { IdempotencyKey, withKey } from './idempotency-key';
import { JOB_ROUTES, JobController, JobRoute } from './job-routes';

const ROUTES = JOB_ROUTES['find-similar'];

/** Jobs of a list page whose results are read at once. */
const READ_CONCURRENCY = 4;

/**
 * Find-similar: for each source (file id, DOI or open-access id), the caller's files that are that
 * document or most similar to it, and what a remote bibliographic search knows of it.
 */
@JobController(ROUTES)
export class FindSimilarJobsController {
  constructor(private readonly rpc: RpcClient) {}

  @JobRoute(ROUTES, 'create')
  async create(
    @Body() body: CreateFindSimilarJobRequestDto,
    @IdempotencyKey() key: string | undefined,
    @Caller() ctx: RpcContext,
  ): Promise<FindSimilarJobDto> {
    return this.whole(await this.rpc.call(FindSimilarJobsCreate, withKey(body, key), ctx), ctx);
  }

  @JobRoute(ROUTES, 'list')
  async list(@Query() query: ListJobsQueryDto, @Caller() ctx: RpcContext): Promise<FindSimilarJobPageDto> {
    const page = await this.rpc.call(FindSimilarJobsList, query, ctx);
    const data: FindSimilarJobDto[] = new Array<FindSimilarJobDto>(page.data.length);
    for (let i = 0; i < page.data.length; i += READ_CONCURRENCY) {
      const slice = page.data.slice(i, i + READ_CONCURRENCY);
      (await Promise.all(slice.map((head) => this.whole(head, ctx)))).forEach((job, k) => (data[i + k] = job));
    }
    return { ...page, data };
  }

  @JobRoute(ROUTES, 'get')
  async get(@UuidParam('jobId') jobId: string, @Caller() ctx: RpcContext): Promise<FindSimilarJobDto> {
    return this.whole(await this.rpc.call(FindSimilarJobsGet, { jobId }, ctx), ctx);
  }

  @JobRoute(ROUTES, 'cancel')
  async cancel(@UuidParam('jobId') jobId: string, @Caller() ctx: RpcContext): Promise<FindSimilarJobDto> {
    await this.rpc.call(JobsCancel, { kind: FIND_SIMILAR_KIND, jobId }, ctx);
    return this.get(jobId, ctx);
  }

  /** The job with its result, read in parts that each fit in a NATS message, and the statistics of that result. */
  private async whole(head: FindSimilarJobHead, ctx: RpcContext): Promise<FindSimilarJobDto> {
    const result: SourceMatchesDto[] = [];
    for (let next: number | null = 0; next !== null;) {
      const part: JobPart<unknown> = await this.rpc.call(JobsResults, { kind: FIND_SIMILAR_KIND, jobId: head.jobId, fromUnit: next }, ctx);
      result.push(...(part.items as SourceMatchesDto[]));
      next = part.nextUnit;
    }
    return { ...head, result, statistics: findSimilarStatistics(result) };
  }
}
