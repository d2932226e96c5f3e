import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/**
 * Clean-up of node vectors beyond what libs/ai's NodeVectorStore does. node_embeddings lives in the
 * indexing schema with a cascading foreign key to files, so deleting a file deletes its vectors in
 * the same statement; what remains to clean is the vectors of nodes a new tree replaced.
 */
@Injectable()
export class NodeVectorsRepository {
  constructor(private readonly ds: DataSource) {}

  /** Removes the file's vectors of nodes that are not in `generation` (the tree just committed). */
  async deleteStale(fileId: string, generation: number): Promise<number> {
    const [, count] = (await this.ds.query(
      `DELETE FROM node_embeddings e
        WHERE e.file_id = $1
          AND NOT EXISTS (SELECT 1 FROM nodes n WHERE n.file_id = $1 AND n.generation = $2 AND n.id = e.node_id)`,
      [fileId, generation],
    )) as [unknown, number];
    return count;
  }

  /** Removes the vectors of these nodes (written for a tree that was replaced meanwhile). */
  async deleteNodes(fileId: string, nodeIds: string[]): Promise<void> {
    if (!nodeIds.length) return;
    await this.ds.query(`DELETE FROM node_embeddings WHERE file_id = $1 AND node_id = ANY($2::uuid[])`, [fileId, nodeIds]);
  }

  /** How many vectors the file has (all models). */
  async countForFile(fileId: string): Promise<number> {
    const [{ n }]: Array<{ n: number }> = await this.ds.query(`SELECT count(*)::int AS n FROM node_embeddings WHERE file_id = $1`, [
      fileId,
    ]);
    return n;
  }
}
