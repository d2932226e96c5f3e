import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateIdentity1732100000000 implements MigrationInterface {
  name = 'CreateIdentity1732100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE namespaces (
        id uuid PRIMARY KEY,
        name text NOT NULL UNIQUE,
        created_time bigint NOT NULL
      )`);
    await q.query(`
      CREATE TABLE users (
        id uuid PRIMARY KEY,
        email text NOT NULL UNIQUE,
        first_name text NOT NULL DEFAULT '',
        last_name text NOT NULL DEFAULT '',
        created_time bigint NOT NULL
      )`);
    await q.query(`
      CREATE TABLE memberships (
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        namespace_id uuid NOT NULL REFERENCES namespaces(id) ON DELETE CASCADE,
        created_time bigint NOT NULL,
        PRIMARY KEY (user_id, namespace_id)
      )`);
    await q.query(`
      CREATE TABLE access_tokens (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        namespace_id uuid NOT NULL REFERENCES namespaces(id) ON DELETE CASCADE,
        name text NOT NULL,
        secret_hash text NOT NULL,
        created_time bigint NOT NULL,
        expires_time bigint,
        revoked_time bigint
      )`);
    await q.query(`CREATE INDEX access_tokens_user_idx ON access_tokens (user_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE access_tokens`);
    await q.query(`DROP TABLE memberships`);
    await q.query(`DROP TABLE users`);
    await q.query(`DROP TABLE namespaces`);
  }
}
