import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { IndexationStatus } from '@docintel/contracts';

/** What the pipeline reads of a file before acting on a message about it. */
export interface PipelineFile {
  id: string;
  namespaceId: string;
  namespaceName: string | null;
  providerId: string;
  key: string;
  name: string;
  mediaType: string | null;
  size: number | null;
  status: IndexationStatus;
  requestedTime: number;
  claimedRequestTime: number | null;
  reparseRequested: boolean;
  currentGeneration: number | null;
  pipelineRequestTime: number | null;
  pipelineGeneration: number | null;
  pipelineRootId: string | null;
  heartbeatTime: number | null;
  additionalInfo: Record<string, unknown>;
}

const SELECT_FILE = `
  SELECT id, namespace_id, namespace_name, provider_id, key, name, media_type, size, status, requested_time,
         claimed_request_time, reparse_requested, current_generation, pipeline_request_time, pipeline_generation,
         pipeline_root_id, heartbeat_time, additional_info
    FROM files`;

interface FileRow {
  id: string;
  namespace_id: string;
  namespace_name: string | null;
  provider_id: string;
  key: string;
  name: string;
  media_type: string | null;
  size: string | null;
  status: IndexationStatus;
  requested_time: string;
  claimed_request_time: string | null;
  reparse_requested: boolean;
  current_generation: number | null;
  pipeline_request_time: string | null;
  pipeline_generation: number | null;
  pipeline_root_id: string | null;
  heartbeat_time: string | null;
  additional_info: Record<string, unknown>;
}

const num = (v: string | null): number | null => (v === null ? null : Number(v));

function toFile(r: FileRow): PipelineFile {
  return {
    id: r.id,
    namespaceId: r.namespace_id,
    namespaceName: r.namespace_name,
    providerId: r.provider_id,
    key: r.key,
    name: r.name,
    mediaType: r.media_type,
    size: num(r.size),
    status: r.status,
    requestedTime: Number(r.requested_time),
    claimedRequestTime: num(r.claimed_request_time),
    reparseRequested: r.reparse_requested,
    currentGeneration: r.current_generation,
    pipelineRequestTime: num(r.pipeline_request_time),
    pipelineGeneration: r.pipeline_generation,
    pipelineRootId: r.pipeline_root_id,
    heartbeatTime: num(r.heartbeat_time),
    additionalInfo: r.additional_info ?? {},
  };
}

const affected = (result: unknown): number => (result as [unknown, number])[1];

/** A stable 63-bit advisory lock key for the sweeper of this database. */
export const SWEEPER_LOCK = BigInt.asIntN(
  64,
  BigInt('0x' + createHash('sha256').update('docintel:indexing:sweeper').digest('hex').slice(0, 16)),
).toString();

/**
 * The pipeline's bookkeeping on the files table. Every write that ends or advances a run names
 * the request (requested_time) it belongs to, so that a run overtaken by a newer request never
 * overwrites that request's state. Like NodeStoreRepository, it works by file id: the pipeline acts
 * on files named by messages of their namespace.
 */
@Injectable()
export class PipelineStateRepository {
  constructor(private readonly ds: DataSource) {}

  async load(fileId: string): Promise<PipelineFile | null> {
    const rows: FileRow[] = await this.ds.query(`${SELECT_FILE} WHERE id = $1`, [fileId]);
    return rows.length ? toFile(rows[0]) : null;
  }

  /** Records the namespace's name with a request: rules and storage know namespaces by name. */
  async recordNamespaceName(fileId: string, namespaceName: string): Promise<void> {
    await this.ds.query(`UPDATE files SET namespace_name = $2 WHERE id = $1 AND namespace_name IS DISTINCT FROM $2`, [
      fileId,
      namespaceName,
    ]);
  }

  /** Remembers the generation and root node prepared for a request; false when the request was overtaken. */
  async recordPreparedGeneration(fileId: string, requestedTime: number, generation: number, rootNodeId: string): Promise<boolean> {
    const result = await this.ds.query(
      `UPDATE files SET pipeline_request_time = $2, pipeline_generation = $3, pipeline_root_id = $4
        WHERE id = $1 AND requested_time = $2`,
      [fileId, requestedTime, generation, rootNodeId],
    );
    return affected(result) > 0;
  }

  /**
   * Takes up a request: the file moves to `status` (RUNNING, or ABORTED when a rule says no) unless
   * the request was overtaken or another worker has it. A request whose worker went silent
   * (RUNNING, last heartbeat before `staleBefore`) may be taken up again.
   */
  async claim(
    fileId: string,
    requestedTime: number,
    staleBefore: number,
    status: 'RUNNING' | 'ABORTED',
    errorMessage: string | null = null,
  ): Promise<boolean> {
    const result = await this.ds.query(
      `UPDATE files SET status = $4, error_message = $5, claimed_request_time = $2,
                        heartbeat_time = CASE WHEN $4 = 'RUNNING' THEN $6::bigint END
        WHERE id = $1 AND requested_time = $2
          AND (claimed_request_time IS DISTINCT FROM $2 OR (status = 'RUNNING' AND COALESCE(heartbeat_time, 0) < $3))`,
      [fileId, requestedTime, staleBefore, status, errorMessage, Date.now()],
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

  /** SUCCESS for a reindex without reparse: the committed tree stays, the steps after parsing were re-queued. */
  async markReindexed(fileId: string, requestedTime: number, generation: number): Promise<boolean> {
    const result = await this.ds.query(
      `UPDATE files SET status = 'SUCCESS', error_message = NULL, heartbeat_time = NULL
        WHERE id = $1 AND requested_time = $2 AND claimed_request_time = $2 AND current_generation = $3`,
      [fileId, requestedTime, generation],
    );
    return affected(result) > 0;
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

  /** Fails the RUNNING indexations whose worker has been silent since `staleBefore`. */
  async failSilentRuns(staleBefore: number, message: string): Promise<Array<{ id: string; generation: number | null }>> {
    const [rows] = (await this.ds.query(
      `UPDATE files SET status = 'FAILED', error_message = $2, heartbeat_time = NULL
        WHERE status = 'RUNNING' AND COALESCE(heartbeat_time, 0) < $1
        RETURNING id, pipeline_generation`,
      [staleBefore, message],
    )) as [Array<{ id: string; pipeline_generation: number | null }>, number];
    return rows.map((r) => ({ id: r.id, generation: r.pipeline_generation }));
  }

  /** Requests no worker has taken up, recorded before `before`, oldest first. */
  async unclaimedRequests(before: number, limit: number): Promise<PipelineFile[]> {
    const rows: FileRow[] = await this.ds.query(
      `${SELECT_FILE} WHERE claimed_request_time IS DISTINCT FROM requested_time AND requested_time < $1
        ORDER BY requested_time LIMIT $2`,
      [before, limit],
    );
    return rows.map(toFile);
  }

  /** Drops every generation of the file newer than its committed tree (attempts that will not commit). */
  async discardUncommitted(fileId: string): Promise<void> {
    await this.ds.query(
      `DELETE FROM nodes n USING files f
        WHERE n.file_id = $1 AND f.id = $1 AND n.generation > COALESCE(f.current_generation, 0)`,
      [fileId],
    );
  }

  /** The ids and types of the nodes of a generation, in tree order (parents before children, siblings in reading order). */
  async nodesInTreeOrder(fileId: string, generation: number): Promise<Array<{ id: string; type: string; text: string }>> {
    return this.ds.query(
      `WITH RECURSIVE walk AS (
         SELECT id, type, text, ARRAY[ordinal] AS path FROM nodes
          WHERE file_id = $1 AND generation = $2 AND parent_id IS NULL
         UNION ALL
         SELECT c.id, c.type, c.text, w.path || c.ordinal FROM walk w
           JOIN nodes c ON c.file_id = $1 AND c.generation = $2 AND c.parent_id = w.id
       )
       SELECT id, type, text FROM walk ORDER BY path`,
      [fileId, generation],
    );
  }
}
