import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The node_embeddings table, in whatever schema the data source's search_path names.
 *
 * With pgvector installable (`CREATE EXTENSION vector` succeeds) the embedding is a `vector`
 * column; on stock PostgreSQL it is `bytea` holding little-endian float32 values, searched by a
 * streaming scan in Node (see NodeVectorStore). This migration picks what the server offers; the
 * store then enforces the configured storage (VECTOR_STORAGE) at start-up, converting the rows when
 * it differs, so pgvector installed later is taken up without a new migration. Vectors are kept
 * L2-normalised in both cases.
 *
 * There is no foreign key to the nodes or files tables so that the table fits any schema: the owner
 * of those tables deletes a file's vectors (NodeVectorStore.deleteForFile) in the transaction that
 * deletes the file.
 */
export class CreateNodeEmbeddings1732450000000 implements MigrationInterface {
  name = 'CreateNodeEmbeddings1732450000000';

  async up(q: QueryRunner): Promise<void> {
    const schema = await createPgvectorExtension(q);
    await q.query(`
      CREATE TABLE node_embeddings (
        namespace_id uuid NOT NULL,
        model text NOT NULL,
        node_id uuid NOT NULL,
        file_id uuid NOT NULL,
        dims integer NOT NULL CHECK (dims > 0),
        embedding ${schema ? `"${schema}".vector` : 'bytea'} NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (namespace_id, model, node_id)
      )`);
    await q.query('CREATE INDEX node_embeddings_file_idx ON node_embeddings (namespace_id, file_id)');
    if (!schema) {
      // 2 KiB of incompressible floats would otherwise be compressed in vain and moved to TOAST;
      // MAIN keeps them in the row, where the search scan reads them without a second lookup.
      await q.query('ALTER TABLE node_embeddings ALTER COLUMN embedding SET STORAGE MAIN');
    }
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE node_embeddings');
  }
}

/**
 * Creates the pgvector extension when the server has it and the role may; returns the schema it
 * lives in, or null on stock PostgreSQL (or for a role that may not create it). A failed CREATE
 * EXTENSION must not abort the caller's transaction, hence the savepoint.
 */
export async function createPgvectorExtension(q: Pick<QueryRunner, 'query' | 'isTransactionActive'>): Promise<string | null> {
  const available: unknown[] = await q.query(`SELECT 1 FROM pg_available_extensions WHERE name = 'vector'`);
  if (!available.length) return null;
  const inTransaction = q.isTransactionActive;
  if (inTransaction) await q.query('SAVEPOINT node_embeddings_pgvector');
  try {
    await q.query('CREATE EXTENSION IF NOT EXISTS vector');
    if (inTransaction) await q.query('RELEASE SAVEPOINT node_embeddings_pgvector');
  } catch {
    if (inTransaction) await q.query('ROLLBACK TO SAVEPOINT node_embeddings_pgvector');
    return null;
  }
  const [{ schema }] = (await q.query(
    `SELECT n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'vector'`,
  )) as { schema: string }[];
  return schema;
}
