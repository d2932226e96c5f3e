import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * AI jobs. A job is split into units (a question for QA, a file for extraction) that run from the
 * work.jobs.unit queue on any replica; a unit's answers and citations are written with its status,
 * so a reader never sees a half-written unit.
 *
 * - jobs.inputs: the request as accepted (files as given, questions or metas, config);
 *   jobs.files: the files resolved at creation ([{fileId, name}]), the ones the job reads.
 * - job_units.depends_on: units whose answers this one needs (chained questions); it is published
 *   once they are all terminal.
 * - job_units.claim: the token of the delivery working on the unit; writes of an older claim are
 *   ignored, so a worker that was only slow cannot overwrite its successor's answers.
 * - job_units.published_at / heartbeat_at: what the sweeper needs to republish a lost message and
 *   take over a unit whose worker died.
 */
export class CreateJobs1732700000000 implements MigrationInterface {
  name = 'CreateJobs1732700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE jobs (
        id uuid PRIMARY KEY,
        namespace_id uuid NOT NULL,
        user_id text NOT NULL,
        kind text NOT NULL,
        name text NOT NULL,
        status text NOT NULL,
        error_message text,
        inputs jsonb NOT NULL,
        files jsonb NOT NULL,
        archived boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        started_at timestamptz,
        finished_at timestamptz,
        modified_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX jobs_owner_idx ON jobs (namespace_id, user_id, kind, created_at DESC)`);
    await q.query(`CREATE INDEX jobs_open_idx ON jobs (modified_at) WHERE status IN ('PENDING', 'RUNNING')`);
    await q.query(`
      CREATE TABLE job_units (
        job_id uuid NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
        unit integer NOT NULL,
        label text NOT NULL,
        file_id uuid,
        depends_on integer[] NOT NULL DEFAULT '{}',
        status text NOT NULL,
        claim uuid,
        attempts integer NOT NULL DEFAULT 0,
        error text,
        results jsonb NOT NULL DEFAULT '[]',
        answered integer NOT NULL DEFAULT 0,
        published_at timestamptz,
        heartbeat_at timestamptz,
        finished_at timestamptz,
        PRIMARY KEY (job_id, unit)
      )`);
    await q.query(`CREATE INDEX job_units_open_idx ON job_units (status, heartbeat_at) WHERE status IN ('PENDING', 'RUNNING')`);
    await q.query(`
      CREATE TABLE job_annotations (
        id uuid PRIMARY KEY,
        job_id uuid NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
        unit integer NOT NULL,
        ordinal integer NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        data jsonb NOT NULL
      )`);
    await q.query(`CREATE INDEX job_annotations_job_idx ON job_annotations (job_id, unit, ordinal)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE job_annotations');
    await q.query('DROP TABLE job_units');
    await q.query('DROP TABLE jobs');
  }
}
