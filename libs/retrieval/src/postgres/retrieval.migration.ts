import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The tables of PostgresBm25Retriever, in whatever schema the data source's search_path names (a
 * service adds this class to its data source's migrations).
 *
 * - retrieval_docs: one row per indexed passage with its length in terms.
 * - retrieval_postings: one row per (passage, term) with the term's frequency in the passage; the
 *   primary key starts with (namespace_id, term), which is how a search reads it, and also gives
 *   each term's document frequency by an index scan.
 * - retrieval_stats: per namespace, the number of passages and their total length (for the
 *   average), kept exact by every write in the same transaction. Its row is also the lock that
 *   serialises writes within a namespace.
 *
 * No foreign keys to the nodes or files tables, so that the tables fit any schema.
 */
export class CreateRetrievalTables1732600000000 implements MigrationInterface {
  name = 'CreateRetrievalTables1732600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE retrieval_docs (
        namespace_id uuid NOT NULL,
        node_id uuid NOT NULL,
        file_id uuid NOT NULL,
        length integer NOT NULL CHECK (length > 0),
        PRIMARY KEY (namespace_id, node_id)
      )`);
    await q.query('CREATE INDEX retrieval_docs_file_idx ON retrieval_docs (namespace_id, file_id)');
    await q.query(`
      CREATE TABLE retrieval_postings (
        namespace_id uuid NOT NULL,
        term text NOT NULL,
        node_id uuid NOT NULL,
        file_id uuid NOT NULL,
        tf integer NOT NULL CHECK (tf > 0),
        PRIMARY KEY (namespace_id, term, node_id)
      )`);
    await q.query('CREATE INDEX retrieval_postings_file_idx ON retrieval_postings (namespace_id, file_id)');
    await q.query(`
      CREATE TABLE retrieval_stats (
        namespace_id uuid PRIMARY KEY,
        doc_count bigint NOT NULL CHECK (doc_count >= 0),
        total_length bigint NOT NULL CHECK (total_length >= 0)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE retrieval_stats');
    await q.query('DROP TABLE retrieval_postings');
    await q.query('DROP TABLE retrieval_docs');
  }
}
