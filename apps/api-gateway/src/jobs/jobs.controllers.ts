import { Body, Injectable, Query, type Type } from '@nestjs/common';
import {
  CreateExtractionJobRequestDto,
  CreateQaJobRequestDto,
  ExtractionJobsCreate,
  JobsAnnotations,
  JobsCancel,
  JobsGet,
  JobsInputs,
  JobsList,
  JobsResults,
  ListJobsQueryDto,
  QaJobsCreate,
  type AnnotationDto,
  type ExtractionJobOutputsDto,
  type JobDto,
  type JobKind,
  type JobPageDto,
  type JobPart,
  type QaJobOutputsDto,
  type RpcContext,
} from '@docintel/contracts';
import { RpcClient } from '@docintel/messaging';
import { UuidParam } from '../http/uuid-param';
import { Caller } from '../identity/rpc-context.decorator';
import { IdempotencyKey, withKey } from './idempotency-key';
import { JOB_ROUTES, JobController, JobRoute, type JobAction, type JobKindRoutes } from './job-routes';

/** The reads every job kind shares; the routes are declared per kind (JOB_ROUTES) so that each has its reference operationId. */
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

/** The methods of JobReadRoutes, by the action each serves. */
const READ_METHODS = {
  list: 'list',
  get: 'get',
  inputs: 'getInputs',
  results: 'getResults',
  annotations: 'getAnnotations',
  cancel: 'cancel',
} as const satisfies Partial<Record<JobAction, string>>;

/**
 * A kind's read routes (list, get, inputs, results, annotations, cancel), each decorated from the
 * kind's row of JOB_ROUTES; the actions in `own` are routes its controller declares itself, as it
 * answers them otherwise.
 */
export function JobReadRoutes(routes: JobKindRoutes, own: Array<keyof typeof READ_METHODS> = []): Type<JobReads> {
  // Injectable, so that the constructor's parameter types are recorded for the controllers extending it.
  @Injectable()
  class KindReads extends JobReads {
    constructor(rpc: RpcClient) {
      super(rpc, routes.kind);
    }

    list(@Query() query: ListJobsQueryDto, @Caller() ctx: RpcContext): Promise<JobPageDto> {
      return this.listJobs(query, ctx);
    }

    get(@UuidParam('jobId') jobId: string, @Caller() ctx: RpcContext): Promise<JobDto> {
      return this.job(jobId, ctx);
    }

    getInputs(@UuidParam('jobId') jobId: string, @Caller() ctx: RpcContext) {
      return this.inputs(jobId, ctx);
    }

    getResults(@UuidParam('jobId') jobId: string, @Caller() ctx: RpcContext) {
      return this.results(jobId, ctx);
    }

    getAnnotations(@UuidParam('jobId') jobId: string, @Caller() ctx: RpcContext): Promise<AnnotationDto[]> {
      return this.annotations(jobId, ctx);
    }

    cancel(@UuidParam('jobId') jobId: string, @Caller() ctx: RpcContext): Promise<JobDto> {
      return this.cancelJob(jobId, ctx);
    }
  }
  for (const [action, method] of Object.entries(READ_METHODS) as Array<[keyof typeof READ_METHODS, string]>) {
    if (own.includes(action)) continue;
    const descriptor = Object.getOwnPropertyDescriptor(KindReads.prototype, method) as PropertyDescriptor;
    JobRoute(routes, action)(KindReads.prototype, method, descriptor);
  }
  return KindReads;
}

/** Question answering over indexed files; every answer cites where it was read. */
@JobController(JOB_ROUTES.qa)
export class QaJobsController extends JobReadRoutes(JOB_ROUTES.qa) {
  @JobRoute(JOB_ROUTES.qa, 'create')
  create(@Body() body: CreateQaJobRequestDto, @IdempotencyKey() key: string | undefined, @Caller() ctx: RpcContext): Promise<JobDto> {
    return this.rpc.call(QaJobsCreate, withKey(body, key), ctx);
  }
}

/** Metadata extraction: each meta is read from each file, typed and cited. */
@JobController(JOB_ROUTES.extraction)
export class ExtractionJobsController extends JobReadRoutes(JOB_ROUTES.extraction) {
  @JobRoute(JOB_ROUTES.extraction, 'create')
  create(
    @Body() body: CreateExtractionJobRequestDto,
    @IdempotencyKey() key: string | undefined,
    @Caller() ctx: RpcContext,
  ): Promise<JobDto> {
    return this.rpc.call(ExtractionJobsCreate, withKey(body, key), ctx);
  }
}
