import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { DataSource, type Repository } from 'typeorm';
import { DomainError, ErrorCode } from '@docintel/contracts';
import { IndexedFileEntity } from './indexed-file.entity';
import type { Readiness, ReadinessRun } from './readiness';
import { isUuid } from '../tenancy';

/** Facts a parse learns about the file, written in the same transaction that publishes its tree. */
export interface ParsedFileFacts {
  checksum?: string | null;
  mediaType?: string | null;
  size?: number | null;
  title?: string | null;
  authors?: string | null;
  description?: string | null;
  /** Keys merged into the file's additionalInfos (what the parse learned, the next steps' records). */
  additionalInfo?: Record<string, unknown>;
  /**
   * The status the commit leaves: SUCCESS (the default) when nothing a job reads is left to do,
   * RUNNING while the steps after parsing work (`settle` ends it).
   */
  status?: 'SUCCESS' | 'RUNNING';
}

/**
 * A run whose tree is committed and whose steps after parsing are queued: the file waits for them
 * (RUNNING) rather than for a worker, so it has no heartbeat. `pipeline_request_time` and
 * `pipeline_generation` name the run's tree (recordAttempt for a parse, stepsQueued for a reindex).
 */
const STEPS_PHASE = `claimed_request_time = requested_time AND pipeline_request_time = requested_time
                     AND current_generation IS NOT NULL AND pipeline_generation = current_generation`;

const affected = (result: unknown): number => (result as [unknown, number])[1];

/** A stable 63-bit advisory lock key for the sweeper of this database. */
export const SWEEPER_LOCK = BigInt.asIntN(
  64,
  BigInt('0x' + createHash('sha256').update('docintel:indexing:sweeper').digest('hex').slice(0, 16)),
).toString();

/**
 * The one writer of an IndexedFile's indexation state: requests (status PENDING, counters, the
 * reparse flag, the namespace's name), claims and heartbeats, the end of a run (FAILED, ABORTED,
 * SUCCESS with the tree's generation), the node-tree generation counters and additionalInfos. Reads
 * return the entity (IndexedFileEntity), the one read model of the files table.
 *
 * Every write that ends or advances a run names the request (requested_time) it belongs to, so
 * that a run overtaken by a newer request never overwrites that request's state. Requests from the
 * Files API take the namespace; the pipeline works by file id, on files named by messages of their
 * namespace.
 */
@Injectable()
export class IndexationStateRepository {
  private readonly repo: Repository<IndexedFileEntity>;

  constructor(private readonly ds: DataSource) {
    this.repo = ds.getRepository(IndexedFileEntity);
  }

  load(fileId: string): Promise<IndexedFileEntity | null> {
    if (!isUuid(fileId)) return Promise.resolve(null);
    return this.repo.findOneBy({ id: fileId });
  }

  /**
   * Records a request to index the file again: status back to PENDING, the request counted, the
   * namespace's name recorded. `reparse` sticks until an indexation has consumed it, so a plain
   * reindex never cancels a pending reparse.
   */
  async requestIndexation(
    namespace: string,
    id: string,
    opts: { reparse: boolean; namespaceName?: string },
  ): Promise<IndexedFileEntity | null> {
    if (!isUuid(id)) return null;
    const [rows] = (await this.ds.query(
      `UPDATE files
          SET status = 'PENDING', error_message = NULL, indexation_requests = indexation_requests + 1,
              reparse_requested = reparse_requested OR $3, requested_time = $4, interruptions = 0,
              namespace_name = COALESCE($5, namespace_name)
        WHERE namespace_id = $1 AND id = $2
        RETURNING id`,
      [namespace, id, opts.reparse, Date.now(), opts.namespaceName ?? null],
    )) as [Array<{ id: string }>, number];
    return rows.length ? this.repo.findOneByOrFail({ id }) : null;
  }

  /** Records a request to compute the ontologies and metadata again. */
  async requestOntologies(namespace: string, id: string, namespaceName?: string): Promise<IndexedFileEntity | null> {
    if (!isUuid(id)) return null;
    const [rows] = (await this.ds.query(
      `UPDATE files SET ontology_requests = ontology_requests + 1, namespace_name = COALESCE($3, namespace_name)
        WHERE namespace_id = $1 AND id = $2 RETURNING id`,
      [namespace, id, namespaceName ?? null],
    )) as [Array<{ id: string }>, number];
    return rows.length ? this.repo.findOneByOrFail({ id }) : null;
  }

  /**
   * Takes up a request: the file moves to `status` (RUNNING, or ABORTED when a rule says no) unless
   * the request was overtaken or another worker has it. A request whose worker went silent
   * (RUNNING, last heartbeat before `staleBefore`) may be taken up again, unless its tree is
   * committed and it only waits for the steps after parsing; that takeover counts as an
   * interruption, and is refused once it would be the `maxInterruptions`th (the sweeper then ends
   * the request FAILED, see requeueSilentRuns).
   */
  async claim(
    fileId: string,
    requestedTime: number,
    staleBefore: number,
    status: 'RUNNING' | 'ABORTED',
    errorMessage: string | null = null,
    maxInterruptions = 2 ** 31 - 1,
  ): Promise<boolean> {
    const result = await this.ds.query(
      `UPDATE files SET status = $4, error_message = $5, claimed_request_time = $2,
                        heartbeat_time = CASE WHEN $4 = 'RUNNING' THEN $6::bigint END,
                        interruptions = interruptions + CASE WHEN claimed_request_time = $2 THEN 1 ELSE 0 END
        WHERE id = $1 AND requested_time = $2
          AND (claimed_request_time IS DISTINCT FROM $2
               OR (status = 'RUNNING' AND COALESCE(heartbeat_time, 0) < $3 AND NOT COALESCE(${STEPS_PHASE}, false)
                   AND interruptions + 1 < $7))`,
      [fileId, requestedTime, staleBefore, status, errorMessage, Date.now(), maxInterruptions],
    );
    return affected(result) > 0;
  }

  /** A RUNNING worker's sign of life; false when its request was overtaken. */
  async heartbeat(fileId: string, requestedTime: number): Promise<boolean> {
    const result = await this.ds.query(
      `UPDATE files SET heartbeat_time = $3 WHERE id = $1 AND requested_time = $2 AND claimed_request_time = $2 AND status = 'RUNNING'`,
      [fileId, requestedTime, Date.now()],
    );
    return affected(result) > 0;
  }

  /** Ends a request FAILED or ABORTED with a message, unless a newer request superseded it. */
  async end(fileId: string, requestedTime: number, status: 'FAILED' | 'ABORTED', message: string): Promise<boolean> {
    const result = await this.ds.query(
      `UPDATE files SET status = $3, error_message = $4, claimed_request_time = $2, heartbeat_time = NULL
        WHERE id = $1 AND requested_time = $2`,
      [fileId, requestedTime, status, message],
    );
    return affected(result) > 0;
  }

  /** Gives a request back (PENDING, unclaimed) so that another worker takes it up: used on shutdown. */
  async release(fileId: string, requestedTime: number): Promise<void> {
    await this.ds.query(
      `UPDATE files SET status = 'PENDING', claimed_request_time = NULL, heartbeat_time = NULL
        WHERE id = $1 AND requested_time = $2 AND claimed_request_time = $2 AND status = 'RUNNING'`,
      [fileId, requestedTime],
    );
  }

  /**
   * A reindex without reparse has queued the steps after parsing on the committed tree: from now on
   * the file waits for them (see `settle`), not for a worker. False when the request was overtaken.
   */
  async stepsQueued(fileId: string, requestedTime: number, generation: number): Promise<boolean> {
    const result = await this.ds.query(
      `UPDATE files SET pipeline_request_time = $2, pipeline_generation = $3, heartbeat_time = NULL
        WHERE id = $1 AND requested_time = $2 AND claimed_request_time = $2 AND current_generation = $3 AND status = 'RUNNING'`,
      [fileId, requestedTime, generation],
    );
    return affected(result) > 0;
  }

  /**
   * Ends a run waiting for its steps after parsing, once `decide` (indexation/readiness.ts) says they
   * are over: SUCCESS, or FAILED with a message. Under the file's row lock, so whichever step
   * finishes last, on any replica, sees every step over. Only the file's current request, RUNNING,
   * with its tree committed, is ended; anything else is left alone (null).
   */
  async settle(
    fileId: string,
    decide: (info: Record<string, unknown>, run: ReadinessRun) => Readiness,
  ): Promise<'SUCCESS' | 'FAILED' | null> {
    if (!isUuid(fileId)) return null;
    return this.ds.transaction(async (em) => {
      const rows: Array<{ requested_time: string; current_generation: number; additional_info: Record<string, unknown> }> = await em.query(
        `SELECT requested_time, current_generation, additional_info FROM files
          WHERE id = $1 AND status = 'RUNNING' AND ${STEPS_PHASE} FOR UPDATE`,
        [fileId],
      );
      if (!rows.length) return null;
      const run = { requestedTime: Number(rows[0].requested_time), generation: rows[0].current_generation };
      const verdict = decide(rows[0].additional_info, run);
      if (verdict.kind === 'waiting') return null;
      await em.query(`UPDATE files SET status = $2, error_message = $3, heartbeat_time = NULL WHERE id = $1`, [
        fileId,
        verdict.kind,
        verdict.kind === 'FAILED' ? verdict.message : null,
      ]);
      return verdict.kind;
    });
  }

  /** Ends FAILED a run still waiting for its steps after parsing (the sweeper: nothing is left to settle it). */
  async failWaiting(fileId: string, requestedTime: number, message: string): Promise<boolean> {
    const result = await this.ds.query(
      `UPDATE files SET status = 'FAILED', error_message = $3, heartbeat_time = NULL
        WHERE id = $1 AND requested_time = $2 AND status = 'RUNNING' AND ${STEPS_PHASE}`,
      [fileId, requestedTime, message],
    );
    return affected(result) > 0;
  }

  /** Files RUNNING with their tree committed, waiting for their steps after parsing (at most `limit`). */
  async waitingForSteps(limit: number): Promise<Array<{ id: string; requestedTime: number; additionalInfo: Record<string, unknown> }>> {
    const rows: Array<{ id: string; requested_time: string; additional_info: Record<string, unknown> }> = await this.ds.query(
      `SELECT id, requested_time, additional_info FROM files WHERE status = 'RUNNING' AND ${STEPS_PHASE} ORDER BY requested_time LIMIT $1`,
      [limit],
    );
    return rows.map((r) => ({ id: r.id, requestedTime: Number(r.requested_time), additionalInfo: r.additional_info }));
  }

  /** A new generation number for the file's next tree (NodeStoreRepository.beginGeneration). */
  async nextGeneration(fileId: string): Promise<number> {
    const [rows] = (await this.ds.query(`UPDATE files SET last_generation = last_generation + 1 WHERE id = $1 RETURNING last_generation`, [
      fileId,
    ])) as [Array<{ last_generation: number }>, number];
    if (!rows.length) throw DomainError.notFound('IndexedFile', fileId);
    return rows[0].last_generation;
  }

  /** Remembers the generation and root node of a parse attempt; false when the request was overtaken. */
  async recordAttempt(fileId: string, requestedTime: number, generation: number, rootNodeId: string): Promise<boolean> {
    const result = await this.ds.query(
      `UPDATE files SET pipeline_request_time = $2, pipeline_generation = $3, pipeline_root_id = $4
        WHERE id = $1 AND requested_time = $2`,
      [fileId, requestedTime, generation, rootNodeId],
    );
    return affected(result) > 0;
  }

  /**
   * Makes the generation the file's tree, in one transaction with the file's indexation result
   * (`indexed`, and SUCCESS or RUNNING as `facts.status` says) and the facts the parse learned (NodeStoreRepository.commitGeneration).
   * `stale` when a generation at least as new is current already.
   */
  async commitGeneration(fileId: string, generation: number, facts: ParsedFileFacts = {}): Promise<'committed' | 'stale'> {
    return this.ds.transaction(async (em) => {
      const rows: Array<{ current_generation: number | null; last_generation: number }> = await em.query(
        `SELECT current_generation, last_generation FROM files WHERE id = $1 FOR UPDATE`,
        [fileId],
      );
      if (!rows.length) throw DomainError.notFound('IndexedFile', fileId);
      const { current_generation: current, last_generation: last } = rows[0];
      if (generation > last) throw new DomainError(ErrorCode.CONFLICT, `Generation ${generation} of file ${fileId} was never begun`);
      if (current !== null && generation <= current) return 'stale';
      const params: unknown[] = [fileId, generation, facts.status ?? 'SUCCESS'];
      const sets = [`current_generation = $2`, `indexed = true`, `status = $3`, `error_message = NULL`, `reparse_requested = false`];
      for (const [column, value] of [
        ['checksum', facts.checksum],
        ['media_type', facts.mediaType],
        ['size', facts.size],
        ['title', facts.title],
        ['authors', facts.authors],
        ['description', facts.description],
      ] as const) {
        if (value === undefined) continue;
        params.push(value);
        sets.push(`${column} = $${params.length}`);
      }
      if (facts.additionalInfo) {
        params.push(JSON.stringify(facts.additionalInfo));
        sets.push(`additional_info = additional_info || $${params.length}::jsonb`);
      }
      await em.query(`UPDATE files SET ${sets.join(', ')} WHERE id = $1`, params);
      return 'committed';
    });
  }

  /** Sets additionalInfos.<key> as a whole. */
  async setInfo(fileId: string, key: string, value: unknown): Promise<void> {
    await this.ds.query(`UPDATE files SET additional_info = jsonb_set(additional_info, ARRAY[$2::text], $3::jsonb) WHERE id = $1`, [
      fileId,
      key,
      JSON.stringify(value),
    ]);
  }

  /** Removes additionalInfos.<key>. */
  async removeInfo(fileId: string, key: string): Promise<void> {
    await this.ds.query(`UPDATE files SET additional_info = additional_info - $2::text WHERE id = $1 AND additional_info ? $2::text`, [
      fileId,
      key,
    ]);
  }

  /**
   * Read-modify-write of additionalInfos.<key> under the row lock, so that concurrent batches of one
   * file (on any replica) count correctly. `change` returns undefined to leave the value as it is.
   */
  async updateInfo<T>(fileId: string, key: string, change: (current: T | undefined) => T | undefined): Promise<T | undefined> {
    return this.ds.transaction(async (em) => {
      const rows: Array<{ value: T | null }> = await em.query(
        `SELECT additional_info -> $2::text AS value FROM files WHERE id = $1 FOR UPDATE`,
        [fileId, key],
      );
      if (!rows.length) return undefined;
      const next = change(rows[0].value ?? undefined);
      if (next === undefined) return undefined;
      await em.query(`UPDATE files SET additional_info = jsonb_set(additional_info, ARRAY[$2::text], $3::jsonb) WHERE id = $1`, [
        fileId,
        key,
        JSON.stringify(next),
      ]);
      return next;
    });
  }

  /** Runs `work` if no other replica is sweeping right now (a transaction-scoped advisory lock). */
  async asSweeper(work: () => Promise<void>): Promise<boolean> {
    return this.ds.transaction(async (em) => {
      const [{ locked }]: Array<{ locked: boolean }> = await em.query(`SELECT pg_try_advisory_xact_lock($1) AS locked`, [SWEEPER_LOCK]);
      if (!locked) return false;
      await work();
      return true;
    });
  }

  /**
   * The RUNNING indexations whose worker has been silent since `staleBefore` (it died: a crash,
   * kill -9, an OOM) go back to the queue: PENDING and unclaimed, one more interruption counted, for
   * whoever takes the request up next. The `maxInterruptions`th interruption ends the request FAILED
   * instead, with `failedMessage` (a format() template: %s is the number of interruptions). A run
   * waiting for its steps after parsing has no worker to be silent: the sweeper looks at it apart
   * (`waitingForSteps`).
   */
  async requeueSilentRuns(
    staleBefore: number,
    maxInterruptions: number,
    failedMessage: string,
  ): Promise<Array<{ id: string; status: 'PENDING' | 'FAILED'; interruptions: number }>> {
    const [rows] = (await this.ds.query(
      `WITH silent AS (
         SELECT id, interruptions + 1 AS n FROM files
          WHERE status = 'RUNNING' AND COALESCE(heartbeat_time, 0) < $1 AND NOT COALESCE(${STEPS_PHASE}, false)
          FOR UPDATE SKIP LOCKED)
       UPDATE files f
          SET interruptions = s.n, heartbeat_time = NULL,
              status = CASE WHEN s.n >= $2 THEN 'FAILED' ELSE 'PENDING' END,
              error_message = CASE WHEN s.n >= $2 THEN format($3, s.n) END,
              claimed_request_time = CASE WHEN s.n >= $2 THEN f.claimed_request_time END
         FROM silent s WHERE f.id = s.id
       RETURNING f.id, f.status, f.interruptions`,
      [staleBefore, maxInterruptions, failedMessage],
    )) as [Array<{ id: string; status: 'PENDING' | 'FAILED'; interruptions: number }>, number];
    return rows;
  }

  /**
   * Requests no worker has taken up, recorded before `before`, oldest first: those lost between the
   * Files API's insert and its publish, or whose message went missing.
   */
  unclaimedRequests(before: number, limit: number): Promise<IndexedFileEntity[]> {
    return this.repo
      .createQueryBuilder('f')
      .where('f.claimed_request_time IS DISTINCT FROM f.requested_time')
      .andWhere('f.requested_time < :before', { before })
      .orderBy('f.requested_time', 'ASC')
      .limit(limit)
      .getMany();
  }
}
