import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateRules1732200000000 implements MigrationInterface {
  name = 'CreateRules1732200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE rules (
        namespace text NOT NULL,
        trigger_id text NOT NULL,
        filter jsonb NOT NULL DEFAULT '{}'::jsonb,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        PRIMARY KEY (namespace, trigger_id)
      )`);
    // A namespace gets its default rules once; afterwards a missing rule means "disabled".
    await q.query(`
      CREATE TABLE seeded_namespaces (
        namespace text PRIMARY KEY,
        seeded_at timestamptz NOT NULL
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE seeded_namespaces`);
    await q.query(`DROP TABLE rules`);
  }
}
