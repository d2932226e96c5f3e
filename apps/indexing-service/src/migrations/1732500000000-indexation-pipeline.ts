import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the indexation pipeline keeps on each file, and the link between node vectors and files.
 *
 * - namespace_name: rules and storage address a namespace by name; the pipeline acts outside any
 *   request, so the name is recorded with each request.
 * - claimed_request_time: the request (requested_time) a worker has taken up. A request is taken up
 *   once; one whose worker died (RUNNING without heartbeat) may be taken up again.
 * - heartbeat_time: a RUNNING worker's last sign of life (epoch ms).
 * - pipeline_request_time, pipeline_generation, pipeline_root_id: the generation and root node
 *   prepared for a request, so that publishing the request again reuses them.
 */
export class IndexationPipeline1732500000000 implements MigrationInterface {
  name = 'IndexationPipeline1732500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE files
        ADD COLUMN namespace_name text,
        ADD COLUMN claimed_request_time bigint,
        ADD COLUMN heartbeat_time bigint,
        ADD COLUMN pipeline_request_time bigint,
        ADD COLUMN pipeline_generation integer,
        ADD COLUMN pipeline_root_id uuid`);
    // Files settled before the pipeline existed are not waiting for anything.
    await q.query(`UPDATE files SET claimed_request_time = requested_time WHERE status <> 'PENDING'`);
    // The sweeper's two questions: which requests were never taken up, which runs went silent.
    await q.query(`CREATE INDEX files_unclaimed_idx ON files (requested_time) WHERE claimed_request_time IS DISTINCT FROM requested_time`);
    await q.query(`CREATE INDEX files_running_idx ON files (heartbeat_time) WHERE status = 'RUNNING'`);
    // A file's vectors go with it, in the statement that deletes it; a vector can never outlive its file.
    await q.query(`
      ALTER TABLE node_embeddings
        ADD CONSTRAINT node_embeddings_file_fk FOREIGN KEY (file_id) REFERENCES files (id) ON DELETE CASCADE`);
    // The cascade (and the clean-up after a reparse) look vectors up by file alone.
    await q.query(`CREATE INDEX node_embeddings_file_only_idx ON node_embeddings (file_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX node_embeddings_file_only_idx`);
    await q.query(`ALTER TABLE node_embeddings DROP CONSTRAINT node_embeddings_file_fk`);
    await q.query(`DROP INDEX files_running_idx`);
    await q.query(`DROP INDEX files_unclaimed_idx`);
    await q.query(`
      ALTER TABLE files
        DROP COLUMN pipeline_root_id,
        DROP COLUMN pipeline_generation,
        DROP COLUMN pipeline_request_time,
        DROP COLUMN heartbeat_time,
        DROP COLUMN claimed_request_time,
        DROP COLUMN namespace_name`);
  }
}
