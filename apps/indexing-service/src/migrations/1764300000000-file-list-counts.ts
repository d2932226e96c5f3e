import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The provider listing's sorts, each with the column its index (files_provider_*_idx) orders by. */
const PAGE_SORTS = { name: 'lower(name)', path: 'key', createdTime: 'created_time', size: 'size' };

/**
 * The totals of the file listings, kept as the rows change, so that a page deep in a provider of
 * 100,000 files costs an index range read of the page plus one row, not a count of every file.
 *
 * - provider_file_counts: files per (namespace, provider); collection_file_counts: links per
 *   collection (a collection only ever holds files of its own namespace, see CollectionsRepository).
 * - Statement-level triggers with transition tables keep them: a bulk insert or delete updates each
 *   counter once, and every code path that writes files or collection_files (cascades included: a
 *   file's delete removes its links, a collection's delete its counter) is covered. The upsert's row
 *   lock serialises concurrent writers of one counter only until their commit.
 * - A listing with a name filter still counts its rows: the filter bounds that count.
 * - provider_files_page() reads a page of a provider's files along the index of its sort. With
 *   autovacuum off or a table that grew since its last ANALYZE, the planner guesses a provider has
 *   a dozen files and reads all of them to sort them (0.5-0.8 s for page 20 of 100,000 files
 *   against a few ms along the index); inside the function sorting and bitmap scans are off, so the
 *   index order is the plan whatever the statistics say.
 */
export class FileListCounts1764300000000 implements MigrationInterface {
  name = 'FileListCounts1764300000000';

  async up(q: QueryRunner): Promise<void> {
    // No file or link may change between the backfill and the triggers taking over.
    await q.query(`LOCK TABLE files, collection_files IN SHARE ROW EXCLUSIVE MODE`);
    await q.query(`
      CREATE TABLE provider_file_counts (
        namespace_id uuid NOT NULL,
        provider_id uuid NOT NULL,
        n bigint NOT NULL,
        PRIMARY KEY (namespace_id, provider_id)
      )`);
    await q.query(`
      CREATE TABLE collection_file_counts (
        collection_id uuid PRIMARY KEY REFERENCES collections (id) ON DELETE CASCADE,
        n bigint NOT NULL
      )`);
    await q.query(`
      INSERT INTO provider_file_counts (namespace_id, provider_id, n)
      SELECT namespace_id, provider_id, count(*) FROM files GROUP BY namespace_id, provider_id`);
    await q.query(`
      INSERT INTO collection_file_counts (collection_id, n)
      SELECT collection_id, count(*) FROM collection_files GROUP BY collection_id`);

    // Rows are visited in key order so that two statements touching the same counters lock them in the same order.
    await q.query(`
      CREATE FUNCTION provider_file_counts_add() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
      BEGIN
        INSERT INTO provider_file_counts AS c (namespace_id, provider_id, n)
        SELECT namespace_id, provider_id, count(*) FROM added GROUP BY namespace_id, provider_id ORDER BY 1, 2
        ON CONFLICT (namespace_id, provider_id) DO UPDATE SET n = c.n + EXCLUDED.n;
        RETURN NULL;
      END
      $$`);
    await q.query(`
      CREATE FUNCTION provider_file_counts_remove() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
      BEGIN
        UPDATE provider_file_counts c SET n = c.n - d.n
          FROM (SELECT namespace_id, provider_id, count(*) AS n FROM removed GROUP BY 1, 2 ORDER BY 1, 2) d
         WHERE c.namespace_id = d.namespace_id AND c.provider_id = d.provider_id;
        RETURN NULL;
      END
      $$`);
    await q.query(`
      CREATE FUNCTION collection_file_counts_add() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
      BEGIN
        INSERT INTO collection_file_counts AS c (collection_id, n)
        SELECT collection_id, count(*) FROM added GROUP BY collection_id ORDER BY 1
        ON CONFLICT (collection_id) DO UPDATE SET n = c.n + EXCLUDED.n;
        RETURN NULL;
      END
      $$`);
    // A collection's own delete has removed its counter already (cascade): then there is nothing to update.
    await q.query(`
      CREATE FUNCTION collection_file_counts_remove() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
      BEGIN
        UPDATE collection_file_counts c SET n = c.n - d.n
          FROM (SELECT collection_id, count(*) AS n FROM removed GROUP BY 1 ORDER BY 1) d
         WHERE c.collection_id = d.collection_id;
        RETURN NULL;
      END
      $$`);
    await q.query(`
      CREATE FUNCTION file_list_counts_clear() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
      BEGIN
        IF TG_TABLE_NAME = 'files' THEN
          DELETE FROM provider_file_counts;
        ELSE
          DELETE FROM collection_file_counts;
        END IF;
        RETURN NULL;
      END
      $$`);

    // One static query per sort and direction: PL/pgSQL keeps their plans, where EXECUTE would plan every call.
    const branches = Object.entries(PAGE_SORTS).flatMap(([sort, column]) =>
      (['ASC', 'DESC'] as const).map(
        (direction) => `
        IF p_sort = '${sort}' AND p_descending = ${direction === 'DESC'} THEN
          RETURN QUERY SELECT * FROM files WHERE namespace_id = p_namespace AND provider_id = p_provider
                        ORDER BY ${column} ${direction}, id ${direction} OFFSET p_offset LIMIT p_limit;
          RETURN;
        END IF;`,
      ),
    );
    await q.query(`
      CREATE FUNCTION provider_files_page(p_namespace uuid, p_provider uuid, p_sort text, p_descending boolean, p_offset bigint, p_limit integer)
        RETURNS SETOF files LANGUAGE plpgsql STABLE ROWS 20
        SET search_path FROM CURRENT SET enable_sort = off SET enable_bitmapscan = off SET enable_seqscan = off AS $$
      BEGIN${branches.join('')}
        RAISE EXCEPTION 'unknown sort %', p_sort;
      END
      $$`);

    for (const [table, prefix] of [
      ['files', 'provider'],
      ['collection_files', 'collection'],
    ]) {
      await q.query(`
        CREATE TRIGGER ${prefix}_file_counts_add AFTER INSERT ON ${table}
          REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION ${prefix}_file_counts_add()`);
      await q.query(`
        CREATE TRIGGER ${prefix}_file_counts_remove AFTER DELETE ON ${table}
          REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION ${prefix}_file_counts_remove()`);
      await q.query(`
        CREATE TRIGGER ${prefix}_file_counts_clear AFTER TRUNCATE ON ${table}
          FOR EACH STATEMENT EXECUTE FUNCTION file_list_counts_clear()`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const [table, prefix] of [
      ['files', 'provider'],
      ['collection_files', 'collection'],
    ]) {
      for (const what of ['add', 'remove', 'clear']) await q.query(`DROP TRIGGER ${prefix}_file_counts_${what} ON ${table}`);
    }
    await q.query(`DROP FUNCTION provider_files_page(uuid, uuid, text, boolean, bigint, integer)`);
    for (const fn of [
      'provider_file_counts_add',
      'provider_file_counts_remove',
      'collection_file_counts_add',
      'collection_file_counts_remove',
      'file_list_counts_clear',
    ]) {
      await q.query(`DROP FUNCTION ${fn}()`);
    }
    await q.query(`DROP TABLE collection_file_counts`);
    await q.query(`DROP TABLE provider_file_counts`);
  }
}
