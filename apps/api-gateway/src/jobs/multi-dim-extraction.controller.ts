import { Body } from '@nestjs/common';
import {
  CreateMultiDimJobRequestDto,
  MultiDimExtractionJobsCreate,
  MultiDimExtractionJobsRows,
  type EntityIdDto,
  type EntityRowDto,
  type JobDto,
  type MultiDimJobOutputsDto,
  type MultiDimRowsPart,
  type RpcContext,
} from '@docintel/contracts';
import { UuidParam } from '../http/uuid-param';
import { Caller } from '../identity/rpc-context.decorator';
import { IdempotencyKey, withKey } from './idempotency-key';
import { JobReadRoutes } from './jobs.controllers';
import { JOB_ROUTES, JobController, JobRoute } from './job-routes';

const ROUTES = JOB_ROUTES['multi-dim-extraction'];

/** Multi-dimensional extraction: one row per entity across the files, a cell per schema column, each cited. */
@JobController(ROUTES)
export class MultiDimExtractionJobsController extends JobReadRoutes(ROUTES, ['results']) {
  @JobRoute(ROUTES, 'create')
  create(@Body() body: CreateMultiDimJobRequestDto, @IdempotencyKey() key: string | undefined, @Caller() ctx: RpcContext): Promise<JobDto> {
    return this.rpc.call(MultiDimExtractionJobsCreate, withKey(body, key), ctx);
  }

  /** The rows, read in parts that each fit in a NATS message, with the references of all of them. */
  @JobRoute(ROUTES, 'results')
  async getResults(@UuidParam('jobId') jobId: string, @Caller() ctx: RpcContext): Promise<MultiDimJobOutputsDto> {
    const rows: EntityRowDto[] = [];
    let head: MultiDimRowsPart['head'] | undefined;
    for (let from: number | null = 0; from !== null;) {
      const part: MultiDimRowsPart = await this.rpc.call(MultiDimExtractionJobsRows, { jobId, fromRow: from }, ctx);
      head ??= part.head;
      rows.push(...part.rows);
      from = part.nextRow;
    }
    const referenceIds = new Map<string, EntityIdDto>();
    for (const r of rows) for (const ref of r.referenceIds) referenceIds.set(ref.id, ref);
    return { entityExtraction: { ...head!, referenceIds: [...referenceIds.values()], rows } };
  }
}
