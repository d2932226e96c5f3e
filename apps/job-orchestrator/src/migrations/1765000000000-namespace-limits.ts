import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Per-namespace limits and fair hand-out of units. A create counts the namespace's open jobs (and
 * their units) before it records a new one, and every hand-out of units counts, per namespace,
 * those already on the work queue or running: both read the open jobs of one namespace, which this
 * index finds without scanning the finished ones.
 */
export class NamespaceLimits1765000000000 implements MigrationInterface {
  name = 'NamespaceLimits1765000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX jobs_open_namespace_idx ON jobs (namespace_id, created_at) WHERE status IN ('PENDING', 'RUNNING')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX jobs_open_namespace_idx');
  }
}
