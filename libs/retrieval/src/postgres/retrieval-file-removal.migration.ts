import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * retrieval_remove_file()'s signature and body as this migration creates it, over one postings row
 * per term and passage; RetrievalImpactIndex.down() puts it back as it was. Released SQL: it must
 * not change.
 */
export const REMOVE_FILE_BY_ROW_POSTINGS = `retrieval_remove_file(p_namespace uuid, p_file uuid) RETURNS integer
      LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
      DECLARE
        removed integer;
        removed_length bigint;
      BEGIN
        PERFORM 1 FROM retrieval_stats WHERE namespace_id = p_namespace FOR UPDATE;
        IF NOT FOUND THEN
          RETURN 0;
        END IF;
        WITH gone AS (
          DELETE FROM retrieval_docs WHERE namespace_id = p_namespace AND file_id = p_file RETURNING node_id, length
        ), gone_postings AS (
          DELETE FROM retrieval_postings p USING gone g
          WHERE p.namespace_id = p_namespace AND p.file_id = p_file AND p.node_id = g.node_id
        )
        SELECT count(*), coalesce(sum(length), 0) INTO removed, removed_length FROM gone;
        IF removed > 0 THEN
          UPDATE retrieval_stats SET doc_count = doc_count - removed, total_length = total_length - removed_length
          WHERE namespace_id = p_namespace;
        END IF;
        RETURN removed;
      END
      $$`;

/**
 * `retrieval_remove_file(namespace_id, file_id)`: PostgresBm25Retriever.remove() as one SQL function,
 * for the owner of the files to call from the database itself, typically from a trigger on its
 * files table, so that deleting a file removes its passages in the same statement whatever code
 * path deletes it (the retrieval tables have no foreign keys of their own, see
 * CreateRetrievalTables). Same locking order as every write of the retriever: the namespace's stats
 * row first, then its passages, so it cannot deadlock with a concurrent index().
 *
 * The function's search_path is fixed to the schema it is created in, so that it finds its tables
 * from any session.
 */
export class RetrievalFileRemoval1732600000001 implements MigrationInterface {
  name = 'RetrievalFileRemoval1732600000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION ${REMOVE_FILE_BY_ROW_POSTINGS}`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP FUNCTION retrieval_remove_file(uuid, uuid)');
  }
}
