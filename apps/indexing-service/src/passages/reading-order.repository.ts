import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { MAX_PASSAGE_CHARS } from './passage-builder';
import type { Direction, OrderedNode, TreeReads } from './reading-order';

declare const inNamespace: unique symbol;

/**
 * A file's current tree as found in the caller's namespace. Only ReadingOrderRepository.currentTree
 * makes one, so the node reads that take it cannot skip the namespace.
 */
export interface NamespacedTree {
  readonly namespaceId: string;
  readonly fileId: string;
  readonly fileName: string;
  /** The committed tree's generation; null before the first parse committed one. */
  readonly generation: number | null;
  readonly [inNamespace]: true;
}

interface NodeRow {
  id: string;
  parent_id: string | null;
  ordinal: number;
  type: string;
  passage: boolean;
  long: boolean;
  descend: boolean;
}

/**
 * What the walk needs to know of node `c` of the tree ($1 file, $2 generation): whether it has a
 * passage, whether its text may be longer than a passage (octet_length, a bound on the UTF-16
 * length, read without detoasting), and whether passages may lie below it (see OrderedNode.descend).
 * Lateral subqueries with LIMIT, not EXISTS: the planner may answer an EXISTS with a hash of every
 * passage or node of the file, which is the whole-document read this walk avoids.
 */
const NODE_FACTS = `c.id, c.parent_id, c.ordinal, c.type, own.yes IS NOT NULL AS passage,
  (c.type <> 'row' AND octet_length(c.text) > ${MAX_PASSAGE_CHARS}) AS long, below.yes IS NOT NULL AS descend`;
const NODE_FACTS_JOINS = `
  LEFT JOIN LATERAL (
    SELECT true AS yes FROM passages p WHERE p.file_id = $1 AND p.node_id = c.id AND p.generation = $2 LIMIT 1
  ) own ON true
  LEFT JOIN LATERAL (
    SELECT true AS yes FROM nodes k
      LEFT JOIN LATERAL (
        SELECT true AS yes FROM nodes g WHERE g.file_id = $1 AND g.generation = $2 AND g.parent_id = k.id LIMIT 1
      ) grandchild ON c.type = 'row' AND k.type = 'cell'
     WHERE k.file_id = $1 AND k.generation = $2 AND k.parent_id = c.id
       AND (c.type <> 'row' OR k.type <> 'cell' OR grandchild.yes)
     LIMIT 1
  ) below ON true`;

const toNode = (r: NodeRow): OrderedNode => ({
  id: r.id,
  parentId: r.parent_id,
  ordinal: r.ordinal,
  type: r.type,
  passage: r.passage,
  long: r.long,
  descend: r.descend,
});

const EMPTY_TREE: TreeReads = {
  ancestry: () => Promise.resolve([]),
  windowSource: () => Promise.resolve(null),
  children: () => Promise.resolve([]),
  text: () => Promise.resolve(''),
};

/**
 * Reads of a file's current node tree in reading order, for indexing.passages.around: a few
 * siblings at a time by (file, generation, parent, ordinal), the nodes_tree_idx index, never the
 * whole tree. Run them in one snapshot so that a reparse committing meanwhile is not half seen.
 *
 * Like PassagesRepository's node reads, these are here rather than in NodeStoreRepository because
 * they serve only this feature; they only read, and only the committed tree.
 */
@Injectable()
export class ReadingOrderRepository {
  constructor(private readonly ds: DataSource) {}

  /** Runs `work` in a read-only REPEATABLE READ transaction: every read sees the same committed tree. */
  snapshot<T>(work: (db: EntityManager) => Promise<T>): Promise<T> {
    return this.ds.transaction('REPEATABLE READ', async (db) => {
      await db.query('SET TRANSACTION READ ONLY');
      return work(db);
    });
  }

  /** The namespace's file and the generation of its committed tree; null when the namespace has no such file. */
  async currentTree(namespaceId: string, fileId: string, db: EntityManager): Promise<NamespacedTree | null> {
    const rows: Array<{ name: string; current_generation: number | null }> = await db.query(
      `SELECT name, current_generation FROM files WHERE namespace_id = $1 AND id = $2`,
      [namespaceId, fileId],
    );
    if (!rows.length) return null;
    const { name, current_generation: generation } = rows[0];
    return { namespaceId, fileId, fileName: name, generation } as NamespacedTree;
  }

  /** The walk's reads of this tree, in `db`'s transaction; a file without a tree reads as an empty one. */
  reads(tree: NamespacedTree, db: EntityManager): TreeReads {
    const { fileId, generation } = tree;
    if (generation === null) return EMPTY_TREE;
    return {
      ancestry: async (nodeId) => {
        const rows: NodeRow[] = await db.query(
          `WITH RECURSIVE up AS (
             SELECT id, parent_id, 0 AS depth FROM nodes WHERE file_id = $1 AND generation = $2 AND id = $3
             UNION ALL
             SELECT n.id, n.parent_id, u.depth + 1 FROM up u JOIN nodes n ON n.file_id = $1 AND n.generation = $2 AND n.id = u.parent_id
              WHERE u.depth < 256
           )
           SELECT ${NODE_FACTS}
             FROM up JOIN nodes c ON c.file_id = $1 AND c.generation = $2 AND c.id = up.id ${NODE_FACTS_JOINS}
            ORDER BY up.depth`,
          [fileId, generation, nodeId],
        );
        return rows.map(toNode);
      },
      windowSource: async (passageId) => {
        const rows: Array<{ node_id: string | null }> = await db.query(
          `SELECT segments -> 0 ->> 'nodeId' AS node_id FROM passages
            WHERE file_id = $1 AND generation = $2 AND node_id = $3 AND namespace_id = $4`,
          [fileId, generation, passageId, tree.namespaceId],
        );
        return rows[0]?.node_id ?? null;
      },
      children: async (parentId: string, direction: Direction, ordinal: number | null, limit: number) => {
        const forward = direction === 'forward';
        const rows: NodeRow[] = await db.query(
          `SELECT ${NODE_FACTS} FROM nodes c ${NODE_FACTS_JOINS}
            WHERE c.file_id = $1 AND c.generation = $2 AND c.parent_id = $3 AND c.ordinal ${forward ? '>' : '<'} $4
            ORDER BY c.ordinal ${forward ? 'ASC' : 'DESC'}
            LIMIT $5`,
          [fileId, generation, parentId, ordinal ?? (forward ? -1 : 2 ** 31 - 1), limit],
        );
        return rows.map(toNode);
      },
      text: async (nodeId) => {
        const rows: Array<{ text: string }> = await db.query(`SELECT text FROM nodes WHERE file_id = $1 AND generation = $2 AND id = $3`, [
          fileId,
          generation,
          nodeId,
        ]);
        return rows[0]?.text ?? '';
      },
    };
  }
}
