import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  CreateFindSimilarJobRequestDto,
  FIND_SIMILAR_KIND,
  FIND_SIMILAR_LIMITS,
  FindSimilarJobDto,
  FindSimilarJobPageDto,
  FindSimilarJobsCreate,
  FindSimilarJobsGet,
  FindSimilarJobsList,
  JobsCancel,
  JobsResults,
  ListJobsQueryDto,
  findSimilarStatistics,
  type FindSimilarJobHead,
  type JobPart,
  type RpcContext,
  type SourceMatchesDto,
} from '@docintel/contracts';
import { RpcClient } from '@docintel/messaging';
import { ApiErrors } from '../http/api-errors.decorator';
import { UuidParam } from '../http/uuid-param';
import { Caller } from '../identity/rpc-context.decorator';
import { IdempotencyKey, JobCreateContract, withKey } from './idempotency-key';

const JOB_ID = ApiParam({ name: 'jobId', type: 'string', description: 'The job Id' });

/** Jobs of a list page whose results are read at once. */
const READ_CONCURRENCY = 4;

/**
 * Find-similar: for each source (file id, DOI or open-access id), the caller's files that are that
 * document or most similar to it, and what a remote bibliographic search knows of it.
 */
@ApiTags('Find Similar')
@ApiBearerAuth('TOKEN')
@Controller('api/core/find-similar/jobs')
export class FindSimilarJobsController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'createFindSimilarJob',
    summary: 'Create find-similar job',
    description: `Finds, for each source, your indexed files that are that document or most similar to it; runs asynchronously (poll the job until COMPLETED or FAILED). At most ${FIND_SIMILAR_LIMITS.sources} sources.`,
  })
  @JobCreateContract()
  @ApiOkResponse({
    type: FindSimilarJobDto,
    description: 'Job created (PENDING or RUNNING), or the job an earlier request with the same Idempotency-Key created',
  })
  @ApiErrors(400, 401, 415)
  async create(
    @Body() body: CreateFindSimilarJobRequestDto,
    @IdempotencyKey() key: string | undefined,
    @Caller() ctx: RpcContext,
  ): Promise<FindSimilarJobDto> {
    return this.whole(await this.rpc.call(FindSimilarJobsCreate, withKey(body, key), ctx), ctx);
  }

  @Get()
  @ApiOperation({
    operationId: 'listFindSimilarJobs',
    summary: 'List find-similar jobs',
    description: "The caller's find-similar jobs, newest first by default.",
  })
  @ApiOkResponse({ type: FindSimilarJobPageDto })
  @ApiErrors(400, 401)
  async list(@Query() query: ListJobsQueryDto, @Caller() ctx: RpcContext): Promise<FindSimilarJobPageDto> {
    const page = await this.rpc.call(FindSimilarJobsList, query, ctx);
    const data: FindSimilarJobDto[] = new Array<FindSimilarJobDto>(page.data.length);
    for (let i = 0; i < page.data.length; i += READ_CONCURRENCY) {
      const slice = page.data.slice(i, i + READ_CONCURRENCY);
      (await Promise.all(slice.map((head) => this.whole(head, ctx)))).forEach((job, k) => (data[i + k] = job));
    }
    return { ...page, data };
  }

  @Get(':jobId')
  @ApiOperation({
    operationId: 'getFindSimilarJob',
    summary: 'Get find-similar job',
    description: 'The job with its result so far and statistics.',
  })
  @JOB_ID
  @ApiOkResponse({ type: FindSimilarJobDto })
  @ApiErrors(400, 401, 404)
  async get(@UuidParam('jobId') jobId: string, @Caller() ctx: RpcContext): Promise<FindSimilarJobDto> {
    return this.whole(await this.rpc.call(FindSimilarJobsGet, { jobId }, ctx), ctx);
  }

  @Post(':jobId/cancel')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'cancelFindSimilarJob',
    summary: 'Cancel a find-similar job (extension)',
    description:
      'Ends a PENDING or RUNNING job as ABORTED; sources searched so far stay in the result. A terminal job is returned unchanged.',
  })
  @JOB_ID
  @ApiOkResponse({ type: FindSimilarJobDto })
  @ApiErrors(400, 401, 404)
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
