import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiExtraModels, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  AnnotationDto,
  CreateExtractionJobRequestDto,
  CreateQaJobRequestDto,
  ExtractionJobInputsDto,
  ExtractionJobOutputsDto,
  ExtractionJobsCreate,
  JobDto,
  JobPageDto,
  JobsAnnotations,
  JobsCancel,
  JobsGet,
  JobsInputs,
  JobsList,
  JobsResults,
  ListJobsQueryDto,
  QaJobInputsDto,
  QaJobOutputsDto,
  QaJobsCreate,
  type JobKind,
  type JobPart,
  type RpcContext,
} from '@docintel/contracts';
import { RpcClient } from '@docintel/messaging';
import { ApiErrors } from '../http/api-errors.decorator';
import { UuidParam } from '../http/uuid-param';
import { Caller } from '../identity/rpc-context.decorator';
import { IdempotencyKey, JobCreateContract, withKey } from './idempotency-key';

export const JOB_ID = ApiParam({ name: 'jobId', type: 'string', description: 'The job Id' });

/** The reads every job kind shares; the routes are declared per kind so that each has its reference operationId. */
export class JobReads {
  constructor(
    protected readonly rpc: RpcClient,
    private readonly kind: JobKind,
  ) {}

  protected listJobs(query: ListJobsQueryDto, ctx: RpcContext): Promise<JobPageDto> {
    return this.rpc.call(JobsList, { ...query, kind: this.kind }, ctx);
  }

  protected job(jobId: string, ctx: RpcContext): Promise<JobDto> {
    return this.rpc.call(JobsGet, { kind: this.kind, jobId }, ctx);
  }

  protected inputs(jobId: string, ctx: RpcContext) {
    return this.rpc.call(JobsInputs, { kind: this.kind, jobId }, ctx);
  }

  protected async results(jobId: string, ctx: RpcContext): Promise<QaJobOutputsDto | ExtractionJobOutputsDto> {
    const results = await this.allParts((fromUnit) => this.rpc.call(JobsResults, { kind: this.kind, jobId, fromUnit }, ctx));
    return { results } as QaJobOutputsDto | ExtractionJobOutputsDto;
  }

  protected annotations(jobId: string, ctx: RpcContext): Promise<AnnotationDto[]> {
    return this.allParts((fromUnit) => this.rpc.call(JobsAnnotations, { kind: this.kind, jobId, fromUnit }, ctx));
  }

  /** Results and citations come in parts that each fit in one NATS message; the client gets them whole. */
  private async allParts<T>(read: (fromUnit: number) => Promise<JobPart<T>>): Promise<T[]> {
    const items: T[] = [];
    for (let next: number | null = 0; next !== null;) {
      const part: JobPart<T> = await read(next);
      items.push(...part.items);
      next = part.nextUnit;
    }
    return items;
  }

  protected cancelJob(jobId: string, ctx: RpcContext): Promise<JobDto> {
    return this.rpc.call(JobsCancel, { kind: this.kind, jobId }, ctx);
  }
}

export const PARTIAL = 'While the job runs, the answers given so far (poll the job until its status is terminal for all of them).';

/** Question answering over indexed files; every answer cites where it was read. */
@ApiTags('Question Answering')
@ApiBearerAuth('TOKEN')
@ApiExtraModels(QaJobOutputsDto, QaJobInputsDto)
@Controller('api/core/qa/jobs')
export class QaJobsController extends JobReads {
  constructor(rpc: RpcClient) {
    super(rpc, 'qa');
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'createQAJob',
    summary: 'Create QA job',
    description: 'Creates a question answering job on the specified files; it runs asynchronously.',
  })
  @JobCreateContract()
  @ApiOkResponse({
    type: JobDto,
    description: 'Job created successfully (or the job an earlier request with the same Idempotency-Key created)',
  })
  @ApiErrors(400, 401, 415)
  create(@Body() body: CreateQaJobRequestDto, @IdempotencyKey() key: string | undefined, @Caller() ctx: RpcContext): Promise<JobDto> {
    return this.rpc.call(QaJobsCreate, withKey(body, key), ctx);
  }

  @Get()
  @ApiOperation({ operationId: 'listQAJobs', summary: 'List QA jobs', description: "The caller's QA jobs, newest first by default." })
  @ApiOkResponse({ type: JobPageDto })
  @ApiErrors(400, 401)
  list(@Query() query: ListJobsQueryDto, @Caller() ctx: RpcContext): Promise<JobPageDto> {
    return this.listJobs(query, ctx);
  }

  @Get(':jobId')
  @ApiOperation({ operationId: 'getQAJob', summary: 'Get QA job', description: 'The job, with its progress (extension).' })
  @JOB_ID
  @ApiOkResponse({ type: JobDto })
  @ApiErrors(400, 401, 404)
  get(@UuidParam('jobId') jobId: string, @Caller() ctx: RpcContext): Promise<JobDto> {
    return this.job(jobId, ctx);
  }

  @Get(':jobId/inputs')
  @ApiOperation({ operationId: 'getQAJobInputs', summary: 'Get QA job inputs' })
  @JOB_ID
  @ApiOkResponse({ type: QaJobInputsDto })
  @ApiErrors(400, 401, 404)
  getInputs(@UuidParam('jobId') jobId: string, @Caller() ctx: RpcContext) {
    return this.inputs(jobId, ctx);
  }

  @Get(':jobId/results')
  @ApiOperation({ operationId: 'getQAJobOutputs', summary: 'Get QA job outputs', description: `One result per question. ${PARTIAL}` })
  @JOB_ID
  @ApiOkResponse({ type: QaJobOutputsDto })
  @ApiErrors(400, 401, 404)
  getResults(@UuidParam('jobId') jobId: string, @Caller() ctx: RpcContext) {
    return this.results(jobId, ctx);
  }

  @Get(':jobId/annotations')
  @ApiOperation({
    operationId: 'getQAJobAnnotations',
    summary: 'Get QA job annotations',
    description: `The citations of the answers. ${PARTIAL}`,
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
    operationId: 'cancelQAJob',
    summary: 'Cancel a QA job (extension)',
    description: 'Ends a PENDING or RUNNING job as ABORTED; answers given so far stay readable. A terminal job is returned unchanged.',
  })
  @JOB_ID
  @ApiOkResponse({ type: JobDto })
  @ApiErrors(400, 401, 404)
  cancel(@UuidParam('jobId') jobId: string, @Caller() ctx: RpcContext): Promise<JobDto> {
    return this.cancelJob(jobId, ctx);
  }
}

/** Metadata extraction: each meta is read from each file, typed and cited. */
@ApiTags('Extraction')
@ApiBearerAuth('TOKEN')
@ApiExtraModels(ExtractionJobOutputsDto, ExtractionJobInputsDto)
@Controller('api/core/extraction/jobs')
export class ExtractionJobsController extends JobReads {
  constructor(rpc: RpcClient) {
    super(rpc, 'extraction');
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'createExtractionJob',
    summary: 'Create extraction job',
    description: 'Extracts each meta from each file; runs asynchronously.',
  })
  @JobCreateContract()
  @ApiOkResponse({
    type: JobDto,
    description: 'Job created successfully (or the job an earlier request with the same Idempotency-Key created)',
  })
  @ApiErrors(400, 401, 415)
  create(
    @Body() body: CreateExtractionJobRequestDto,
    @IdempotencyKey() key: string | undefined,
    @Caller() ctx: RpcContext,
  ): Promise<JobDto> {
    return this.rpc.call(ExtractionJobsCreate, withKey(body, key), ctx);
  }

  @Get()
  @ApiOperation({
    operationId: 'listExtractionJobs',
    summary: 'List extraction jobs',
    description: "The caller's extraction jobs, newest first by default.",
  })
  @ApiOkResponse({ type: JobPageDto })
  @ApiErrors(400, 401)
  list(@Query() query: ListJobsQueryDto, @Caller() ctx: RpcContext): Promise<JobPageDto> {
    return this.listJobs(query, ctx);
  }

  @Get(':jobId')
  @ApiOperation({ operationId: 'getExtractionJob', summary: 'Get extraction job', description: 'The job, with its progress (extension).' })
  @JOB_ID
  @ApiOkResponse({ type: JobDto })
  @ApiErrors(400, 401, 404)
  get(@UuidParam('jobId') jobId: string, @Caller() ctx: RpcContext): Promise<JobDto> {
    return this.job(jobId, ctx);
  }

  @Get(':jobId/inputs')
  @ApiOperation({ operationId: 'getExtractionJobInputs', summary: 'Get extraction job inputs' })
  @JOB_ID
  @ApiOkResponse({ type: ExtractionJobInputsDto })
  @ApiErrors(400, 401, 404)
  getInputs(@UuidParam('jobId') jobId: string, @Caller() ctx: RpcContext) {
    return this.inputs(jobId, ctx);
  }

  @Get(':jobId/results')
  @ApiOperation({
    operationId: 'getExtractionJobOutputs',
    summary: 'Get extraction job outputs',
    description: `One result per meta and file (fileId, extension). ${PARTIAL}`,
  })
  @JOB_ID
  @ApiOkResponse({ type: ExtractionJobOutputsDto })
  @ApiErrors(400, 401, 404)
  getResults(@UuidParam('jobId') jobId: string, @Caller() ctx: RpcContext) {
    return this.results(jobId, ctx);
  }

  @Get(':jobId/annotations')
  @ApiOperation({
    operationId: 'getExtractionJobAnnotations',
    summary: 'Get extraction job annotations',
    description: `The citations of the values. ${PARTIAL}`,
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
    operationId: 'cancelExtractionJob',
    summary: 'Cancel an extraction job (extension)',
    description: 'Ends a PENDING or RUNNING job as ABORTED; values extracted so far stay readable. A terminal job is returned unchanged.',
  })
  @JOB_ID
  @ApiOkResponse({ type: JobDto })
  @ApiErrors(400, 401, 404)
  cancel(@UuidParam('jobId') jobId: string, @Caller() ctx: RpcContext): Promise<JobDto> {
    return this.cancelJob(jobId, ctx);
  }
}
