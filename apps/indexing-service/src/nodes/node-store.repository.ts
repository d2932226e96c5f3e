import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DomainError, ErrorCode, NODE_TYPES, type IndexationStatus, type NodeRecord, type StoredNode } from '@docintel/contracts';
import { isUuid } from '../tenancy';
import { buildTree, type NodeRow } from './node-tree';

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
}

export interface TreeRead {
  indexed: boolean;
  status: IndexationStatus;
  generation: number | null;
  /** The committed tree, or null before the first commit. */
  root: StoredNode | null;
}

const NODE_TYPE_SET = new Set<string>(NODE_TYPES);

/**
 * The node tree of each file, written by the pipeline in generations: beginGeneration hands out a
 * new generation number, insertBatch adds nodes to it (invisible to readers), commitGeneration
 * switches the file to it in one transaction, then the older generations are deleted. Readers only
 * ever see the file's current generation, so they get the old tree or the new one, never a mix.
 *
 * Writers work by file id: the pipeline acts on a file named by an event of its namespace.
 * Readers go through readTree, which takes the namespace.
 */
@Injectable()
export class NodeStoreRepository {
  constructor(private readonly ds: DataSource) {}

  /** A new, empty generation for the file's next tree. */
  async beginGeneration(fileId: string): Promise<number> {
    const [rows] = (await this.ds.query(`UPDATE files SET last_generation = last_generation + 1 WHERE id = $1 RETURNING last_generation`, [
      fileId,
    ])) as [Array<{ last_generation: number }>, number];
    if (!rows.length) throw DomainError.notFound('IndexedFile', fileId);
    return rows[0].last_generation;
  }

  /**
   * Adds nodes to a generation that is not committed yet. Nodes name their parent by id, so a tree
   * may be written in any number of batches (parents need not come first).
   */
  async insertBatch(fileId: string, generation: number, nodes: NodeRecord[]): Promise<void> {
    if (!nodes.length) return;
    for (const n of nodes) {
      if (!isUuid(n.id) || (n.parentId !== null && !isUuid(n.parentId))) {
        throw DomainError.invalid([{ field: 'nodes.id', problem: `node ids must be UUIDs (got ${n.id} / ${n.parentId})` }]);
      }
      if (!NODE_TYPE_SET.has(n.type)) {
        throw DomainError.invalid([{ field: 'nodes.type', problem: `unknown node type ${n.type}` }]);
      }
    }
    const records = nodes.map((n) => ({
      id: n.id,
      parent_id: n.parentId,
      ordinal: n.ordinal,
      type: n.type,
      text: n.text ?? '',
      level: n.level ?? null,
      positions: n.positions ?? [],
      metadata: n.attributes ?? {},
    }));
    // One parameter for the whole batch: no limit on the number of bind parameters.
    const [{ n }]: Array<{ n: number }> = await this.ds.query(
      `WITH ins AS (
         INSERT INTO nodes (file_id, generation, id, parent_id, ordinal, type, text, level, positions, metadata)
         SELECT $1, $2, r.id, r.parent_id, r.ordinal, r.type, r.text, r.level, r.positions, r.metadata
           FROM jsonb_to_recordset($3::jsonb)
                AS r(id uuid, parent_id uuid, ordinal int, type text, text text, level int, positions jsonb, metadata jsonb)
          WHERE EXISTS (SELECT 1 FROM files f
                         WHERE f.id = $1 AND $2 <= f.last_generation AND $2 > COALESCE(f.current_generation, 0))
         RETURNING 1)
       SELECT count(*)::int AS n FROM ins`,
      [fileId, generation, JSON.stringify(records)],
    );
    if (n !== nodes.length) {
      throw DomainError.conflict(
        `Generation ${generation} of file ${fileId} is not open for writing (unknown file, committed or superseded)`,
      );
    }
  }

  /**
   * Makes the generation the file's tree, in one transaction with the file's indexation result
   * (SUCCESS, indexed) and the facts the parse learned; then deletes the older generations. A
   * generation older than the current one is refused (CONFLICT) and its nodes discarded.
   */
  async commitGeneration(fileId: string, generation: number, facts: ParsedFileFacts = {}): Promise<void> {
    const stale = await this.ds.transaction(async (em) => {
      const rows: Array<{ current_generation: number | null; last_generation: number }> = await em.query(
        `SELECT current_generation, last_generation FROM files WHERE id = $1 FOR UPDATE`,
        [fileId],
      );
      if (!rows.length) throw DomainError.notFound('IndexedFile', fileId);
      const { current_generation: current, last_generation: last } = rows[0];
      if (generation > last) throw new DomainError(ErrorCode.CONFLICT, `Generation ${generation} of file ${fileId} was never begun`);
      if (current !== null && generation <= current) return true;
      const params: unknown[] = [fileId, generation];
      const sets = [`current_generation = $2`, `indexed = true`, `status = 'SUCCESS'`, `error_message = NULL`, `reparse_requested = false`];
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
      return false;
    });
    if (stale) {
      await this.discardGeneration(fileId, generation);
      throw DomainError.conflict(`Generation ${generation} of file ${fileId} is older than the current tree`);
    }
    // Readers that started before the switch keep their snapshot; new readers no longer look here.
    await this.ds.query(`DELETE FROM nodes WHERE file_id = $1 AND generation < $2`, [fileId, generation]);
  }

  /**
   * Merges attributes into nodes of the file's current tree (a step after parsing adding facts to
   * nodes, such as a formula's LaTeX); keys given replace the node's, others stay. Only nodes of
   * `generation` change, and only while it is the current one; returns the ids changed.
   */
  async mergeAttributes(
    fileId: string,
    generation: number,
    updates: Array<{ id: string; attributes: Record<string, unknown> }>,
  ): Promise<string[]> {
    if (!updates.length) return [];
    const rows: Array<{ id: string }> = await this.ds
      .query(
        `UPDATE nodes n SET metadata = n.metadata || u.patch
         FROM jsonb_to_recordset($3::jsonb) AS u(id uuid, patch jsonb), files f
        WHERE n.file_id = $1 AND n.generation = $2 AND n.id = u.id AND f.id = $1 AND f.current_generation = $2
        RETURNING n.id`,
        [fileId, generation, JSON.stringify(updates.map((u) => ({ id: u.id, patch: u.attributes })))],
      )
      .then(([r]: [Array<{ id: string }>]) => r);
    return rows.map((r) => r.id);
  }

  /** Drops the nodes of a generation that will not be committed (a failed or superseded parse). */
  async discardGeneration(fileId: string, generation: number): Promise<void> {
    await this.ds.query(
      `DELETE FROM nodes n USING files f
        WHERE n.file_id = $1 AND n.generation = $2 AND f.id = n.file_id AND n.generation IS DISTINCT FROM f.current_generation`,
      [fileId, generation],
    );
  }

  /**
   * The file's committed tree, read in one snapshot so that a concurrent commit is seen entirely or
   * not at all. Null when the namespace has no such file.
   */
  async readTree(namespace: string, fileId: string): Promise<TreeRead | null> {
    if (!isUuid(fileId)) return null;
    return this.ds.transaction('REPEATABLE READ', async (em) => {
      const files: Array<{ indexed: boolean; status: IndexationStatus; current_generation: number | null }> = await em.query(
        `SELECT indexed, status, current_generation FROM files WHERE namespace_id = $1 AND id = $2`,
        [namespace, fileId],
      );
      if (!files.length) return null;
      const { indexed, status, current_generation: generation } = files[0];
      if (generation === null) return { indexed, status, generation, root: null };
      const rows: NodeRow[] = await em.query(
        `SELECT id, parent_id, ordinal, type, text, level, positions, metadata
           FROM nodes WHERE file_id = $1 AND generation = $2`,
        [fileId, generation],
      );
      return { indexed, status, generation, root: buildTree(rows, fileId) };
    });
  }
}
