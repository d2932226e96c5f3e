import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Secrets the service generates for itself and every replica must share: the signing secret of
 * transfer grants and list cursors when STORAGE_SIGNING_SECRET is not set. One row per name; the
 * first replica to insert wins and the others read its value.
 */
export class CreateSecrets1732300000000 implements MigrationInterface {
  name = 'CreateSecrets1732300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE secrets (
        name text PRIMARY KEY,
        value text NOT NULL,
        created_time bigint NOT NULL
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE secrets`);
  }
}
