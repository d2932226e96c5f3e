import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Passages for retrieval (apps/indexing-service/src/passages), after libs/retrieval's own tables
 * (CreateRetrievalTables, RetrievalFileRemoval) in the same schema.
 *
 * - passages: what a search returns for a hit, built when the file's nodes are written: the text
 *   the lexical index was given, the headings above the node and the segments with their positions.
 *   Keyed by file and node, with the tree generation it was built from; a cascading foreign key
 *   removes a file's passages with the file.
 * - The lexical index (retrieval_docs, retrieval_postings, retrieval_stats) keeps per-namespace
 *   statistics that a cascade would leave wrong, so a trigger on files calls
 *   retrieval_remove_file() before each file row is deleted, in the deleting statement, whatever code
 *   path deletes it. The foreign key from retrieval_docs to files then only ever finds nothing to
 *   cascade; it is there so that a late batch cannot index passages of a file that is gone (the
 *   insert fails and the consumer drops the batch).
 */
export class Passages1732700000000 implements MigrationInterface {
  name = 'Passages1732700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE passages (
        file_id uuid NOT NULL REFERENCES files (id) ON DELETE CASCADE,
        node_id uuid NOT NULL,
        namespace_id uuid NOT NULL,
        generation integer NOT NULL,
        node_type text NOT NULL,
        text text NOT NULL,
        headings jsonb NOT NULL DEFAULT '[]',
        segments jsonb NOT NULL DEFAULT '[]',
        PRIMARY KEY (file_id, node_id)
      )`);
    await q.query(`CREATE INDEX passages_namespace_node_idx ON passages (namespace_id, node_id)`);
    await q.query(`
      ALTER TABLE retrieval_docs
        ADD CONSTRAINT retrieval_docs_file_fk FOREIGN KEY (file_id) REFERENCES files (id) ON DELETE CASCADE`);
    await q.query(`
      CREATE FUNCTION files_remove_passages() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
      BEGIN
        PERFORM retrieval_remove_file(OLD.namespace_id, OLD.id);
        RETURN OLD;
      END
      $$`);
    await q.query(`CREATE TRIGGER files_remove_passages BEFORE DELETE ON files FOR EACH ROW EXECUTE FUNCTION files_remove_passages()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER files_remove_passages ON files`);
    await q.query(`DROP FUNCTION files_remove_passages()`);
    await q.query(`ALTER TABLE retrieval_docs DROP CONSTRAINT retrieval_docs_file_fk`);
    await q.query(`DROP TABLE passages`);
  }
}
