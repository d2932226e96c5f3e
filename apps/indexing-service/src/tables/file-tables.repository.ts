import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { NodeAttributes, Position } from '@docintel/contracts';
import { inTreeOrder } from '../nodes/tree-order';

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
    // Every node of the file in one indexed read (their order is made in memory, see
    // nodes/tree-order.ts); text, positions and attributes only of the nodes tables are made of.
    const rows: Array<{
      id: string;
      parent_id: string | null;
      ordinal: number;
      type: string;
      text: string | null;
      positions: Position[] | null;
      metadata: NodeAttributes | null;
    }> = await this.ds.query(
      `SELECT id, parent_id, ordinal, type,
              CASE WHEN type = ANY($3::text[]) THEN text END AS text,
              CASE WHEN type = ANY($3::text[]) THEN positions END AS positions,
              CASE WHEN type = ANY($3::text[]) THEN metadata END AS metadata
         FROM nodes WHERE file_id = $1 AND generation = $2`,
      [fileId, generation, TYPES],
    );
    return inTreeOrder(rows, 256)
      .map(({ row }) => row)
      .filter((r): r is typeof r & { type: TableTreeNode['type'] } => TYPES.includes(r.type))
      .map((r) => ({
        id: r.id,
        parentId: r.parent_id,
        type: r.type,
        text: r.text ?? '',
        positions: r.positions ?? [],
        attributes: r.metadata ?? {},
      }));
  }
}
