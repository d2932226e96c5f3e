import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { PassageDto, PassageSegment, Position } from '@docintel/contracts';
import { inTreeOrder } from '../nodes/tree-order';
import { PASSAGE_CONTAINER_TYPES, PASSAGE_LEAF_TYPES, type BuiltPassage, type OutlineNode, type SourceNode } from './passage-builder';

/** A stored passage with its file's name, as a search returns it. */
export interface StoredPassage {
  nodeId: string;
  fileId: string;
  fileName: string;
  nodeType: string;
  text: string;
  headings: string[];
  segments: PassageSegment[];
}

/** A stored passage as the passage calls answer it. */
export const toPassageDto = (p: StoredPassage, score: number): PassageDto => ({
  id: p.nodeId,
  fileId: p.fileId,
  fileName: p.fileName,
  nodeType: p.nodeType,
  text: p.text,
  headings: p.headings,
  segments: p.segments,
  score,
});

const PASSAGE_TYPES = [...PASSAGE_LEAF_TYPES, ...PASSAGE_CONTAINER_TYPES];

/**
 * The passages table (what a search hit is hydrated from) and the reads of the node tree that
 * building passages takes. The pipeline writes by file id (a file named by an event of its
 * namespace, whose namespace the consumer checked); reads for a search take the namespace.
 *
 * The node reads are here rather than in NodeStoreRepository because they serve only this step
 * (the outline for the heading context, the cells of rows with their positions).
 */
@Injectable()
export class PassagesRepository {
  constructor(private readonly ds: DataSource) {}

  /**
   * Every node of the generation in reading order with its depth; text only for headings. One
   * indexed read of the file's rows, ordered in memory (nodes/tree-order.ts says why).
   */
  async outline(fileId: string, generation: number): Promise<OutlineNode[]> {
    const rows: Array<{ id: string; parent_id: string | null; ordinal: number; type: string; level: number | null; text: string }> =
      await this.ds.query(
        `SELECT id, parent_id, ordinal, type, level, CASE WHEN type = 'heading' THEN text ELSE '' END AS text
           FROM nodes WHERE file_id = $1 AND generation = $2`,
        [fileId, generation],
      );
    return inTreeOrder(rows, 256).map(({ row: r, depth }) => ({
      id: r.id,
      parentId: r.parent_id,
      type: r.type,
      level: r.level,
      text: r.text,
      depth,
    }));
  }

  /** The nodes among `ids` that can be passages (leaf types and rows), in no particular order. */
  async sources(fileId: string, generation: number, ids: string[]): Promise<SourceNode[]> {
    const rows: Array<{ id: string; parent_id: string | null; type: string; text: string; positions: Position[] | null }> =
      await this.ds.query(
        `SELECT id, parent_id, type, text, positions FROM nodes
        WHERE file_id = $1 AND generation = $2 AND id = ANY($3::uuid[]) AND type = ANY($4::text[])`,
        [fileId, generation, ids, PASSAGE_TYPES],
      );
    return rows.map((r) => ({ id: r.id, parentId: r.parent_id, type: r.type, text: r.text, positions: r.positions ?? [] }));
  }

  /** The cells of these rows, in reading order (they may belong to another batch of the tree). */
  async cellsOf(fileId: string, generation: number, rowIds: string[]): Promise<Map<string, SourceNode[]>> {
    const out = new Map<string, SourceNode[]>();
    if (!rowIds.length) return out;
    const rows: Array<{ id: string; parent_id: string; type: string; text: string; positions: Position[] | null }> = await this.ds.query(
      `SELECT id, parent_id, type, text, positions FROM nodes
        WHERE file_id = $1 AND generation = $2 AND parent_id = ANY($3::uuid[]) AND type = 'cell'
        ORDER BY parent_id, ordinal`,
      [fileId, generation, rowIds],
    );
    for (const r of rows) {
      const list = out.get(r.parent_id) ?? [];
      list.push({ id: r.id, parentId: r.parent_id, type: r.type, text: r.text, positions: r.positions ?? [] });
      out.set(r.parent_id, list);
    }
    return out;
  }

  /**
   * Runs `work` in a transaction that first takes the file's row with FOR KEY SHARE; false, without
   * running it, when the file is gone. Deleting a file locks its row and then (trigger) the lexical
   * index's namespace lock, so writers of a file's passages take the locks in that same order:
   * otherwise a delete and a batch deadlock (the batch holds the namespace lock, then its foreign
   * key waits for the file row the delete holds).
   */
  async whileFileExists(fileId: string, work: (db: EntityManager) => Promise<void>): Promise<boolean> {
    return this.ds.transaction(async (db) => {
      const rows: unknown[] = await db.query(`SELECT 1 FROM files WHERE id = $1 FOR KEY SHARE`, [fileId]);
      if (!rows.length) return false;
      await work(db);
      return true;
    });
  }

  /** Writes (or rewrites) passages of the file's generation. Fails with 23503 when the file is gone. */
  async upsert(
    namespaceId: string,
    fileId: string,
    generation: number,
    passages: BuiltPassage[],
    db: EntityManager = this.ds.manager,
  ): Promise<void> {
    if (!passages.length) return;
    await db.query(
      `INSERT INTO passages (file_id, node_id, namespace_id, generation, node_type, text, headings, segments)
       SELECT $1, r.node_id, $2, $3, r.node_type, r.text, r.headings, r.segments
         FROM jsonb_to_recordset($4::jsonb) AS r(node_id uuid, node_type text, text text, headings jsonb, segments jsonb)
       ON CONFLICT (file_id, node_id) DO UPDATE
         SET namespace_id = EXCLUDED.namespace_id, generation = EXCLUDED.generation, node_type = EXCLUDED.node_type,
             text = EXCLUDED.text, headings = EXCLUDED.headings, segments = EXCLUDED.segments`,
      [
        fileId,
        namespaceId,
        generation,
        JSON.stringify(
          passages.map((p) => ({ node_id: p.nodeId, node_type: p.nodeType, text: p.text, headings: p.headings, segments: p.segments })),
        ),
      ],
    );
  }

  /** Node ids of the file's passages built from another tree than `generation` (a reparse replaced it). */
  async staleNodeIds(fileId: string, generation: number): Promise<string[]> {
    const rows: Array<{ node_id: string }> = await this.ds.query(`SELECT node_id FROM passages WHERE file_id = $1 AND generation <> $2`, [
      fileId,
      generation,
    ]);
    return rows.map((r) => r.node_id);
  }

  async deleteNodes(fileId: string, nodeIds: string[]): Promise<void> {
    if (!nodeIds.length) return;
    await this.ds.query(`DELETE FROM passages WHERE file_id = $1 AND node_id = ANY($2::uuid[])`, [fileId, nodeIds]);
  }

  /**
   * These passages of the namespace's files, from each file's current tree only (a passage of a
   * replaced tree that is not cleaned up yet is never returned), with the file's name.
   */
  /** Passages by node id, of the files named (any file of the namespace when `fileIds` is undefined), current trees only. */
  async read(
    namespaceId: string,
    fileIds: string[] | undefined,
    nodeIds: string[],
    db: EntityManager = this.ds.manager,
  ): Promise<Map<string, StoredPassage>> {
    const out = new Map<string, StoredPassage>();
    if (!nodeIds.length || fileIds?.length === 0) return out;
    const rows: Array<{
      node_id: string;
      file_id: string;
      name: string;
      node_type: string;
      text: string;
      headings: string[];
      segments: PassageSegment[];
    }> = await db.query(
      `SELECT p.node_id, p.file_id, f.name, p.node_type, p.text, p.headings, p.segments
         FROM passages p JOIN files f ON f.id = p.file_id
        WHERE p.namespace_id = $1 AND f.namespace_id = $1
          AND ($2::uuid[] IS NULL OR p.file_id = ANY($2::uuid[])) AND p.node_id = ANY($3::uuid[])
          AND p.generation = f.current_generation`,
      [namespaceId, fileIds ?? null, nodeIds],
    );
    for (const r of rows) {
      out.set(r.node_id, {
        nodeId: r.node_id,
        fileId: r.file_id,
        fileName: r.name,
        nodeType: r.node_type,
        text: r.text,
        headings: r.headings,
        segments: r.segments,
      });
    }
    return out;
  }

  /** How many passages the file has (tests and diagnostics). */
  async countForFile(fileId: string): Promise<number> {
    const [{ n }]: Array<{ n: number }> = await this.ds.query(`SELECT count(*)::int AS n FROM passages WHERE file_id = $1`, [fileId]);
    return n;
  }
}
