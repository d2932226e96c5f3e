import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DomainError, NODE_TYPES, type IndexationStatus, type NodeRecord, type StoredNode } from '@docintel/contracts';
import { IndexationStateRepository, type ParsedFileFacts } from '../indexation/indexation-state.repository';
import { isUuid } from '../tenancy';
import { buildTree, type NodeRow } from './node-tree';
import { inTreeOrder } from './tree-order';

export interface TreeRead {
  indexed: boolean;
  status: IndexationStatus;
  generation: number | null;
  /** The committed tree, or null before the first commit. */
  root: StoredNode | null;
}

const NODE_TYPE_SET = new Set<string>(NODE_TYPES);

/** A tree at least this large refreshes the nodes table's statistics once committed (analyzeAfterBulkLoad). */
export const ANALYZE_AFTER_NODES = 2000;

export type { ParsedFileFacts };

/** A stored node as the steps after parsing read it. */
export interface NodeFacts {
  id: string;
  type: string;
  text: string;
  attributes: Record<string, unknown>;
}

/**
 * The node tree of each file, written by the pipeline in generations: beginGeneration hands out a
 * new generation number, insertBatch adds nodes to it (invisible to readers), commitGeneration
 * switches the file to it in one transaction, then the older generations are deleted. Readers only
 * ever see the file's current generation, so they get the old tree or the new one, never a mix.
 *
 * This is the only code that reads or writes the nodes table (and the vectors keyed by its nodes'
 * ids, when nodes are replaced). The file's side of a generation (its counters, the switch and the
 * SUCCESS that goes with it) is written by IndexationStateRepository, which owns the files row.
 *
 * Writers work by file id: the pipeline acts on a file named by an event of its namespace.
 * Readers of the API go through readTree, which takes the namespace.
 */
@Injectable()
export class NodeStoreRepository {
  private analyzing = false;

  constructor(
    private readonly ds: DataSource,
    private readonly state: IndexationStateRepository,
  ) {}

  /** A new, empty generation for the file's next tree. */
  beginGeneration(fileId: string): Promise<number> {
    return this.state.nextGeneration(fileId);
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
    const stale = (await this.state.commitGeneration(fileId, generation, facts)) === 'stale';
    if (stale) {
      await this.discardGeneration(fileId, generation);
      throw DomainError.conflict(`Generation ${generation} of file ${fileId} is older than the current tree`);
    }
    // Readers that started before the switch keep their snapshot; new readers no longer look here.
    await this.ds.query(`DELETE FROM nodes WHERE file_id = $1 AND generation < $2`, [fileId, generation]);
  }

  /**
   * Refreshes the planner's statistics of the nodes table after a large tree was written. Queries
   * on nodes must not depend on them (their plans are made to hold without), but PostgreSQL with
   * autovacuum off, or a table loaded faster than autovacuum looks, would otherwise keep planning
   * on an empty table's figures. ANALYZE samples a bounded number of rows whatever the table's size,
   * and one runs at a time per process; a failure (a role that does not own the table) only costs
   * the statistics.
   */
  async analyzeAfterBulkLoad(nodesWritten: number): Promise<boolean> {
    if (nodesWritten < ANALYZE_AFTER_NODES || this.analyzing) return false;
    this.analyzing = true;
    try {
      await this.ds.query(`ANALYZE nodes`);
      return true;
    } catch {
      return false;
    } finally {
      this.analyzing = false;
    }
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

  /** Drops every generation of the file newer than its committed tree (attempts that will not commit). */
  async discardUncommitted(fileId: string): Promise<void> {
    await this.ds.query(
      `DELETE FROM nodes n USING files f
        WHERE n.file_id = $1 AND f.id = $1 AND n.generation > COALESCE(f.current_generation, 0)`,
      [fileId],
    );
  }

  /**
   * Removes the file's vectors of nodes that are not in `generation` (the tree just committed):
   * vectors are keyed by node id, and the nodes they belonged to are gone.
   */
  async deleteVectorsOfReplacedNodes(fileId: string, generation: number): Promise<number> {
    const [, count] = (await this.ds.query(
      `DELETE FROM node_embeddings e
        WHERE e.file_id = $1
          AND NOT EXISTS (SELECT 1 FROM nodes n WHERE n.file_id = $1 AND n.generation = $2 AND n.id = e.node_id)`,
      [fileId, generation],
    )) as [unknown, number];
    return count;
  }

  /**
   * The ids, types and texts of the nodes of a generation, in tree order (parents before children,
   * siblings in reading order). One indexed read, ordered in memory (tree-order.ts says why).
   */
  async nodesInTreeOrder(fileId: string, generation: number): Promise<Array<{ id: string; type: string; text: string }>> {
    const rows: Array<{ id: string; parent_id: string | null; ordinal: number; type: string; text: string }> = await this.ds.query(
      `SELECT id, parent_id, ordinal, type, text FROM nodes WHERE file_id = $1 AND generation = $2`,
      [fileId, generation],
    );
    return inTreeOrder(rows).map(({ row }) => ({ id: row.id, type: row.type, text: row.text }));
  }

  /** These nodes of a generation (those that exist), optionally only those of some types; in no particular order. */
  async readNodes(fileId: string, generation: number, ids: string[], types?: readonly string[]): Promise<NodeFacts[]> {
    const rows: Array<{ id: string; type: string; text: string; metadata: Record<string, unknown> | null }> = await this.ds.query(
      `SELECT id, type, text, metadata FROM nodes
        WHERE file_id = $1 AND generation = $2 AND id = ANY($3::uuid[]) AND ($4::text[] IS NULL OR type = ANY($4::text[]))`,
      [fileId, generation, ids, types ? [...types] : null],
    );
    return rows.map((r) => ({ id: r.id, type: r.type, text: r.text, attributes: r.metadata ?? {} }));
  }

  /**
   * The text below each of these nodes, leaves in reading order, cut to `maxChars`; the cells of a
   * row joined with " | ", other texts with a space. Nodes with no text below are left out.
   */
  async textUnder(fileId: string, generation: number, ids: string[], maxChars: number): Promise<Map<string, string>> {
    const rows: Array<{ root: string; text: string | null }> = await this.ds.query(
      `WITH RECURSIVE sub AS (
         SELECT n.id AS root, n.type AS root_type, n.id, n.text, ARRAY[]::int[] AS path
           FROM nodes n WHERE n.file_id = $1 AND n.generation = $2 AND n.id = ANY($3::uuid[])
         UNION ALL
         SELECT s.root, s.root_type, c.id, c.text, s.path || c.ordinal
           FROM sub s JOIN nodes c ON c.file_id = $1 AND c.generation = $2 AND c.parent_id = s.id
          WHERE cardinality(s.path) < 64
       )
       SELECT root, left(string_agg(NULLIF(btrim(text), ''), CASE WHEN root_type = 'row' THEN ' | ' ELSE ' ' END ORDER BY path), $4) AS text
         FROM sub GROUP BY root, root_type`,
      [fileId, generation, ids, maxChars],
    );
    return new Map(rows.filter((r) => r.text).map((r) => [r.root, r.text as string]));
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
