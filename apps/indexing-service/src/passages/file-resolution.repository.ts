import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { ResolvedFile } from '@docintel/contracts';

interface FileRow {
  id: string;
  name: string;
  status: string;
  indexed: boolean;
}

/**
 * The files a job names, in one namespace: by id, and the members of collections. Every query takes
 * the namespace; an id of another namespace is indistinguishable from no id.
 */
@Injectable()
export class FileResolutionRepository {
  constructor(private readonly ds: DataSource) {}

  /** The namespace's files among these ids. `indexed`: a committed tree and status SUCCESS. */
  async files(namespaceId: string, ids: string[]): Promise<Map<string, ResolvedFile>> {
    if (!ids.length) return new Map();
    const rows: FileRow[] = await this.ds.query(
      `SELECT id, name, status, (status = 'SUCCESS' AND current_generation IS NOT NULL) AS indexed
         FROM files WHERE namespace_id = $1 AND id = ANY($2::uuid[])`,
      [namespaceId, ids],
    );
    return new Map(rows.map((r) => [r.id, toResolved(r)]));
  }

  /**
   * The namespace's collections among these ids, each with its files of the namespace in the order
   * they were added (then by id); at most `maxFiles` files over all of them.
   */
  async collections(namespaceId: string, ids: string[], maxFiles: number): Promise<Map<string, ResolvedFile[]>> {
    const out = new Map<string, ResolvedFile[]>();
    if (!ids.length) return out;
    const found: Array<{ id: string }> = await this.ds.query(
      `SELECT id FROM collections WHERE namespace_id = $1 AND id = ANY($2::uuid[])`,
      [namespaceId, ids],
    );
    for (const c of found) out.set(c.id, []);
    if (!found.length) return out;
    const rows: Array<FileRow & { collection_id: string }> = await this.ds.query(
      `SELECT cf.collection_id, f.id, f.name, f.status, (f.status = 'SUCCESS' AND f.current_generation IS NOT NULL) AS indexed
         FROM collection_files cf JOIN files f ON f.id = cf.file_id AND f.namespace_id = $1
        WHERE cf.collection_id = ANY($2::uuid[])
        ORDER BY cf.collection_id, cf.added_time, f.id
        LIMIT $3`,
      [namespaceId, found.map((c) => c.id), maxFiles],
    );
    for (const r of rows) out.get(r.collection_id)?.push(toResolved(r));
    return out;
  }
}

const toResolved = (r: FileRow): ResolvedFile => ({ fileId: r.id, name: r.name, status: r.status, indexed: r.indexed });
