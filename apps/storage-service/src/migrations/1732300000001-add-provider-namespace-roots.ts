import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Where each namespace's items live inside a provider (NamespaceRoots). NULL: every namespace that
 * may use the provider shares its whole root, as before this column existed.
 */
export class AddProviderNamespaceRoots1732300000001 implements MigrationInterface {
  name = 'AddProviderNamespaceRoots1732300000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE providers ADD COLUMN namespace_roots jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE providers DROP COLUMN namespace_roots`);
  }
}
