import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * document_embeddings: each file's document vector per namespace and model, kept as the sum and
 * count of its node vectors so that find-similar reads one row per file instead of every node
 * vector. The sum is float8[] whatever the node storage is: both storages read and write it alike,
 * and with pgvector an HNSW expression index over `embedding_sum::vector(d)` searches it (cosine
 * ignores the vector's length, so the sum ranks as the mean does).
 *
 * NodeVectorStore.upsert adds and subtracts node vectors in the writer's transaction. Deletes come
 * from many places (a file's cascade, a reparse dropping replaced nodes), so a statement trigger on
 * node_embeddings handles them in the deleting transaction: it drops the row of a file left without
 * vectors and marks the others stale; the store recomputes a stale row before reading it.
 *
 * Requires CreateNodeEmbeddings1732450000000. Existing files get stale rows, computed on first read.
 */
export class CreateDocumentEmbeddings1764100000000 implements MigrationInterface {
  name = 'CreateDocumentEmbeddings1764100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE document_embeddings (
        namespace_id uuid NOT NULL,
        model text NOT NULL,
        file_id uuid NOT NULL,
        dims integer NOT NULL CHECK (dims > 0),
        node_count integer NOT NULL,
        embedding_sum double precision[],
        stale boolean NOT NULL DEFAULT false,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (namespace_id, model, file_id)
      )`);
    await q.query('CREATE INDEX document_embeddings_stale_idx ON document_embeddings (namespace_id, model) WHERE stale');
    await q.query(`
      INSERT INTO document_embeddings (namespace_id, model, file_id, dims, node_count, embedding_sum, stale)
      SELECT namespace_id, model, file_id, max(dims), 0, NULL, true FROM node_embeddings GROUP BY namespace_id, model, file_id`);
    // SET search_path FROM CURRENT: a cascade may run from a session whose search_path lacks this schema.
    await q.query(`
      CREATE FUNCTION document_embeddings_after_node_delete() RETURNS trigger
      LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
      BEGIN
        DELETE FROM document_embeddings d
         USING (SELECT DISTINCT namespace_id, model, file_id FROM removed) t
         WHERE d.namespace_id = t.namespace_id AND d.model = t.model AND d.file_id = t.file_id
           AND NOT EXISTS (SELECT 1 FROM node_embeddings e
                            WHERE e.namespace_id = t.namespace_id AND e.file_id = t.file_id AND e.model = t.model);
        UPDATE document_embeddings d SET stale = true, updated_at = now()
          FROM (SELECT DISTINCT namespace_id, model, file_id FROM removed) t
         WHERE d.namespace_id = t.namespace_id AND d.model = t.model AND d.file_id = t.file_id AND NOT d.stale;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER document_embeddings_node_delete AFTER DELETE ON node_embeddings
      REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION document_embeddings_after_node_delete()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TRIGGER document_embeddings_node_delete ON node_embeddings');
    await q.query('DROP FUNCTION document_embeddings_after_node_delete()');
    await q.query('DROP TABLE document_embeddings');
  }
}
