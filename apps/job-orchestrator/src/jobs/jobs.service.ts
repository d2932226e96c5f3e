import { Injectable } from '@nestjs/common';
import {
  DomainError,
  toPage,
  type AgentJobInputsDto,
  type AgentJobOutputsDto,
  type AnnotationDto,
  type ExtractionJobInputsDto,
  type FindSimilarSourcesDto,
  type JobDto,
  type JobKind,
  type JobPart,
  type ListJobsQueryDto,
  type MetaResultDto,
  type MultiDimJobInputsDto,
  type Page,
  type QaJobInputsDto,
  type QaResultDto,
  type RpcContext,
  type SourceMatchesDto,
} from '@docintel/contracts';
import { JobKindRegistry } from './job-kind';
import { toAnnotationDto, toJobDto } from './job-mapper';
import type { JobRecord } from './job-records';
import { JobsRepository, ownerOf } from './jobs.repository';
import { UnitQueue } from './unit-queue';

/** What GET /inputs answers: the inputs as stored, which each kind keeps in the shape of its inputs DTO. */
export type JobInputsReply = QaJobInputsDto | ExtractionJobInputsDto | FindSimilarSourcesDto | MultiDimJobInputsDto | AgentJobInputsDto;
/** What GET /results answers, per kind that has it. */
export type JobResultsReply = QaResultDto | MetaResultDto | SourceMatchesDto | AgentJobOutputsDto;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Units read per part, and the JSON size a part stays under (NATS carries at most 1 MiB by default). */
export const UNITS_PER_PART = 200;
export const PART_BYTES = 512 * 1024;

/**
 * The units' items that fit in one part (always at least one unit's), and where the next part
 * starts: the first unit left out, or after the units read when more may follow.
 */
export function takePart<T>(units: Array<{ unit: number; items: T[] }>, fromUnit: number, totalUnits: number): JobPart<T> {
  const items: T[] = [];
  let bytes = 0;
  for (const u of units) {
    const size = Buffer.byteLength(JSON.stringify(u.items));
    if (items.length && bytes + size > PART_BYTES) return { items, nextUnit: u.unit };
    items.push(...u.items);
    bytes += size;
  }
  const next = fromUnit + UNITS_PER_PART;
  return { items, nextUnit: next < totalUnits ? next : null };
}

export const CANCELLED_MESSAGE = 'Cancelled by the user; answers given before the cancellation are kept.';

/** Reading jobs of any kind back, and cancelling them: the use cases behind the jobs.jobs.* calls. */
@Injectable()
export class JobsService {
  constructor(
    private readonly repo: JobsRepository,
    private readonly queue: UnitQueue,
    private readonly kinds: JobKindRegistry,
  ) {}

  /** A page of the caller's jobs of this kind, sorted as the query asks. */
  page<I = unknown>(ctx: RpcContext, kind: JobKind, query: ListJobsQueryDto & { conversationId?: string }) {
    return this.repo.list<I>(ownerOf(ctx), kind, {
      page: query.page,
      pageSize: query.pageSize,
      sort: query.sortProperty ?? 'createdTime',
      order: query.sortOrder ?? (query.sortProperty && query.sortProperty !== 'createdTime' ? 'ASC' : 'DESC'),
      conversationId: query.conversationId,
    });
  }

  async list(ctx: RpcContext, kind: JobKind, query: ListJobsQueryDto & { conversationId?: string }): Promise<Page<JobDto>> {
    const { jobs, total } = await this.page(ctx, kind, query);
    const counts = await this.repo.countsOf(jobs.map((j) => j.id));
    return toPage(
      jobs.map((j) => toJobDto(j, counts.get(j.id))),
      total,
      query.page,
      query.pageSize,
    );
  }

  /** The caller's job; 404 for an id that names none of theirs (another user's or namespace's alike). */
  async job<I = unknown>(ctx: RpcContext, kind: JobKind, jobId: string): Promise<JobRecord<I>> {
    const owner = ownerOf(ctx);
    const job = UUID.test(jobId) ? await this.repo.find<I>(owner, kind, jobId) : null;
    if (!job) throw DomainError.notFound(this.kinds.nounOf(kind), jobId);
    return job;
  }

  async get(ctx: RpcContext, kind: JobKind, jobId: string): Promise<JobDto> {
    const job = await this.job(ctx, kind, jobId);
    return toJobDto(job, await this.repo.counts(job.id));
  }

  async inputs(ctx: RpcContext, kind: JobKind, jobId: string): Promise<JobInputsReply> {
    const job = await this.job<JobInputsReply>(ctx, kind, jobId);
    return job.inputs;
  }

  /**
   * The answers of the units that are over, in question (or file) order; partial while the job
   * runs. One part at a time: the units from `fromUnit` on, as many as fit in PART_BYTES.
   */
  async results(ctx: RpcContext, kind: JobKind, jobId: string, fromUnit = 0): Promise<JobPart<JobResultsReply>> {
    const job = await this.job(ctx, kind, jobId);
    const units = await this.repo.unitResults<JobResultsReply>(job.id, fromUnit, UNITS_PER_PART);
    const total = await this.repo.unitCount(job.id);
    return takePart(
      units.map((u) => ({ unit: u.unit, items: u.results })),
      fromUnit,
      total,
    );
  }

  async annotations(ctx: RpcContext, kind: JobKind, jobId: string, fromUnit = 0): Promise<JobPart<AnnotationDto>> {
    const job = await this.job(ctx, kind, jobId);
    const rows = await this.repo.annotations(job.id, fromUnit, UNITS_PER_PART);
    const total = await this.repo.unitCount(job.id);
    const byUnit = new Map<number, AnnotationDto[]>();
    for (const a of rows) byUnit.set(a.unit, [...(byUnit.get(a.unit) ?? []), toAnnotationDto(job, a)]);
    return takePart(
      [...byUnit].map(([unit, items]) => ({ unit, items })),
      fromUnit,
      total,
    );
  }

  async cancel(ctx: RpcContext, kind: JobKind, jobId: string): Promise<JobDto> {
    const job = await this.job(ctx, kind, jobId);
    // The cancelled units no longer hold the namespace's allowance: hand out the ones waiting.
    if (await this.repo.abort(job.id, CANCELLED_MESSAGE)) await this.queue.publishReady(job.id).catch(() => undefined);
    return this.get(ctx, kind, jobId);
  }
}
