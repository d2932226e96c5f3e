import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateProviders1732100000000 implements MigrationInterface {
  name = 'CreateProviders1732100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE providers (
        id uuid PRIMARY KEY,
        name text NOT NULL,
        icon text,
        type text NOT NULL,
        settings jsonb NOT NULL,
        namespaces text[],
        system boolean NOT NULL DEFAULT true,
        policy_id uuid NOT NULL,
        created_time bigint NOT NULL
      )`);
    await q.query(`CREATE INDEX providers_name_idx ON providers (lower(name), id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE providers`);
  }
}
