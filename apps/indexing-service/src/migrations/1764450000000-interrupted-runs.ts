import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * interruptions: how many times the file's current request was cut short by its worker's death (a
 * crash, kill -9, OOM) and given back to the queue. A new request starts again from 0; past
 * PIPELINE_MAX_INTERRUPTIONS the request ends FAILED, so that a document that kills its worker every
 * time is not retried for ever.
 */
export class InterruptedRuns1764450000000 implements MigrationInterface {
  name = 'InterruptedRuns1764450000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE files ADD COLUMN interruptions integer NOT NULL DEFAULT 0`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE files DROP COLUMN interruptions`);
  }
}
