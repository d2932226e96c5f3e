import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * IndexedFiles, collections and the node store. Every row carries (or reaches through its file) the
 * namespace it belongs to; deleting a file removes its nodes, ontologies and collection links by cascade.
 */
export class CreateFilesCollectionsNodes1732300000000 implements MigrationInterface {
  name = 'CreateFilesCollectionsNodes1732300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE files (
        id uuid PRIMARY KEY,
        namespace_id uuid NOT NULL,
        provider_id uuid NOT NULL,
        key text NOT NULL,
        name text NOT NULL,
        extension text NOT NULL,
        size bigint,
        media_type text,
        checksum text,
        provider_name text NOT NULL,
        owner_id uuid NOT NULL,
        owner_email text NOT NULL DEFAULT '',
        owner_first_name text NOT NULL DEFAULT '',
        owner_last_name text NOT NULL DEFAULT '',
        owner_avatar_url text NOT NULL DEFAULT '',
        policy_id uuid NOT NULL,
        created_time bigint NOT NULL,
        status text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'RUNNING', 'SUCCESS', 'FAILED', 'ABORTED')),
        error_message text,
        indexed boolean NOT NULL DEFAULT false,
        match_computed boolean NOT NULL DEFAULT false,
        title text,
        authors text,
        description text,
        additional_info jsonb NOT NULL DEFAULT '{}',
        indexation_requests integer NOT NULL DEFAULT 1,
        reparse_requested boolean NOT NULL DEFAULT true,
        ontology_requests integer NOT NULL DEFAULT 0,
        requested_time bigint NOT NULL,
        current_generation integer,
        last_generation integer NOT NULL DEFAULT 0,
        CONSTRAINT files_provider_item_unique UNIQUE (namespace_id, provider_id, key)
      )`);
    // One index per sort property of the provider listing, each ending in the id for a stable order.
    for (const [name, expr] of [
      ['name', 'lower(name)'],
      ['path', 'key'],
      ['created', 'created_time'],
      ['size', 'size'],
    ]) {
      await q.query(`CREATE INDEX files_provider_${name}_idx ON files (namespace_id, provider_id, ${expr}, id)`);
    }

    await q.query(`
      CREATE TABLE collections (
        id uuid PRIMARY KEY,
        namespace_id uuid NOT NULL,
        name text NOT NULL,
        description text,
        icon text,
        owner_id uuid NOT NULL,
        owner_email text NOT NULL DEFAULT '',
        owner_first_name text NOT NULL DEFAULT '',
        owner_last_name text NOT NULL DEFAULT '',
        owner_avatar_url text NOT NULL DEFAULT '',
        policy_id uuid NOT NULL,
        created_time bigint NOT NULL
      )`);
    await q.query(`CREATE INDEX collections_name_idx ON collections (namespace_id, lower(name), id)`);
    await q.query(`CREATE INDEX collections_created_idx ON collections (namespace_id, created_time, id)`);

    await q.query(`
      CREATE TABLE collection_files (
        collection_id uuid NOT NULL REFERENCES collections (id) ON DELETE CASCADE,
        file_id uuid NOT NULL REFERENCES files (id) ON DELETE CASCADE,
        added_time bigint NOT NULL,
        PRIMARY KEY (collection_id, file_id)
      )`);
    await q.query(`CREATE INDEX collection_files_file_idx ON collection_files (file_id)`);

    // The document tree of each file, one generation per parse. Readers see the file's
    // current_generation only, so a new tree becomes visible all at once when it is committed.
    await q.query(`
      CREATE TABLE nodes (
        file_id uuid NOT NULL REFERENCES files (id) ON DELETE CASCADE,
        generation integer NOT NULL,
        id uuid NOT NULL,
        parent_id uuid,
        ordinal integer NOT NULL,
        type text NOT NULL,
        text text NOT NULL DEFAULT '',
        level integer,
        positions jsonb NOT NULL DEFAULT '[]',
        metadata jsonb NOT NULL DEFAULT '{}',
        PRIMARY KEY (file_id, generation, id)
      )`);
    await q.query(`CREATE INDEX nodes_tree_idx ON nodes (file_id, generation, parent_id, ordinal)`);

    await q.query(`
      CREATE TABLE ontologies (
        file_id uuid NOT NULL REFERENCES files (id) ON DELETE CASCADE,
        concept_id uuid NOT NULL,
        ordinal integer NOT NULL,
        name text NOT NULL,
        metas jsonb,
        PRIMARY KEY (file_id, concept_id)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE ontologies`);
    await q.query(`DROP TABLE nodes`);
    await q.query(`DROP TABLE collection_files`);
    await q.query(`DROP TABLE collections`);
    await q.query(`DROP TABLE files`);
  }
}
