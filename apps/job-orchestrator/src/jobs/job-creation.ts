import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  DomainError,
  ErrorCode,
  FilesResolve,
  JOB_LIMITS,
  type ErrorDetail,
  type FilesInputDto,
  type JobDto,
  type JobKind,
  type JobLaunchConfigDto,
  type RpcContext,
} from '@docintel/contracts';
import { RpcClient } from '@docintel/messaging';
import { LOGGER, Metrics, type Logger } from '@docintel/observability';
import { SERVICE_ENV } from '@docintel/runtime';
import type { EntityManager } from 'typeorm';
import type { JobsEnv } from '../jobs.env';
import { IdempotencyKeyTaken, createRequestHash, keyReused } from './job-idempotency';
import { toJobDto } from './job-mapper';
import type { JobFile, JobRecord, NewUnit } from './job-records';
import { JobsRepository, ownerOf, type JobOwner } from './jobs.repository';
import { UnitQueue } from './unit-queue';

const NAME_CHARS = 120;

export const shorten = (text: string) => (text.length > NAME_CHARS ? `${text.slice(0, NAME_CHARS - 1)}…` : text);

/**
 * How a job is created. A client's create (the default) is subject to the namespace's limits; a
 * sub-job of an agent run that was admitted already is not, so that a busy namespace's agents can
 * finish the work they were admitted for instead of failing on their own namespace's backlog.
 */
export interface CreateOptions {
  subJob?: boolean;
}

/** What a create records, planned by the job's kind: everything but the owner and kind. */
export interface JobPlan<I> {
  name: string;
  inputs: I;
  files: JobFile[];
  units: NewUnit[];
}

/** One unit per file, in the order resolved: the plan of the kinds that read each file on its own. */
export const unitPerFile = (files: JobFile[]): NewUnit[] =>
  files.map((f, i) => ({ unit: i, label: `file ${f.name}`, fileId: f.fileId, dependsOn: [] }));

/** Creating a job of any kind: Idempotency-Keys, the namespace's limits, the files it reads, its first units published. */
@Injectable()
export class JobCreation {
  constructor(
    private readonly repo: JobsRepository,
    private readonly rpc: RpcClient,
    private readonly queue: UnitQueue,
    private readonly metrics: Metrics,
    @Inject(SERVICE_ENV) private readonly env: JobsEnv,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /**
   * A client's create: with an Idempotency-Key, the job an earlier request with the same key and
   * body created (409 for another body), checked before anything else so that a retry of a create
   * that timed out gets that job even when the namespace is at its limits now; else the job
   * planned, recorded and its first units published. The request was validated by the caller.
   */
  async create<I, T = JobDto>(
    ctx: RpcContext,
    kind: JobKind,
    req: { idempotencyKey?: string },
    opts: CreateOptions,
    plan: () => Promise<JobPlan<I>>,
    present: (job: JobRecord<I>) => Promise<T> = async (job) => toJobDto(job, await this.repo.counts(job.id)) as T,
  ): Promise<T> {
    const owner = ownerOf(ctx);
    const key = req.idempotencyKey;
    const hash = key ? createRequestHash(kind, req) : '';
    if (key) {
      const earlier = await this.earlierJob<I>(owner, kind, key, hash);
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
      const earlier = await this.earlierJob<I>(owner, kind, key, hash);
      if (earlier) return present(earlier);
      throw DomainError.conflict(`Idempotency-Key ${key} is in use by another request; send it again`);
    }
  }

  /** The job an earlier request with this key created; 409 when that request differed. */
  private async earlierJob<I>(owner: JobOwner, kind: JobKind, key: string, hash: string): Promise<JobRecord<I> | null> {
    const use = await this.repo.idempotentUse(owner, key, this.env.JOB_IDEMPOTENCY_TTL_SECONDS);
    if (!use) return null;
    if (use.requestHash !== hash) throw keyReused(key, use.jobId);
    return this.repo.find<I>(owner, kind, use.jobId);
  }

  /**
   * Creates the job and publishes its first units; `extra` sets its id or conversation and runs
   * `within` in its transaction. Unless `unlimited`, the namespace's limits are checked first, in
   * the same transaction (429 with Retry-After beyond them).
   */
  async start<I>(
    owner: JobOwner,
    kind: JobKind,
    name: string,
    inputs: I,
    files: JobFile[],
    units: NewUnit[],
    extra: { id?: string; conversationId?: string; unlimited?: boolean; within?: (m: EntityManager) => Promise<void> } = {},
  ): Promise<JobRecord<I>> {
    const id = extra.id ?? randomUUID();
    const job = await this.repo.create(
      { id, ...owner, kind, name, status: 'PENDING', errorMessage: null, inputs, files, conversationId: extra.conversationId ?? null },
      units,
      { admit: extra.unlimited ? undefined : (m) => this.admit(m, owner, units.length), within: extra.within },
    );
    this.metrics.jobs.created.inc({ kind });
    if (!units.length) return (await this.repo.finishIfDone<I>(id)) ?? job; // nothing to read: the job is over at once
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

  /** The files a request names, resolved as resolveFiles does, skipping the unindexed ones when its config says so. */
  filesOf(ctx: RpcContext, req: { files: FilesInputDto; config?: JobLaunchConfigDto }): Promise<JobFile[]> {
    return this.resolveFiles(ctx, req.files, req.config?.skip_unindexed_files === true);
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
}
