import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/**
 * Clean-up of node vectors beyond what libs/ai's NodeVectorStore does. node_embeddings lives in the
 * indexing schema with a cascading foreign key to files, so deleting a file deletes its vectors in
 * the same statement; the vectors of nodes a new tree replaced go with the commit (NodeStoreRepository),
 * and what remains is a batch's own vectors when its tree was replaced while it embedded.
 */
@Injectable()
export class NodeVectorsRepository {
  constructor(private readonly ds: DataSource) {}

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
