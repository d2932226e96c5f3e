import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, type Repository } from 'typeorm';
import type { FileSortField, SortOrder } from '@docintel/contracts';
import { ownerColumnValues, type RecordOwner } from '../ownership';
import { containsPattern, isUuid } from '../tenancy';
import { IndexedFileEntity } from '../indexation/indexed-file.entity';
import type { IndexedFileListRow } from './indexed-file.mapper';

const SORT_COLUMNS: Record<FileSortField, string> = {
  name: 'lower(f.name)',
  path: 'f.key',
  createdTime: 'f.created_time',
  size: 'f.size',
};

/**
 * The columns indexedFilePageJson shows, named as the entity's properties; bigints as float8 so that
 * pg gives numbers (epoch milliseconds and byte sizes are exact in a double), the pipeline record as text.
 */
const SHOWN_COLUMNS = `f.id, f.created_time::float8 AS "createdTime", f.owner_id AS "ownerId", f.policy_id AS "policyId",
  f.provider_id AS "providerId", f.name, f.key, f.size::float8 AS size, f.checksum, f.media_type AS "mediaType", f.extension,
  f.indexed, f.match_computed AS "matchComputed", f.title, f.status, f.error_message AS "errorMessage",
  f.owner_first_name AS "ownerFirstName", f.owner_last_name AS "ownerLastName", f.owner_email AS "ownerEmail",
  f.owner_avatar_url AS "ownerAvatarUrl", f.provider_name AS "providerName", f.description, f.authors,
  f.additional_info::text AS "additionalInfoJson"`;

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
  owner: RecordOwner;
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
  /** Only keys that start with this (a folder). */
  keyPrefix?: string;
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
        ...ownerColumnValues(draft.owner),
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

  /**
   * A page of the files of a provider or a collection, with the total. A provider's page is a range
   * of the index that matches the sort ((namespace, provider, sort column, id), read by
   * provider_files_page whatever the planner's statistics say), so page 20 reads 400 index entries,
   * not every file. Without a name filter the total is the counter the triggers of FileListCounts
   * keep, read in the same statement (one snapshot); with one, the matching rows are counted, as the
   * filter bounds them.
   */
  async list(namespace: string, scope: FileScope, query: FileListQuery): Promise<{ rows: IndexedFileEntity[]; total: number }> {
    if ('providerId' in scope && !isUuid(scope.providerId)) return { rows: [], total: 0 };
    if ('collectionId' in scope && !isUuid(scope.collectionId)) return { rows: [], total: 0 };
    if ('providerId' in scope && !query.q) return this.providerPage(namespace, scope.providerId, query);

    const qb = this.repo.createQueryBuilder('f').where('f.namespace_id = :namespace', { namespace });
    let counter: string;
    if ('providerId' in scope) {
      qb.andWhere('f.provider_id = :providerId', { providerId: scope.providerId });
      counter = 'SELECT n FROM provider_file_counts WHERE namespace_id = :namespace AND provider_id = :providerId';
    } else {
      qb.innerJoin('collection_files', 'cf', 'cf.file_id = f.id AND cf.collection_id = :collectionId', {
        collectionId: scope.collectionId,
      });
      counter = 'SELECT n FROM collection_file_counts WHERE collection_id = :collectionId';
    }
    if (query.q) qb.andWhere('f.name ILIKE :pattern', { pattern: containsPattern(query.q) });
    const direction = query.sortOrder === 'desc' ? 'DESC' : 'ASC';
    qb.orderBy(SORT_COLUMNS[query.sortBy], direction).addOrderBy('f.id', direction);
    const { entities, raw } = await qb
      .addSelect(query.q ? 'count(*) OVER ()' : `COALESCE((${counter}), 0)`, 'total')
      .offset(query.page * query.pageSize)
      .limit(query.pageSize)
      .getRawAndEntities<{ total: string }>();
    if (entities.length) return { rows: entities, total: Number(raw[0].total) };
    if (query.page === 0) return { rows: [], total: 0 };
    // Past the last page no row carries the total.
    if (query.q) return { rows: [], total: await qb.offset(undefined).limit(undefined).getCount() };
    const [sql, params] = this.ds.driver.escapeQueryWithParameters(`SELECT COALESCE((${counter}), 0) AS n`, qb.getParameters(), {});
    const [{ n }] = (await this.ds.query(sql, params)) as Array<{ n: string }>;
    return { rows: [], total: Number(n) };
  }

  /**
   * A page of a provider's files (no filter) with the shown fields only and the pipeline record as
   * JSON text, for indexedFilePageJson; the same rows, order and total as list().
   */
  async listProviderPage(
    namespace: string,
    providerId: string,
    query: FileListQuery,
  ): Promise<{ rows: IndexedFileListRow[]; total: number }> {
    if (!isUuid(providerId)) return { rows: [], total: 0 };
    if (query.q || query.keyPrefix) return this.filteredProviderPage(namespace, providerId, query);
    const raw = await this.readProviderPage<IndexedFileListRow>(SHOWN_COLUMNS, namespace, providerId, query);
    return { rows: raw[0].id === null ? [] : raw, total: Number(raw[0].list_total) };
  }

  /** A page of a provider's files whose name contains `q` and whose key starts with `keyPrefix`, counted as it is read. */
  private async filteredProviderPage(
    namespace: string,
    providerId: string,
    query: FileListQuery,
  ): Promise<{ rows: IndexedFileListRow[]; total: number }> {
    const direction = query.sortOrder === 'desc' ? 'DESC' : 'ASC';
    const where = `f.namespace_id = $1 AND f.provider_id = $2
        AND ($3::text IS NULL OR f.name ILIKE $3) AND ($4::text IS NULL OR left(f.key, char_length($4)) = $4)`;
    const params = [namespace, providerId, query.q ? containsPattern(query.q) : null, query.keyPrefix || null];
    const rows: Array<IndexedFileListRow & { list_total: string }> = await this.ds.query(
      `SELECT ${SHOWN_COLUMNS}, count(*) OVER () AS list_total FROM files f WHERE ${where}
        ORDER BY ${SORT_COLUMNS[query.sortBy]} ${direction}, f.id ${direction} OFFSET $5 LIMIT $6`,
      [...params, query.page * query.pageSize, query.pageSize],
    );
    if (rows.length) return { rows, total: Number(rows[0].list_total) };
    if (query.page === 0) return { rows: [], total: 0 };
    // Past the last page no row carries the total.
    const [{ n }] = (await this.ds.query(`SELECT count(*) AS n FROM files f WHERE ${where}`, params)) as Array<{ n: string }>;
    return { rows: [], total: Number(n) };
  }

  private async providerPage(
    namespace: string,
    providerId: string,
    query: FileListQuery,
  ): Promise<{ rows: IndexedFileEntity[]; total: number }> {
    const raw = await this.readProviderPage<Record<string, unknown>>('f.*', namespace, providerId, query);
    return { rows: raw[0].id === null ? [] : raw.map((r) => this.hydrate(r)), total: Number(raw[0].list_total) };
  }

  /**
   * The page's rows with the counter beside each; an empty page still has its one row, the
   * counter's, with every file column null.
   */
  private readProviderPage<Row>(
    columns: string,
    namespace: string,
    providerId: string,
    query: Omit<FileListQuery, 'q'>,
  ): Promise<Array<Row & { list_total: string }>> {
    return this.ds.query(
      `SELECT ${columns}, c.n AS list_total
         FROM (SELECT COALESCE((SELECT n FROM provider_file_counts WHERE namespace_id = $1 AND provider_id = $2), 0) AS n) c
         LEFT JOIN provider_files_page($1, $2, $3, $4, $5, $6) f ON true`,
      [namespace, providerId, query.sortBy, query.sortOrder === 'desc', query.page * query.pageSize, query.pageSize],
    );
  }

  /** An entity from a row of files read with raw SQL, as TypeORM would build it (transformers applied). */
  private hydrate(row: Record<string, unknown>): IndexedFileEntity {
    const entity = this.repo.create();
    for (const column of this.repo.metadata.columns) {
      column.setEntityValue(entity, this.ds.driver.prepareHydratedValue(row[column.databaseName], column));
    }
    return entity;
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
