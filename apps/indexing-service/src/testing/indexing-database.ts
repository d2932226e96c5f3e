import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { createDataSource, initializeDataSource } from '@docintel/persistence';
import { startTestInfrastructure, type TestInfrastructure } from '@docintel/testing';
import { CollectionEntity } from '../collections/collection.entity';
import type { NewIndexedFile } from '../files/files.repository';
import { IndexedFileEntity } from '../indexation/indexed-file.entity';
import { migrations } from '../migrations';

export interface IndexingDatabase {
  infra: TestInfrastructure;
  /** The indexing schema, migrated, as the service's entities see it. */
  ds: DataSource;
  close(): Promise<void>;
}

/** A repository spec's own database (named by `name`), with the indexing schema migrated. */
export async function startIndexingDatabase(name: string, poolSize: number): Promise<IndexingDatabase> {
  const infra = await startTestInfrastructure(name);
  const opts = { url: infra.databaseUrl, schema: 'indexing', entities: [IndexedFileEntity, CollectionEntity], migrations, poolSize };
  const ds = await initializeDataSource(createDataSource(opts), opts).catch(async (err: unknown) => {
    await infra.teardown();
    throw err;
  });
  return {
    infra,
    ds,
    close: async () => {
      await ds.destroy();
      await infra.teardown();
    },
  };
}

/** A provider item to index: a 10-byte PDF of Local storage, named by its key unless told. */
export function indexedFileDraft(overrides: Partial<NewIndexedFile> = {}): NewIndexedFile {
  const key = overrides.key ?? `${randomUUID()}.pdf`;
  return {
    providerId: randomUUID(),
    providerName: 'Local storage',
    key,
    name: key,
    extension: 'pdf',
    size: 10,
    mediaType: 'application/pdf',
    owner: { id: randomUUID(), email: 'a@example.com', firstName: '', lastName: '', avatarUrl: '' },
    ...overrides,
  };
}
