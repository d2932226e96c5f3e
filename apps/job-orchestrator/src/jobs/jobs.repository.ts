import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import {
  DomainError,
  ErrorCode,
  type AnnotationDto,
  type JobKind,
  type JobSortField,
  type JobStatus,
  type RpcContext,
} from '@docintel/contracts';
import { Metrics } from '@docintel/observability';
import type { JobFile, JobRecord, NewUnit, UnitCounts, UnitRecord, UnitStatus } from './job-records';

/** Whose jobs a query may see: the caller's, in the caller's namespace. Every read of a job takes it. */
export interface JobOwner {
  namespaceId: string;
  userId: string;
}

export function ownerOf(ctx: RpcContext): JobOwner {
  if (!ctx.namespaceId || !ctx.userId) throw new DomainError(ErrorCode.UNAUTHENTICATED, 'The request carries no namespace or user');
  return { namespaceId: ctx.namespaceId, userId: ctx.userId };
}

interface JobRow {
  id: string;
  namespace_id: string;
  user_id: string;
  kind: JobKind;
  name: string;
  status: JobStatus;
  error_message: string | null;
  inputs: unknown;
  files: JobFile[];
  archived: boolean;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  modified_at: Date;
  conversation_id: string | null;
}

interface UnitRow {
  job_id: string;
  unit: number;
  label: string;
  file_id: string | null;
  depends_on: number[];
  status: UnitStatus;
  attempts: number;
  error: string | null;
  results: unknown[];
}

const SORT_COLUMNS: Record<JobSortField, string> = { createdTime: 'created_at', name: 'name', status: 'status' };

/**
 * A job as stored. Its inputs are the jsonb its kind's create wrote, so `I` is chosen by whoever
 * knows the kind (a kind's own code, or the registry by the kind column).
 */
const toJob = <I = unknown>(r: JobRow): JobRecord<I> => ({
  id: r.id,
  namespaceId: r.namespace_id,
  userId: r.user_id,
  kind: r.kind,
  name: r.name,
  status: r.status,
  errorMessage: r.error_message,
  inputs: r.inputs as I,
  files: r.files,
  archived: r.archived,
  createdAt: r.created_at,
  startedAt: r.started_at,
  finishedAt: r.finished_at,
  modifiedAt: r.modified_at,
  conversationId: r.conversation_id,
});

const toUnit = <R = unknown>(r: UnitRow): UnitRecord<R> => ({
  jobId: r.job_id,
  unit: r.unit,
  label: r.label,
  fileId: r.file_id,
  dependsOn: r.depends_on,
  status: r.status,
  attempts: r.attempts,
  error: r.error,
  results: r.results as R[],
});

const COUNTS_SQL = `
  SELECT count(*)::int AS total,
         count(*) FILTER (WHERE status = 'DONE')::int AS done,
         count(*) FILTER (WHERE status = 'FAILED')::int AS failed,
         count(*) FILTER (WHERE status = 'RUNNING')::int AS running,
         coalesce(sum(answered), 0)::int AS answered
  FROM job_units WHERE job_id = $1`;

/** A unit's outcome, written in one transaction with its citations; `R` is its kind's result. */
export interface UnitOutcome<R = unknown> {
  status: 'DONE' | 'FAILED';
  results: R[];
  answered: number;
  annotations: Array<{ id: string; data: AnnotationDto['data'] }>;
  error?: string;
  /** Turns a successful agent run appends to its conversation, written with the outcome. */
  conversation?: { id: string; turns: Array<{ role: string; content: string }> };
}

/**
 * The only reader and writer of the jobs schema. A job's end is a conditional update here, true
 * for one caller only (a unit's worker, the sweeper, a cancel), so it is counted here, once.
 */
@Injectable()
export class JobsRepository {
  constructor(
    private readonly ds: DataSource,
    private readonly metrics: Metrics,
  ) {}

  /**
   * A new job and its units. `admit` runs first in the transaction (it may refuse the job, see
   * openWork); `within` runs after the inserts (an agent job's conversation, an idempotency key).
   */
  async create<I>(
    job: Omit<JobRecord<I>, 'createdAt' | 'startedAt' | 'finishedAt' | 'modifiedAt' | 'archived' | 'conversationId'> & {
      conversationId?: string | null;
    },
    units: NewUnit[],
    hooks: { admit?: (m: EntityManager) => Promise<void>; within?: (m: EntityManager) => Promise<void> } = {},
  ): Promise<JobRecord<I>> {
    return this.ds.transaction(async (m) => {
      await hooks.admit?.(m);
      const [row] = (await m.query(
        `INSERT INTO jobs (id, namespace_id, user_id, kind, name, status, error_message, inputs, files, conversation_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING *`,
        [
          job.id,
          job.namespaceId,
          job.userId,
          job.kind,
          job.name,
          job.status,
          job.errorMessage,
          JSON.stringify(job.inputs),
          JSON.stringify(job.files),
          job.conversationId ?? null,
        ],
      )) as JobRow[];
      if (units.length) {
        await m.query(
          `INSERT INTO job_units (job_id, unit, label, file_id, depends_on, status)
           SELECT $1, u.unit, u.label, u.file_id, coalesce(u.depends_on, '{}'), 'PENDING'
           FROM jsonb_to_recordset($2::jsonb) AS u (unit int, label text, file_id uuid, depends_on int[])`,
          [job.id, JSON.stringify(units.map((u) => ({ unit: u.unit, label: u.label, file_id: u.fileId, depends_on: u.dependsOn })))],
        );
      }
      await hooks.within?.(m);
      return toJob<I>(row);
    });
  }

  /**
   * The namespace's open (PENDING or RUNNING) jobs and their open units, counted under a lock of the
   * namespace held until the transaction ends, so that concurrent creates cannot both pass a limit.
   */
  async openWork(m: EntityManager, namespaceId: string): Promise<{ jobs: number; units: number }> {
    await m.query(`SELECT pg_advisory_xact_lock(hashtextextended('jobs.namespace.' || $1, 0))`, [namespaceId]);
    const [row] = (await m.query(
      `SELECT count(DISTINCT j.id)::int AS jobs, count(u.unit)::int AS units
       FROM jobs j LEFT JOIN job_units u ON u.job_id = j.id AND u.status IN ('PENDING', 'RUNNING')
       WHERE j.namespace_id = $1 AND j.status IN ('PENDING', 'RUNNING')`,
      [namespaceId],
    )) as Array<{ jobs: number; units: number }>;
    return row;
  }

  /** The Idempotency-Key's use within the last ttlSeconds (the job it created, the hash of its request), or null. */
  async idempotentUse(owner: JobOwner, key: string, ttlSeconds: number): Promise<{ jobId: string; requestHash: string } | null> {
    const rows = (await this.ds.query(
      `SELECT job_id, request_hash FROM job_idempotency_keys
       WHERE namespace_id = $1 AND user_id = $2 AND key = $3 AND created_at > now() - make_interval(secs => $4::int)`,
      [owner.namespaceId, owner.userId, key, ttlSeconds],
    )) as Array<{ job_id: string; request_hash: string }>;
    return rows.length ? { jobId: rows[0].job_id, requestHash: rows[0].request_hash } : null;
  }

  /**
   * Records the key for a job being created, in its transaction. An expired use of the key is
   * replaced; a live one makes this return false (a concurrent request with the same key won).
   */
  async claimIdempotencyKey(
    m: EntityManager,
    owner: JobOwner,
    key: string,
    requestHash: string,
    jobId: string,
    ttlSeconds: number,
  ): Promise<boolean> {
    const rows = (await m.query(
      `INSERT INTO job_idempotency_keys (namespace_id, user_id, key, request_hash, job_id) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (namespace_id, user_id, key) DO UPDATE SET request_hash = EXCLUDED.request_hash, job_id = EXCLUDED.job_id, created_at = now()
         WHERE job_idempotency_keys.created_at <= now() - make_interval(secs => $6::int)
       RETURNING key`,
      [owner.namespaceId, owner.userId, key, requestHash, jobId, ttlSeconds],
    )) as unknown[];
    return rows.length > 0;
  }

  /** The caller's job of this kind, or null (another user's or namespace's job is null too). */
  async find<I = unknown>(owner: JobOwner, kind: JobKind, id: string): Promise<JobRecord<I> | null> {
    const rows = (await this.ds.query('SELECT * FROM jobs WHERE id = $1 AND namespace_id = $2 AND user_id = $3 AND kind = $4', [
      id,
      owner.namespaceId,
      owner.userId,
      kind,
    ])) as JobRow[];
    return rows.length ? toJob<I>(rows[0]) : null;
  }

  /** For workers, which act on a job by id after the request that created it. */
  async load(id: string): Promise<JobRecord | null> {
    const rows = (await this.ds.query('SELECT * FROM jobs WHERE id = $1', [id])) as JobRow[];
    return rows.length ? toJob(rows[0]) : null;
  }

  async list<I = unknown>(
    owner: JobOwner,
    kind: JobKind,
    page: { page: number; pageSize: number; sort: JobSortField; order: 'ASC' | 'DESC'; conversationId?: string },
  ): Promise<{ jobs: Array<JobRecord<I>>; total: number }> {
    const column = SORT_COLUMNS[page.sort];
    const where = 'namespace_id = $1 AND user_id = $2 AND kind = $3 AND ($4::uuid IS NULL OR conversation_id = $4)';
    const rows = (await this.ds.query(
      `SELECT *, count(*) OVER () AS total FROM jobs
       WHERE ${where}
       ORDER BY ${column} ${page.order}, id ${page.order}
       LIMIT $5 OFFSET $6`,
      [owner.namespaceId, owner.userId, kind, page.conversationId ?? null, page.pageSize, page.page * page.pageSize],
    )) as Array<JobRow & { total: string }>;
    if (rows.length) return { jobs: rows.map((r) => toJob<I>(r)), total: Number(rows[0].total) };
    const [{ count }] = (await this.ds.query(`SELECT count(*)::int AS count FROM jobs WHERE ${where}`, [
      owner.namespaceId,
      owner.userId,
      kind,
      page.conversationId ?? null,
    ])) as Array<{ count: number }>;
    return { jobs: [], total: count };
  }

  async counts(jobId: string): Promise<UnitCounts> {
    const [row] = (await this.ds.query(COUNTS_SQL, [jobId])) as UnitCounts[];
    return row;
  }

  async countsOf(jobIds: string[]): Promise<Map<string, UnitCounts>> {
    if (!jobIds.length) return new Map();
    const rows = (await this.ds.query(
      `SELECT job_id, count(*)::int AS total,
              count(*) FILTER (WHERE status = 'DONE')::int AS done,
              count(*) FILTER (WHERE status = 'FAILED')::int AS failed,
              count(*) FILTER (WHERE status = 'RUNNING')::int AS running,
              coalesce(sum(answered), 0)::int AS answered
       FROM job_units WHERE job_id = ANY($1::uuid[]) GROUP BY job_id`,
      [jobIds],
    )) as Array<UnitCounts & { job_id: string }>;
    return new Map(
      rows.map((r) => [r.job_id, { total: r.total, done: r.done, failed: r.failed, running: r.running, answered: r.answered }]),
    );
  }

  async units(jobId: string): Promise<UnitRecord[]> {
    const rows = (await this.ds.query('SELECT * FROM job_units WHERE job_id = $1 ORDER BY unit', [jobId])) as UnitRow[];
    return rows.map(toUnit);
  }

  async unitsByNumber<R = unknown>(jobId: string, units: number[]): Promise<Array<UnitRecord<R>>> {
    if (!units.length) return [];
    const rows = (await this.ds.query('SELECT * FROM job_units WHERE job_id = $1 AND unit = ANY($2::int[]) ORDER BY unit', [
      jobId,
      units,
    ])) as UnitRow[];
    return rows.map((r) => toUnit<R>(r));
  }

  /** The answers of units fromUnit .. fromUnit + count - 1, in unit order. */
  async unitResults<R = unknown>(jobId: string, fromUnit: number, count: number): Promise<Array<{ unit: number; results: R[] }>> {
    return (await this.ds.query('SELECT unit, results FROM job_units WHERE job_id = $1 AND unit >= $2 AND unit < $3 ORDER BY unit', [
      jobId,
      fromUnit,
      fromUnit + count,
    ])) as Array<{ unit: number; results: R[] }>;
  }

  /** The citations of units fromUnit .. fromUnit + count - 1, in unit and answer order. */
  async annotations(
    jobId: string,
    fromUnit = 0,
    count = 2 ** 31 - 1,
  ): Promise<Array<{ id: string; unit: number; createdAt: Date; data: AnnotationDto['data'] }>> {
    const rows = (await this.ds.query(
      'SELECT id, unit, created_at, data FROM job_annotations WHERE job_id = $1 AND unit >= $2 AND unit < $3 ORDER BY unit, ordinal',
      [jobId, fromUnit, Math.min(2 ** 31 - 1, fromUnit + count)],
    )) as Array<{
      id: string;
      unit: number;
      created_at: Date;
      data: AnnotationDto['data'];
    }>;
    return rows.map((r) => ({ id: r.id, unit: r.unit, createdAt: r.created_at, data: r.data }));
  }

  /** How many units the job has. */
  async unitCount(jobId: string): Promise<number> {
    const [{ count }] = (await this.ds.query('SELECT count(*)::int AS count FROM job_units WHERE job_id = $1', [jobId])) as Array<{
      count: number;
    }>;
    return count;
  }

  /**
   * Takes a unit up for one delivery: a PENDING unit, or a RUNNING one whose worker has been silent
   * for staleSeconds (it died). Null when the unit is finished, its job is over, or another worker
   * is alive on it. The job becomes RUNNING with its first unit.
   */
  async claim(jobId: string, unit: number, staleSeconds: number): Promise<{ claim: string; unit: UnitRecord; job: JobRecord } | null> {
    return this.ds.transaction(async (m) => {
      const claim = randomUUID();
      const rows = (await m.query(
        `UPDATE job_units u SET status = 'RUNNING', claim = $3, attempts = attempts + 1, heartbeat_at = now()
         FROM jobs j
         WHERE u.job_id = $1 AND u.unit = $2 AND j.id = u.job_id AND j.status IN ('PENDING', 'RUNNING')
           AND (u.status = 'PENDING' OR (u.status = 'RUNNING' AND u.heartbeat_at < now() - make_interval(secs => $4)))
         RETURNING u.*`,
        [jobId, unit, claim, staleSeconds],
      )) as [UnitRow[], number];
      const claimed = rows[0];
      if (!claimed.length) return null;
      const [job] = (await m.query(
        `UPDATE jobs SET status = 'RUNNING', started_at = coalesce(started_at, now()), modified_at = now()
         WHERE id = $1 RETURNING *`,
        [jobId],
      )) as [JobRow[], number];
      return { claim, unit: toUnit(claimed[0]), job: toJob(job[0]) };
    });
  }

  /** The worker is alive. False when the unit is no longer its own (cancelled, or taken over). */
  async heartbeat(jobId: string, unit: number, claim: string): Promise<boolean> {
    const rows = (await this.ds.query(
      `UPDATE job_units SET heartbeat_at = now() WHERE job_id = $1 AND unit = $2 AND claim = $3 AND status = 'RUNNING' RETURNING unit`,
      [jobId, unit, claim],
    )) as [unknown[], number];
    return rows[0].length > 0;
  }

  /** Gives a unit back after a failed attempt, so that the redelivery can take it up at once. */
  async release(jobId: string, unit: number, claim: string, error: string): Promise<void> {
    await this.ds.query(
      `UPDATE job_units SET status = 'PENDING', claim = NULL, error = $4 WHERE job_id = $1 AND unit = $2 AND claim = $3 AND status = 'RUNNING'`,
      [jobId, unit, claim, error],
    );
  }

  /**
   * Writes a unit's answers and citations and ends it, if the claim is still the unit's (false
   * otherwise: the job was cancelled or another worker took over, and nothing is written). Without
   * a claim (the sweeper), only a RUNNING unit silent for staleSeconds is ended.
   */
  async complete(
    jobId: string,
    unit: number,
    claim: string | null,
    outcome: UnitOutcome,
    opts: { staleSeconds?: number } = {},
  ): Promise<boolean> {
    return this.ds.transaction(async (m) => {
      const owned = claim
        ? { sql: `claim = $7::uuid`, param: claim }
        : { sql: `heartbeat_at < now() - make_interval(secs => $7::int)`, param: opts.staleSeconds ?? 0 };
      const rows = (await m.query(
        `UPDATE job_units SET status = $3, results = $4::jsonb, answered = $5, error = $6, finished_at = now(), heartbeat_at = now(), claim = NULL
         WHERE job_id = $1 AND unit = $2 AND status = 'RUNNING' AND ${owned.sql}
         RETURNING unit`,
        [jobId, unit, outcome.status, JSON.stringify(outcome.results), outcome.answered, outcome.error ?? null, owned.param],
      )) as [unknown[], number];
      if (!rows[0].length) return false;
      await this.writeAnnotations(m, jobId, unit, outcome.annotations);
      if (outcome.conversation) await this.appendTurns(m, jobId, outcome.conversation);
      await m.query('UPDATE jobs SET modified_at = now() WHERE id = $1', [jobId]);
      return true;
    });
  }

  /** Appends turns after the conversation's last, under its row lock, so concurrent runs never share an ordinal. */
  private async appendTurns(m: EntityManager, jobId: string, conversation: NonNullable<UnitOutcome['conversation']>): Promise<void> {
    const [rows] = (await m.query('UPDATE agent_conversations SET turns = turns + $2, modified_at = now() WHERE id = $1 RETURNING turns', [
      conversation.id,
      conversation.turns.length,
    ])) as [Array<{ turns: number }>, number];
    const row = rows[0];
    if (!row) return; // the conversation was deleted meanwhile
    const first = row.turns - conversation.turns.length;
    await m.query(
      `INSERT INTO agent_turns (conversation_id, ordinal, job_id, role, content)
       SELECT $1, $2 + t.ordinality - 1, $3, t.turn ->> 'role', t.turn ->> 'content'
       FROM jsonb_array_elements($4::jsonb) WITH ORDINALITY AS t (turn, ordinality)`,
      [conversation.id, first, jobId, JSON.stringify(conversation.turns)],
    );
  }

  private async writeAnnotations(m: EntityManager, jobId: string, unit: number, annotations: UnitOutcome['annotations']): Promise<void> {
    await m.query('DELETE FROM job_annotations WHERE job_id = $1 AND unit = $2', [jobId, unit]);
    if (!annotations.length) return;
    await m.query(
      `INSERT INTO job_annotations (id, job_id, unit, ordinal, data)
       SELECT a.id, $1, $2, a.ordinal, a.data FROM jsonb_to_recordset($3::jsonb) AS a (id uuid, ordinal int, data jsonb)`,
      [jobId, unit, JSON.stringify(annotations.map((a, ordinal) => ({ id: a.id, ordinal, data: a.data })))],
    );
  }

  /**
   * PENDING units whose dependencies are all over and that were not published (or, with
   * republishAfterSeconds, whose publication is older than that): marked published now and returned
   * in the order to publish them. With `jobId`, only its namespace's units; without, every namespace's.
   *
   * Fairness: a namespace gets at most `activePerNamespace` units handed out (on the work queue or
   * running) per queue at once, oldest job first; the rest wait here. Between namespaces the units
   * are taken in turns (every namespace's first before anyone's second), so the work queue, which
   * is FIFO, never holds more than that many of one namespace's units ahead of another's. A
   * republished unit was counted as handed out already and is always taken. The selection runs
   * under one transaction-scoped lock, so replicas handing out units at once cannot overshoot.
   */
  async takeReady(
    jobId: string | null,
    activePerNamespace: number,
    republishAfterSeconds?: number,
    limit = 1000,
  ): Promise<Array<{ jobId: string; unit: number; kind: JobKind }>> {
    return this.ds.transaction(async (m) => {
      await m.query(`SELECT pg_advisory_xact_lock(hashtextextended('jobs.units.hand-out', 0))`);
      const rows = (await m.query(
        `WITH scope AS (
           SELECT j.id, j.namespace_id, j.kind, j.kind = 'agent' AS agent, j.created_at FROM jobs j
           WHERE j.status IN ('PENDING', 'RUNNING')
             AND ($1::uuid IS NULL OR j.namespace_id = (SELECT namespace_id FROM jobs WHERE id = $1))),
         active AS (
           SELECT s.namespace_id, s.agent, count(*)::int AS n FROM job_units u JOIN scope s ON s.id = u.job_id
           WHERE u.status = 'RUNNING' OR (u.status = 'PENDING' AND u.published_at IS NOT NULL)
           GROUP BY s.namespace_id, s.agent),
         ready AS (
           SELECT c.job_id, c.unit, s.kind, s.namespace_id, s.agent, c.published_at IS NOT NULL AS again,
                  row_number() OVER (PARTITION BY s.namespace_id, s.agent, c.published_at IS NOT NULL ORDER BY s.created_at, c.job_id, c.unit) AS turn
           FROM job_units c JOIN scope s ON s.id = c.job_id
           WHERE c.status = 'PENDING'
             AND (c.published_at IS NULL OR ($2::int IS NOT NULL AND c.published_at < now() - make_interval(secs => $2::int)))
             AND NOT EXISTS (
               SELECT 1 FROM job_units d WHERE d.job_id = c.job_id AND d.unit = ANY (c.depends_on) AND d.status NOT IN ('DONE', 'FAILED', 'ABORTED'))),
         picked AS (
           SELECT r.job_id, r.unit, r.kind, row_number() OVER (ORDER BY r.again DESC, r.turn, r.namespace_id, r.agent) AS ord
           FROM ready r LEFT JOIN active a ON a.namespace_id = r.namespace_id AND a.agent = r.agent
           WHERE r.again OR r.turn <= $3::int - coalesce(a.n, 0)
           ORDER BY ord
           LIMIT $4)
         UPDATE job_units u SET published_at = now() FROM picked p
         WHERE u.job_id = p.job_id AND u.unit = p.unit
         RETURNING u.job_id, u.unit, p.kind, p.ord`,
        [jobId, republishAfterSeconds ?? null, activePerNamespace, limit],
      )) as [Array<{ job_id: string; unit: number; kind: JobKind; ord: string }>, number];
      return rows[0].sort((a, b) => Number(a.ord) - Number(b.ord)).map((r) => ({ jobId: r.job_id, unit: r.unit, kind: r.kind }));
    });
  }

  /** Forgets a publication that failed, so that the sweeper publishes the unit again. */
  async unpublish(jobId: string, unit: number): Promise<void> {
    await this.ds.query(`UPDATE job_units SET published_at = NULL WHERE job_id = $1 AND unit = $2 AND status = 'PENDING'`, [jobId, unit]);
  }

  /**
   * Ends the job when every unit is over: SUCCESS (COMPLETED for find-similar, as the interface has
   * it) when at least one unit answered (the failed ones say why in their answers), FAILED with the
   * first unit's reason when all failed.
   * Returns the job when this call ended it.
   */
  async finishIfDone<I = unknown>(jobId: string): Promise<JobRecord<I> | null> {
    const rows = (await this.ds.query(
      `WITH units AS (
         SELECT count(*) AS total,
                count(*) FILTER (WHERE status IN ('DONE', 'FAILED', 'ABORTED')) AS over,
                count(*) FILTER (WHERE status = 'FAILED') AS failed,
                (SELECT error FROM job_units WHERE job_id = $1 AND status = 'FAILED' ORDER BY unit LIMIT 1) AS first_error
         FROM job_units WHERE job_id = $1)
       UPDATE jobs j SET
         status = CASE WHEN units.total > 0 AND units.failed = units.total THEN 'FAILED'
                       WHEN j.kind = 'find-similar' THEN 'COMPLETED' ELSE 'SUCCESS' END,
         error_message = CASE WHEN units.total > 0 AND units.failed = units.total THEN
                           CASE WHEN j.kind = 'agent' THEN coalesce(units.first_error, 'unknown')
                                ELSE 'Every part of the job failed; the first reason: ' || coalesce(units.first_error, 'unknown') END END,
         finished_at = now(), modified_at = now(), started_at = coalesce(j.started_at, now())
       FROM units
       WHERE j.id = $1 AND j.status IN ('PENDING', 'RUNNING') AND units.over = units.total
       RETURNING j.*`,
      [jobId],
    )) as [JobRow[], number];
    if (!rows[0].length) return null;
    const job = toJob<I>(rows[0][0]);
    this.metrics.jobs.finished.inc({ kind: job.kind, status: job.status });
    return job;
  }

  /** Ends a PENDING or RUNNING job as ABORTED with its unfinished units; a terminal job is left as it is. */
  async abort(jobId: string, message: string): Promise<boolean> {
    const kind = await this.ds.transaction(async (m) => {
      const rows = (await m.query(
        `UPDATE jobs SET status = 'ABORTED', error_message = $2, finished_at = now(), modified_at = now(), started_at = coalesce(started_at, now())
         WHERE id = $1 AND status IN ('PENDING', 'RUNNING') RETURNING kind`,
        [jobId, message],
      )) as [Array<{ kind: JobKind }>, number];
      if (!rows[0].length) return null;
      await m.query(
        `UPDATE job_units SET status = 'ABORTED', claim = NULL, error = $2, finished_at = now() WHERE job_id = $1 AND status IN ('PENDING', 'RUNNING')`,
        [jobId, message],
      );
      return rows[0][0].kind;
    });
    if (kind) this.metrics.jobs.finished.inc({ kind, status: 'ABORTED' });
    return kind !== null;
  }

  /** RUNNING units whose worker has been silent for staleSeconds. */
  async staleUnits(
    staleSeconds: number,
    limit = 500,
  ): Promise<Array<{ jobId: string; unit: number; attempts: number; label: string; fileId: string | null }>> {
    const rows = (await this.ds.query(
      `SELECT job_id, unit, attempts, label, file_id FROM job_units
       WHERE status = 'RUNNING' AND heartbeat_at < now() - make_interval(secs => $1) ORDER BY heartbeat_at LIMIT $2`,
      [staleSeconds, limit],
    )) as Array<{ job_id: string; unit: number; attempts: number; label: string; file_id: string | null }>;
    return rows.map((r) => ({ jobId: r.job_id, unit: r.unit, attempts: r.attempts, label: r.label, fileId: r.file_id }));
  }

  /** Hands a stale unit back to the queue (its claim is void); false when it moved meanwhile. */
  async requeueStale(jobId: string, unit: number, staleSeconds: number): Promise<boolean> {
    const rows = (await this.ds.query(
      `UPDATE job_units SET status = 'PENDING', claim = NULL, published_at = NULL
       WHERE job_id = $1 AND unit = $2 AND status = 'RUNNING' AND heartbeat_at < now() - make_interval(secs => $3) RETURNING unit`,
      [jobId, unit, staleSeconds],
    )) as [unknown[], number];
    return rows[0].length > 0;
  }

  /** Open jobs whose units are all over (a worker died between its last unit and the job's end). */
  async openJobsWithoutOpenUnits(limit = 500): Promise<string[]> {
    const rows = (await this.ds.query(
      `SELECT j.id FROM jobs j WHERE j.status IN ('PENDING', 'RUNNING')
         AND NOT EXISTS (SELECT 1 FROM job_units u WHERE u.job_id = j.id AND u.status IN ('PENDING', 'RUNNING'))
       LIMIT $1`,
      [limit],
    )) as Array<{ id: string }>;
    return rows.map((r) => r.id);
  }
}
