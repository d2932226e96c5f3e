import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  type AgentJobInputsDto,
  type AgentJobOutputsDto,
  DomainError,
  ErrorCode,
  FilesResolve,
  JOB_LIMITS,
  toPage,
  type AnnotationDto,
  type CreateExtractionJobRequest,
  type CreateFindSimilarJobRequest,
  type CreateMultiDimJobRequest,
  type MultiDimRowsPart,
  type CreateQaJobRequest,
  type FindSimilarJobHead,
  type FindSimilarSourcesDto,
  type MultiDimJobInputsDto,
  type SourceMatchesDto,
  type ErrorDetail,
  type ExtractionJobInputsDto,
  type FilesInputDto,
  type JobDto,
  type JobKind,
  type ListJobsQueryDto,
  type Page,
  type QaJobInputsDto,
  type QaResultDto,
  type MetaResultDto,
  type JobPart,
  type RpcContext,
} from '@docintel/contracts';
import { RpcClient } from '@docintel/messaging';
import { LOGGER, Metrics, type Logger } from '@docintel/observability';
import { SERVICE_ENV } from '@docintel/runtime';
import type { EntityManager } from 'typeorm';
import type { JobsEnv } from '../jobs.env';
import { entityExtractionOf } from '../multi-dim/entity-extraction';
import { multiDimInputs, type MultiDimInputs } from '../multi-dim/multi-dim-inputs';
import type { FileEntityRows } from '../multi-dim/multi-dim-unit';
import { IdempotencyKeyTaken, createRequestHash, keyReused } from './job-idempotency';
import { extractionInputs, findSimilarInputs, qaInputs } from './job-inputs';
import { toAnnotationDto, toFindSimilarHead, toJobDto } from './job-mapper';
import type { JobFile, JobInputs, JobRecord, NewUnit } from './job-records';
import { JobsRepository, type JobOwner } from './jobs.repository';
import { UnitQueue } from './unit-queue';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NAME_CHARS = 120;

/** Units read per part, and the JSON size a part stays under (NATS carries at most 1 MiB by default). */
const UNITS_PER_PART = 200;
const PART_BYTES = 512 * 1024;

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

export function ownerOf(ctx: RpcContext): JobOwner {
  if (!ctx.namespaceId || !ctx.userId) throw new DomainError(ErrorCode.UNAUTHENTICATED, 'The request carries no namespace or user');
  return { namespaceId: ctx.namespaceId, userId: ctx.userId };
}

export const shorten = (text: string) => (text.length > NAME_CHARS ? `${text.slice(0, NAME_CHARS - 1)}…` : text);

const KIND_NAMES: Record<JobKind, string> = {
  qa: 'QA job',
  extraction: 'Extraction job',
  'multi-dim-extraction': 'Multi-dimensional extraction job',
  'find-similar': 'Find-similar job',
  agent: 'Agent job',
};

/** How a find-similar source is named in its unit's label and the job's name. */
const sourceLabel = (s: { doi?: string; id?: string; openAccessId?: string }) =>
  [s.id && `id ${s.id}`, s.doi && `doi ${s.doi}`, s.openAccessId && `openAccessId ${s.openAccessId}`].filter(Boolean).join(', ');

/**
 * How a job is created. A client's create (the default) is subject to the namespace's limits; a
 * sub-job of an agent run that was admitted already is not, so that a busy namespace's agents can
 * finish the work they were admitted for instead of failing on their own namespace's backlog.
 */
export interface CreateOptions {
  subJob?: boolean;
}

/** What a create records: everything but the owner and kind. */
interface JobPlan {
  name: string;
  inputs: JobInputs;
  files: JobFile[];
  units: NewUnit[];
}

/** Creating jobs and reading them back: the use cases behind the jobs.* calls. */
@Injectable()
export class JobsService {
  constructor(
    private readonly repo: JobsRepository,
    private readonly rpc: RpcClient,
    private readonly queue: UnitQueue,
    private readonly metrics: Metrics,
    @Inject(SERVICE_ENV) private readonly env: JobsEnv,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async createQa(ctx: RpcContext, req: CreateQaJobRequest, opts: CreateOptions = {}): Promise<JobDto> {
    const { inputs, dependsOn } = qaInputs(req);
    return this.createJob(ctx, 'qa', req, opts, async () => {
      const files = await this.resolveFiles(ctx, req.files, req.config?.skip_unindexed_files === true);
      const units: NewUnit[] = inputs.questions.map((q, i) => ({
        unit: i,
        label: `question ${q.id}`,
        fileId: null,
        dependsOn: dependsOn[i],
      }));
      return { name: req.name ?? shorten(inputs.questions[0].question), inputs, files, units };
    });
  }

  async createExtraction(ctx: RpcContext, req: CreateExtractionJobRequest, opts: CreateOptions = {}): Promise<JobDto> {
    const inputs = extractionInputs(req);
    return this.createJob(ctx, 'extraction', req, opts, async () => {
      const files = await this.resolveFiles(ctx, req.files, req.config?.skip_unindexed_files === true);
      const units: NewUnit[] = files.map((f, i) => ({ unit: i, label: `file ${f.name}`, fileId: f.fileId, dependsOn: [] }));
      return { name: req.name ?? shorten(`Extraction: ${inputs.metas.map((m) => m.meta).join(', ')}`), inputs, files, units };
    });
  }

  /** One unit per file: its tables (or its text) give its rows; rows of all files are merged when read. */
  async createMultiDim(ctx: RpcContext, req: CreateMultiDimJobRequest): Promise<JobDto> {
    const inputs = multiDimInputs(req);
    return this.createJob(ctx, 'multi-dim-extraction', req, {}, async () => {
      const files = await this.resolveFiles(ctx, req.files, req.config?.skip_unindexed_files === true);
      const units: NewUnit[] = files.map((f, i) => ({ unit: i, label: `file ${f.name}`, fileId: f.fileId, dependsOn: [] }));
      return { name: req.name ?? shorten(`Rows: ${inputs.schema.name}`), inputs, files, units };
    });
  }

  /**
   * The rows of a multi-dimensional extraction job, merged on row keys across its files (partial
   * while it runs), from `fromRow` on: as many as fit in PART_BYTES.
   */
  async multiDimRows(ctx: RpcContext, jobId: string, fromRow = 0): Promise<MultiDimRowsPart> {
    const job = await this.job(ctx, 'multi-dim-extraction', jobId);
    const total = await this.repo.unitCount(job.id);
    const files: FileEntityRows[] = [];
    for (let from = 0; from < total; from += UNITS_PER_PART) {
      for (const u of await this.repo.unitResults(job.id, from, UNITS_PER_PART)) files.push(...(u.results as FileEntityRows[]));
    }
    const { rows, referenceIds: _all, ...head } = entityExtractionOf(job.id, job.inputs as MultiDimInputs, files);
    const part: MultiDimRowsPart = { head, rows: [], nextRow: null };
    let bytes = Buffer.byteLength(JSON.stringify(head));
    for (let i = fromRow; i < rows.length; i++) {
      const size = Buffer.byteLength(JSON.stringify(rows[i]));
      if (part.rows.length && bytes + size > PART_BYTES) return { ...part, nextRow: i };
      part.rows.push(rows[i]);
      bytes += size;
    }
    return part;
  }

  /** One unit per source; the job's files are the ones its units find, so none are resolved up front. */
  async createFindSimilar(ctx: RpcContext, req: CreateFindSimilarJobRequest): Promise<FindSimilarJobHead> {
    const inputs = findSimilarInputs(req);
    const plan = (): Promise<JobPlan> => {
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
    return this.createJob(ctx, 'find-similar', req, {}, plan, async (job) => toFindSimilarHead(job, await this.repo.counts(job.id)));
  }

  /**
   * A client's create: with an Idempotency-Key, the job an earlier request with the same key and
   * body created (409 for another body), checked before anything else so that a retry of a create
   * that timed out gets that job even when the namespace is at its limits now; else the job
   * planned, recorded and its first units published. The request was validated by the caller.
   */
  private async createJob<T = JobDto>(
    ctx: RpcContext,
    kind: JobKind,
    req: { idempotencyKey?: string },
    opts: CreateOptions,
    plan: () => Promise<JobPlan>,
    present: (job: JobRecord) => Promise<T> = async (job) => toJobDto(job, await this.repo.counts(job.id)) as T,
  ): Promise<T> {
    const owner = ownerOf(ctx);
    const key = req.idempotencyKey;
    const hash = key ? createRequestHash(kind, req) : '';
    if (key) {
      const earlier = await this.earlierJob(owner, kind, key, hash);
      if (earlier) return present(earlier);
    }
    const { name, inputs, files, units } = await plan();
    const id = randomUUID();
    try {
      const job = await this.start(owner, kind, name, inputs, files, units, {
        id,
        unlimited: opts.subJob === true,
        within: key
          ? async (m) => {
              if (!(await this.repo.claimIdempotencyKey(m, owner, key, hash, id, this.env.JOB_IDEMPOTENCY_TTL_SECONDS)))
                throw new IdempotencyKeyTaken();
            }
          : undefined,
      });
      return present(job);
    } catch (err) {
      if (!(err instanceof IdempotencyKeyTaken) || !key) throw err;
      const earlier = await this.earlierJob(owner, kind, key, hash);
      if (earlier) return present(earlier);
      throw DomainError.conflict(`Idempotency-Key ${key} is in use by another request; send it again`);
    }
  }

  /** The job an earlier request with this key created; 409 when that request differed. */
  private async earlierJob(owner: JobOwner, kind: JobKind, key: string, hash: string): Promise<JobRecord | null> {
    const use = await this.repo.idempotentUse(owner, key, this.env.JOB_IDEMPOTENCY_TTL_SECONDS);
    if (!use) return null;
    if (use.requestHash !== hash) throw keyReused(key, use.jobId);
    return this.repo.find(owner, kind, use.jobId);
  }

  /**
   * Creates the job and publishes its first units; `extra` sets its id or conversation and runs
   * `within` in its transaction. Unless `unlimited`, the namespace's limits are checked first, in
   * the same transaction (429 with Retry-After beyond them).
   */
  async start(
    owner: JobOwner,
    kind: JobKind,
    name: string,
    inputs: JobInputs,
    files: JobFile[],
    units: NewUnit[],
    extra: { id?: string; conversationId?: string; unlimited?: boolean; within?: (m: EntityManager) => Promise<void> } = {},
  ): Promise<JobRecord> {
    const id = extra.id ?? randomUUID();
    const job = await this.repo.create(
      { id, ...owner, kind, name, status: 'PENDING', errorMessage: null, inputs, files, conversationId: extra.conversationId ?? null },
      units,
      { admit: extra.unlimited ? undefined : (m) => this.admit(m, owner, units.length), within: extra.within },
    );
    this.metrics.jobs.created.inc({ kind });
    if (!units.length) return (await this.repo.finishIfDone(id)) ?? job; // nothing to read: the job is over at once
    // The job is recorded: a failed publication must not fail the create (the client would retry
    // and get a second job); the sweeper publishes what was not.
    await this.queue
      .publishReady(id)
      .catch((err: unknown) => this.logger.warn({ err, jobId: id }, 'could not publish the units of a new job; the sweeper will'));
    return job;
  }

  /** Refuses a job the namespace has no room for: JOB_NAMESPACE_MAX_OPEN_JOBS open jobs, or JOB_NAMESPACE_MAX_OPEN_UNITS open units with this job's. */
  private async admit(m: EntityManager, owner: JobOwner, newUnits: number): Promise<void> {
    const open = await this.repo.openWork(m, owner.namespaceId);
    const maxJobs = this.env.JOB_NAMESPACE_MAX_OPEN_JOBS;
    const maxUnits = this.env.JOB_NAMESPACE_MAX_OPEN_UNITS;
    const details: ErrorDetail[] = [];
    if (open.jobs >= maxJobs) {
      details.push({
        field: 'JOB_NAMESPACE_MAX_OPEN_JOBS',
        problem: `this namespace has ${open.jobs} jobs queued or running, the most it may have (${maxJobs}); create more when some have ended`,
      });
    }
    // A namespace with nothing open always gets its job, however large (the limit is at least the largest job).
    if (open.units > 0 && open.units + newUnits > maxUnits) {
      details.push({
        field: 'JOB_NAMESPACE_MAX_OPEN_UNITS',
        problem: `this namespace has ${open.units} questions, files or sources queued or running and the job adds ${newUnits}; at most ${maxUnits} may be open at once`,
      });
    }
    if (details.length) {
      throw new DomainError(
        ErrorCode.TOO_MANY_REQUESTS,
        'This namespace has as much work queued and running as it may; retry when some of its jobs have ended',
        details,
        this.env.JOB_LIMIT_RETRY_AFTER_SECONDS,
      );
    }
  }

  /**
   * The files a job reads: those named and those in the named collections, in the caller's
   * namespace. Unknown ids are refused; so are files not indexed, unless the config says to skip them.
   */
  async resolveFiles(ctx: RpcContext, input: FilesInputDto, skipUnindexed: boolean): Promise<JobFile[]> {
    const fileIds = input.fileIds ?? [];
    const collectionIds = input.collectionIds ?? [];
    if (!fileIds.length && !collectionIds.length) {
      throw DomainError.invalid([{ field: 'files', problem: 'must name at least one file (fileIds) or collection (collectionIds)' }]);
    }
    const resolved = await this.rpc.call(FilesResolve, { fileIds, collectionIds }, ctx);
    const problems: ErrorDetail[] = [
      ...resolved.missingFileIds.map((id) => ({
        field: `files.fileIds[${fileIds.indexOf(id)}]`,
        problem: `names no file of this namespace (${id})`,
      })),
      ...resolved.missingCollectionIds.map((id) => ({
        field: `files.collectionIds[${collectionIds.indexOf(id)}]`,
        problem: `names no collection of this namespace (${id})`,
      })),
    ];
    if (problems.length) throw DomainError.invalid(problems, 'The job names files or collections that do not exist');
    const unindexed = resolved.files.filter((f) => !f.indexed);
    if (unindexed.length && !skipUnindexed) {
      throw DomainError.invalid(
        unindexed.map((f) => {
          const at = fileIds.indexOf(f.fileId);
          return {
            field: at >= 0 ? `files.fileIds[${at}]` : 'files.collectionIds',
            problem: `file ${f.fileId} (${f.name}) is not indexed (status ${f.status}); wait for SUCCESS or set config.skip_unindexed_files`,
          };
        }),
        'Some files of the job are not indexed',
      );
    }
    const files = resolved.files.filter((f) => f.indexed).map((f) => ({ fileId: f.fileId, name: f.name }));
    if (files.length > JOB_LIMITS.files) {
      throw DomainError.invalid([{ field: 'files', problem: `name ${files.length} files; a job reads at most ${JOB_LIMITS.files}` }]);
    }
    return files;
  }

  private page(ctx: RpcContext, kind: JobKind, query: ListJobsQueryDto & { conversationId?: string }) {
    return this.repo.list(ownerOf(ctx), kind, {
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
  async job(ctx: RpcContext, kind: JobKind, jobId: string): Promise<JobRecord> {
    const owner = ownerOf(ctx);
    const job = UUID.test(jobId) ? await this.repo.find(owner, kind, jobId) : null;
    if (!job) throw DomainError.notFound(KIND_NAMES[kind], jobId);
    return job;
  }

  async get(ctx: RpcContext, kind: JobKind, jobId: string): Promise<JobDto> {
    const job = await this.job(ctx, kind, jobId);
    return toJobDto(job, await this.repo.counts(job.id));
  }

  async findSimilar(ctx: RpcContext, jobId: string): Promise<FindSimilarJobHead> {
    const job = await this.job(ctx, 'find-similar', jobId);
    return toFindSimilarHead(job, await this.repo.counts(job.id));
  }

  async listFindSimilar(ctx: RpcContext, query: ListJobsQueryDto): Promise<Page<FindSimilarJobHead>> {
    const { jobs, total } = await this.page(ctx, 'find-similar', query);
    const counts = await this.repo.countsOf(jobs.map((j) => j.id));
    return toPage(
      jobs.map((j) => toFindSimilarHead(j, counts.get(j.id))),
      total,
      query.page,
      query.pageSize,
    );
  }

  async inputs(
    ctx: RpcContext,
    kind: JobKind,
    jobId: string,
  ): Promise<QaJobInputsDto | ExtractionJobInputsDto | FindSimilarSourcesDto | MultiDimJobInputsDto | AgentJobInputsDto> {
    const job = await this.job(ctx, kind, jobId);
    return job.inputs;
  }

  /**
   * The answers of the units that are over, in question (or file) order; partial while the job
   * runs. One part at a time: the units from `fromUnit` on, as many as fit in PART_BYTES.
   */
  async results(
    ctx: RpcContext,
    kind: JobKind,
    jobId: string,
    fromUnit = 0,
  ): Promise<JobPart<QaResultDto | MetaResultDto | SourceMatchesDto | AgentJobOutputsDto>> {
    const job = await this.job(ctx, kind, jobId);
    const units = await this.repo.unitResults(job.id, fromUnit, UNITS_PER_PART);
    const total = await this.repo.unitCount(job.id);
    return takePart(
      units.map((u) => ({ unit: u.unit, items: u.results as Array<QaResultDto | MetaResultDto | SourceMatchesDto | AgentJobOutputsDto> })),
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
