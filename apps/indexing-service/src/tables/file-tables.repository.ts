import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { NodeAttributes, Position } from '@docintel/contracts';

/** A node of a file's current tree that tables are built from: headings, sections, tables, rows and cells. */
export interface TableTreeNode {
  id: string;
  parentId: string | null;
  type: 'heading' | 'section' | 'table' | 'row' | 'cell';
  text: string;
  positions: Position[];
  attributes: NodeAttributes;
}

const TYPES = ['heading', 'section', 'table', 'row', 'cell'];

/**
 * Reads of the node tree for table extraction: the file (in the caller's namespace) and, in reading
 * order, the nodes a table is made of with the headings and sections above them. Paragraphs and other
 * leaves are walked through but not returned, so a long document costs one walk and little transfer.
 */
@Injectable()
export class FileTablesRepository {
  constructor(private readonly ds: DataSource) {}

  async file(namespaceId: string, fileId: string): Promise<{ id: string; name: string; generation: number | null } | null> {
    const rows: Array<{ id: string; name: string; current_generation: number | null }> = await this.ds.query(
      `SELECT id, name, current_generation FROM files WHERE namespace_id = $1 AND id = $2`,
      [namespaceId, fileId],
    );
    return rows[0] ? { id: rows[0].id, name: rows[0].name, generation: rows[0].current_generation } : null;
  }

  async tableNodes(fileId: string, generation: number): Promise<TableTreeNode[]> {
    const rows: Array<{
      id: string;
      parent_id: string | null;
      type: TableTreeNode['type'];
      text: string;
      positions: Position[];
      metadata: NodeAttributes;
    }> = await this.ds.query(
      `WITH RECURSIVE walk AS (
           SELECT id, parent_id, type, 0 AS depth, ARRAY[ordinal] AS path
             FROM nodes WHERE file_id = $1 AND generation = $2 AND parent_id IS NULL
           UNION ALL
           SELECT c.id, c.parent_id, c.type, w.depth + 1, w.path || c.ordinal
             FROM walk w JOIN nodes c ON c.file_id = $1 AND c.generation = $2 AND c.parent_id = w.id
            WHERE w.depth < 256
         )
         SELECT n.id, n.parent_id, n.type, n.text, n.positions, n.metadata
           FROM walk w JOIN nodes n ON n.file_id = $1 AND n.generation = $2 AND n.id = w.id
          WHERE w.type = ANY($3::text[])
          ORDER BY w.path`,
      [fileId, generation, TYPES],
    );
    return rows.map((r) => ({
      id: r.id,
      parentId: r.parent_id,
      type: r.type,
      text: r.text,
      positions: r.positions ?? [],
      attributes: r.metadata ?? {},
    }));
  }
}
