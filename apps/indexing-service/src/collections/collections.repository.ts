import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import type { CollectionSortField, SortOrder } from '@docintel/contracts';
import { ownerColumnValues, type RecordOwner } from '../ownership';
import { containsPattern, isUuid } from '../tenancy';
import { CollectionEntity, type CollectionWithCount } from './collection.entity';

const SORT_COLUMNS: Record<CollectionSortField, string> = {
  name: 'lower(c.name)',
  createdTime: 'c.created_time',
  filesCount: 'files_count',
};

// filesCount is counted from the links on every read, so it cannot drift from them.
const SELECT_WITH_COUNT = `
  SELECT c.*, (SELECT count(*) FROM collection_files cf WHERE cf.collection_id = c.id)::int AS files_count
    FROM collections c`;

const FOREIGN_KEY_VIOLATION = '23503';

interface CollectionRow {
  id: string;
  namespace_id: string;
  name: string;
  description: string | null;
  icon: string | null;
  owner_id: string;
  owner_email: string;
  owner_first_name: string;
  owner_last_name: string;
  owner_avatar_url: string;
  policy_id: string;
  created_time: string;
  files_count: number;
}

function fromRow(r: CollectionRow): CollectionWithCount {
  const c = new CollectionEntity();
  Object.assign(c, {
    id: r.id,
    namespaceId: r.namespace_id,
    name: r.name,
    description: r.description,
    icon: r.icon,
    ownerId: r.owner_id,
    ownerEmail: r.owner_email,
    ownerFirstName: r.owner_first_name,
    ownerLastName: r.owner_last_name,
    ownerAvatarUrl: r.owner_avatar_url,
    policyId: r.policy_id,
    createdTime: Number(r.created_time),
  });
  return { collection: c, filesCount: r.files_count };
}

export interface NewCollection {
  name: string;
  description: string | null;
  icon: string | null;
  owner: RecordOwner;
}

export interface CollectionPatch {
  name?: string;
  description?: string | null;
  icon?: string | null;
}

export interface CollectionListQuery {
  page: number;
  pageSize: number;
  sortBy: CollectionSortField;
  sortOrder: SortOrder;
  q?: string;
}

export type DeleteOutcome = 'deleted' | 'not-owner' | 'missing';
export type UpdateOutcome = { outcome: 'updated'; collection: CollectionWithCount } | { outcome: 'not-owner' } | { outcome: 'missing' };
export type LinkOutcome = 'linked' | 'unlinked' | 'unchanged' | 'no-collection' | 'no-file';

/**
 * Collections of a namespace and their links to IndexedFiles. The namespace is the first argument
 * of every method; links are only ever made between a collection and a file of the same namespace.
 */
@Injectable()
export class CollectionsRepository {
  constructor(private readonly ds: DataSource) {}

  async create(namespace: string, draft: NewCollection): Promise<CollectionWithCount> {
    const rows: CollectionRow[] = await this.ds.query(
      `INSERT INTO collections (id, namespace_id, name, description, icon, owner_id, owner_email, owner_first_name,
                                owner_last_name, owner_avatar_url, policy_id, created_time)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
       RETURNING *, 0 AS files_count`,
      [randomUUID(), namespace, draft.name, draft.description, draft.icon, ...ownerColumnValues(draft.owner), randomUUID(), Date.now()],
    );
    return fromRow(rows[0]);
  }

  async findById(namespace: string, id: string, em: EntityManager = this.ds.manager): Promise<CollectionWithCount | null> {
    if (!isUuid(id)) return null;
    const rows: CollectionRow[] = await em.query(`${SELECT_WITH_COUNT} WHERE c.namespace_id = $1 AND c.id = $2`, [namespace, id]);
    return rows.length ? fromRow(rows[0]) : null;
  }

  async list(namespace: string, query: CollectionListQuery): Promise<{ rows: CollectionWithCount[]; total: number }> {
    const params: unknown[] = [namespace];
    let where = 'c.namespace_id = $1';
    if (query.q) {
      params.push(containsPattern(query.q));
      where += ` AND c.name ILIKE $${params.length}`;
    }
    const direction = query.sortOrder === 'desc' ? 'DESC' : 'ASC';
    const [rows, count] = await Promise.all([
      this.ds.query(
        `${SELECT_WITH_COUNT} WHERE ${where}
         ORDER BY ${SORT_COLUMNS[query.sortBy]} ${direction}, c.id ${direction}
         OFFSET $${params.length + 1} LIMIT $${params.length + 2}`,
        [...params, query.page * query.pageSize, query.pageSize],
      ) as Promise<CollectionRow[]>,
      this.ds.query(`SELECT count(*)::int AS n FROM collections c WHERE ${where}`, params) as Promise<Array<{ n: number }>>,
    ]);
    return { rows: rows.map(fromRow), total: count[0].n };
  }

  /**
   * Changes only the fields present in the patch, when `userId` owns the collection. The owner is
   * checked on the row locked for the update, so an ownership check and a change cannot interleave.
   */
  async updateOwned(namespace: string, id: string, userId: string, patch: CollectionPatch): Promise<UpdateOutcome> {
    if (!isUuid(id)) return { outcome: 'missing' };
    return this.ds.transaction(async (em) => {
      const rows: Array<{ owner_id: string }> = await em.query(
        `SELECT owner_id FROM collections WHERE namespace_id = $1 AND id = $2 FOR UPDATE`,
        [namespace, id],
      );
      if (!rows.length) return { outcome: 'missing' };
      if (rows[0].owner_id !== userId) return { outcome: 'not-owner' };
      const sets: string[] = [];
      const params: unknown[] = [namespace, id];
      for (const column of ['name', 'description', 'icon'] as const) {
        if (patch[column] === undefined) continue;
        params.push(patch[column]);
        sets.push(`${column} = $${params.length}`);
      }
      if (sets.length) await em.query(`UPDATE collections SET ${sets.join(', ')} WHERE namespace_id = $1 AND id = $2`, params);
      const updated = await this.findById(namespace, id, em);
      return updated ? { outcome: 'updated', collection: updated } : { outcome: 'missing' };
    });
  }

  /** Deletes the collection when `userId` owns it; its files stay, only the links go. */
  async deleteOwned(namespace: string, id: string, userId: string): Promise<DeleteOutcome> {
    if (!isUuid(id)) return 'missing';
    return this.ds.transaction(async (em) => {
      const rows: Array<{ owner_id: string }> = await em.query(
        `SELECT owner_id FROM collections WHERE namespace_id = $1 AND id = $2 FOR UPDATE`,
        [namespace, id],
      );
      if (!rows.length) return 'missing';
      if (rows[0].owner_id !== userId) return 'not-owner';
      await em.query(`DELETE FROM collections WHERE namespace_id = $1 AND id = $2`, [namespace, id]);
      return 'deleted';
    });
  }

  /** Links a file of the namespace to a collection of the namespace; linking twice changes nothing. */
  async addFile(namespace: string, collectionId: string, fileId: string): Promise<LinkOutcome> {
    if (!isUuid(collectionId)) return 'no-collection';
    if (!isUuid(fileId)) return 'no-file';
    try {
      const [r]: Array<{ c: number; f: number; n: number }> = await this.ds.query(
        `WITH c AS (SELECT id FROM collections WHERE namespace_id = $1 AND id = $2),
              f AS (SELECT id FROM files WHERE namespace_id = $1 AND id = $3),
              ins AS (INSERT INTO collection_files (collection_id, file_id, added_time)
                      SELECT c.id, f.id, $4 FROM c, f ON CONFLICT DO NOTHING RETURNING 1)
         SELECT (SELECT count(*) FROM c)::int AS c, (SELECT count(*) FROM f)::int AS f, (SELECT count(*) FROM ins)::int AS n`,
        [namespace, collectionId, fileId, Date.now()],
      );
      return r.c === 0 ? 'no-collection' : r.f === 0 ? 'no-file' : r.n ? 'linked' : 'unchanged';
    } catch (err) {
      // The collection or the file was deleted between the lookup and the insert.
      if ((err as { code?: string }).code === FOREIGN_KEY_VIOLATION) {
        return (await this.findById(namespace, collectionId)) ? 'no-file' : 'no-collection';
      }
      throw err;
    }
  }

  /** Unlinks a file from a collection; the file itself stays. */
  async removeFile(namespace: string, collectionId: string, fileId: string): Promise<LinkOutcome> {
    if (!isUuid(collectionId)) return 'no-collection';
    if (!isUuid(fileId)) return 'no-file';
    const [r]: Array<{ c: number; f: number; n: number }> = await this.ds.query(
      `WITH c AS (SELECT id FROM collections WHERE namespace_id = $1 AND id = $2),
            f AS (SELECT id FROM files WHERE namespace_id = $1 AND id = $3),
            del AS (DELETE FROM collection_files cf USING c, f
                     WHERE cf.collection_id = c.id AND cf.file_id = f.id RETURNING 1)
       SELECT (SELECT count(*) FROM c)::int AS c, (SELECT count(*) FROM f)::int AS f, (SELECT count(*) FROM del)::int AS n`,
      [namespace, collectionId, fileId],
    );
    return r.c === 0 ? 'no-collection' : r.f === 0 ? 'no-file' : r.n ? 'unlinked' : 'unchanged';
  }
}
