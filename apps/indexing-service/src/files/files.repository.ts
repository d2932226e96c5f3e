import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, type Repository } from 'typeorm';
import type { FileSortField, SortOrder } from '@docintel/contracts';
import { containsPattern, isUuid } from '../tenancy';
import { IndexedFileEntity } from './indexed-file.entity';

const SORT_COLUMNS: Record<FileSortField, string> = {
  name: 'lower(f.name)',
  path: 'f.key',
  createdTime: 'f.created_time',
  size: 'f.size',
};

/** What a new IndexedFile is made of: the provider item and who asks. */
export interface NewIndexedFile {
  /** The namespace's name, recorded with the file's first indexation request (rules and storage know namespaces by name). */
  namespaceName?: string | null;
  providerId: string;
  providerName: string;
  key: string;
  name: string;
  extension: string;
  size: number | null;
  mediaType: string | null;
  owner: { id: string; email: string; firstName: string; lastName: string; avatarUrl: string };
}

/** Which files a listing covers: those of a provider, or those in a collection. */
export type FileScope = { providerId: string } | { collectionId: string };

export interface FileListQuery {
  page: number;
  pageSize: number;
  sortBy: FileSortField;
  sortOrder: SortOrder;
  /** Case-insensitive substring of the file name. */
  q?: string;
}

/**
 * IndexedFiles of a namespace: created (PENDING, with the first indexation request), read, listed,
 * deleted, and given the metadata the ontology computation finds. The namespace is the first
 * argument of every method that serves the API: there is no query path that forgets it, and a file
 * of another namespace is indistinguishable from no file. The indexation state after creation is
 * written by IndexationStateRepository (indexation/).
 */
@Injectable()
export class FilesRepository {
  private readonly repo: Repository<IndexedFileEntity>;

  constructor(private readonly ds: DataSource) {
    this.repo = ds.getRepository(IndexedFileEntity);
  }

  /**
   * Creates the IndexedFile of a provider item, or returns the one the namespace already has for it.
   * The unique (namespace, provider, key) index decides between concurrent creators: exactly one
   * insert wins and every caller gets the same row.
   */
  async createOrGet(namespace: string, draft: NewIndexedFile): Promise<{ file: IndexedFileEntity; created: boolean }> {
    const now = Date.now();
    const inserted: Array<{ id: string }> = await this.ds.query(
      `INSERT INTO files (id, namespace_id, provider_id, key, name, extension, size, media_type, provider_name,
                          owner_id, owner_email, owner_first_name, owner_last_name, owner_avatar_url,
                          policy_id, created_time, requested_time, namespace_name)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $16, $17)
       ON CONFLICT ON CONSTRAINT files_provider_item_unique DO NOTHING
       RETURNING id`,
      [
        randomUUID(),
        namespace,
        draft.providerId,
        draft.key,
        draft.name,
        draft.extension,
        draft.size,
        draft.mediaType,
        draft.providerName,
        draft.owner.id,
        draft.owner.email,
        draft.owner.firstName,
        draft.owner.lastName,
        draft.owner.avatarUrl,
        randomUUID(),
        now,
        draft.namespaceName ?? null,
      ],
    );
    if (inserted.length) {
      return { file: await this.repo.findOneByOrFail({ id: inserted[0].id }), created: true };
    }
    const existing = await this.repo.findOneBy({ namespaceId: namespace, providerId: draft.providerId, key: draft.key });
    // The winner of the race committed before our insert gave up, so its row is visible now.
    if (!existing) throw new Error(`IndexedFile for ${draft.providerId}/${draft.key} vanished during creation`);
    return { file: existing, created: false };
  }

  findById(namespace: string, id: string): Promise<IndexedFileEntity | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    return this.repo.findOneBy({ namespaceId: namespace, id });
  }

  async list(namespace: string, scope: FileScope, query: FileListQuery): Promise<{ rows: IndexedFileEntity[]; total: number }> {
    const qb = this.repo.createQueryBuilder('f').where('f.namespace_id = :namespace', { namespace });
    if ('providerId' in scope) {
      if (!isUuid(scope.providerId)) return { rows: [], total: 0 };
      qb.andWhere('f.provider_id = :providerId', { providerId: scope.providerId });
    } else {
      if (!isUuid(scope.collectionId)) return { rows: [], total: 0 };
      qb.innerJoin('collection_files', 'cf', 'cf.file_id = f.id AND cf.collection_id = :collectionId', {
        collectionId: scope.collectionId,
      });
    }
    if (query.q) qb.andWhere('f.name ILIKE :pattern', { pattern: containsPattern(query.q) });
    const direction = query.sortOrder === 'desc' ? 'DESC' : 'ASC';
    qb.orderBy(SORT_COLUMNS[query.sortBy], direction).addOrderBy('f.id', direction);
    // One query for the page and the total (a window count); a second only when the page is past the end.
    const { entities, raw } = await qb
      .addSelect('count(*) OVER ()', 'total')
      .offset(query.page * query.pageSize)
      .limit(query.pageSize)
      .getRawAndEntities<{ total: string }>();
    if (entities.length) return { rows: entities, total: Number(raw[0].total) };
    return { rows: [], total: query.page === 0 ? 0 : await qb.offset(undefined).limit(undefined).getCount() };
  }

  /**
   * Deletes the IndexedFile; its nodes, ontologies and collection links go with it in the same
   * statement (foreign keys ON DELETE CASCADE), so no reader sees a half-deleted file.
   */
  async delete(namespace: string, id: string): Promise<boolean> {
    if (!isUuid(id)) return false;
    const [, affected] = (await this.ds.query(`DELETE FROM files WHERE namespace_id = $1 AND id = $2`, [namespace, id])) as [
      unknown,
      number,
    ];
    return affected > 0;
  }

  /** Title, authors and description found by the ontology computation; only the fields given change. */
  async recordMetadata(
    fileId: string,
    metadata: { title?: string | null; authors?: string | null; description?: string | null },
  ): Promise<boolean> {
    const sets: string[] = [];
    const params: unknown[] = [fileId];
    for (const column of ['title', 'authors', 'description'] as const) {
      if (metadata[column] === undefined) continue;
      params.push(metadata[column]);
      sets.push(`${column} = $${params.length}`);
    }
    if (!sets.length) return (await this.repo.countBy({ id: fileId })) > 0;
    const [, affected] = (await this.ds.query(`UPDATE files SET ${sets.join(', ')} WHERE id = $1`, params)) as [unknown, number];
    return affected > 0;
  }
}
