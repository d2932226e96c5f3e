import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  AnnotationDto,
  CreateMultiDimJobRequestDto,
  JobDto,
  JobPageDto,
  ListJobsQueryDto,
  MultiDimJobInputsDto,
  MultiDimJobOutputsDto,
  MultiDimJobsCreate,
  MultiDimJobsRows,
  type EntityIdDto,
  type EntityRowDto,
  type MultiDimRowsPart,
  type RpcContext,
} from '@docintel/contracts';
import { RpcClient } from '@docintel/messaging';
import { ApiErrors } from '../http/api-errors.decorator';
import { UuidParam } from '../http/uuid-param';
import { Caller } from '../identity/rpc-context.decorator';
import { IdempotencyKey, JobCreateContract, withKey } from './idempotency-key';
import { JOB_ID, JobReads, PARTIAL } from './jobs.controllers';

/** Multi-dimensional extraction: one row per entity across the files, a cell per schema column, each cited. */
@ApiTags('Multi-dimensional extraction')
@ApiBearerAuth('TOKEN')
@ApiExtraModels(MultiDimJobOutputsDto, MultiDimJobInputsDto)
@Controller('api/core/multi-dim-extraction/jobs')
export class MultiDimJobsController extends JobReads {
  constructor(rpc: RpcClient) {
    super(rpc, 'multi-dim-extraction');
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'createMultiDimExtractionJob',
    summary: 'Create multi-dimensional extraction job',
    description: 'Reads one row per entity of the schema from the files (their tables first, else their text); runs asynchronously.',
  })
  @JobCreateContract()
  @ApiOkResponse({
    type: JobDto,
    description: 'Job created successfully (or the job an earlier request with the same Idempotency-Key created)',
  })
  @ApiErrors(400, 401, 415)
  create(@Body() body: CreateMultiDimJobRequestDto, @IdempotencyKey() key: string | undefined, @Caller() ctx: RpcContext): Promise<JobDto> {
    return this.rpc.call(MultiDimJobsCreate, withKey(body, key), ctx);
  }

  @Get()
  @ApiOperation({
    operationId: 'listMultiDimExtractionJobs',
    summary: 'List multi-dimensional extraction jobs',
    description: "The caller's jobs, newest first by default.",
  })
  @ApiOkResponse({ type: JobPageDto })
  @ApiErrors(400, 401)
  list(@Query() query: ListJobsQueryDto, @Caller() ctx: RpcContext): Promise<JobPageDto> {
    return this.listJobs(query, ctx);
  }

  @Get(':jobId')
  @ApiOperation({
    operationId: 'getMultiDimExtractionJob',
    summary: 'Get multi-dimensional extraction job',
    description: 'The job, with its progress (extension): one unit per file.',
  })
  @JOB_ID
  @ApiOkResponse({ type: JobDto })
  @ApiErrors(400, 401, 404)
  get(@UuidParam('jobId') jobId: string, @Caller() ctx: RpcContext): Promise<JobDto> {
    return this.job(jobId, ctx);
  }

  @Get(':jobId/inputs')
  @ApiOperation({ operationId: 'getMultiDimExtractionJobInputs', summary: 'Get multi-dimensional extraction job inputs' })
  @JOB_ID
  @ApiOkResponse({ type: MultiDimJobInputsDto })
  @ApiErrors(400, 401, 404)
  getInputs(@UuidParam('jobId') jobId: string, @Caller() ctx: RpcContext) {
    return this.inputs(jobId, ctx);
  }

  @Get(':jobId/results')
  @ApiOperation({
    operationId: 'getMultiDimExtractionJobOutputs',
    summary: 'Get multi-dimensional extraction job outputs',
    description: `The rows, merged across files on the schema's row keys; conflicting values are named in the cell's explanation. ${PARTIAL}`,
  })
  @JOB_ID
  @ApiOkResponse({ type: MultiDimJobOutputsDto })
  @ApiErrors(400, 401, 404)
  async getResults(@UuidParam('jobId') jobId: string, @Caller() ctx: RpcContext): Promise<MultiDimJobOutputsDto> {
    const rows: EntityRowDto[] = [];
    let head: MultiDimRowsPart['head'] | undefined;
    for (let from: number | null = 0; from !== null;) {
      const part: MultiDimRowsPart = await this.rpc.call(MultiDimJobsRows, { jobId, fromRow: from }, ctx);
      head ??= part.head;
      rows.push(...part.rows);
      from = part.nextRow;
    }
    const referenceIds = new Map<string, EntityIdDto>();
    for (const r of rows) for (const ref of r.referenceIds) referenceIds.set(ref.id, ref);
    return { entityExtraction: { ...head!, referenceIds: [...referenceIds.values()], rows } };
  }

  @Get(':jobId/annotations')
  @ApiOperation({
    operationId: 'getMultiDimExtractionJobAnnotations',
    summary: 'Get multi-dimensional extraction job annotations',
    description: `The citations of the cells. ${PARTIAL}`,
  })
  @JOB_ID
  @ApiOkResponse({ type: [AnnotationDto] })
  @ApiErrors(400, 401, 404)
  getAnnotations(@UuidParam('jobId') jobId: string, @Caller() ctx: RpcContext): Promise<AnnotationDto[]> {
    return this.annotations(jobId, ctx);
  }

  @Post(':jobId/cancel')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'cancelMultiDimExtractionJob',
    summary: 'Cancel a multi-dimensional extraction job (extension)',
    description: 'Ends a PENDING or RUNNING job as ABORTED; rows read so far stay readable. A terminal job is returned unchanged.',
  })
  @JOB_ID
  @ApiOkResponse({ type: JobDto })
  @ApiErrors(400, 401, 404)
  cancel(@UuidParam('jobId') jobId: string, @Caller() ctx: RpcContext): Promise<JobDto> {
    return this.cancelJob(jobId, ctx);
  }
}
