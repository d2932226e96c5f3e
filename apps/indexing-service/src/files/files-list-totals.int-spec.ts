import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { toPage } from '@docintel/contracts';
import { CollectionsRepository } from '../collections/collections.repository';
import { startIndexingDatabase, type IndexingDatabase } from '../testing/indexing-database';
import { FilesRepository, type FileListQuery, type FileScope, type NewIndexedFile } from './files.repository';
import { indexedFilePageJson, toIndexedFileDto } from './indexed-file.mapper';

let db: IndexingDatabase;
let ds: DataSource;
let files: FilesRepository;
let collections: CollectionsRepository;

beforeAll(async () => {
  db = await startIndexingDatabase('idxtotals', 30);
  ds = db.ds;
  files = new FilesRepository(ds);
  collections = new CollectionsRepository(ds);
});
afterAll(async () => {
  await db?.close();
});

const owner = { id: randomUUID(), email: 'alice@example.com', firstName: 'Alice', lastName: 'Martin', avatarUrl: '' };

function itemDraft(providerId: string, key: string): NewIndexedFile {
  const name = key.slice(key.lastIndexOf('/') + 1);
  return { providerId, providerName: 'Local storage', key, name, extension: 'txt', size: 10, mediaType: 'text/plain', owner };
}

/** What the listing says, page by page, against what is really there. */
async function expectTotals(ns: string, scope: FileScope, q?: string): Promise<number> {
  const where = 'providerId' in scope ? `f.provider_id = $2` : `f.id IN (SELECT file_id FROM collection_files WHERE collection_id = $2)`;
  const params: unknown[] = [ns, 'providerId' in scope ? scope.providerId : scope.collectionId];
  if (q) params.push(`%${q}%`);
  const [{ n }] = (await ds.query(
    `SELECT count(*)::int AS n FROM files f WHERE f.namespace_id = $1 AND ${where}${q ? ' AND f.name ILIKE $3' : ''}`,
    params,
  )) as Array<{ n: number }>;
  const query: FileListQuery = { page: 0, pageSize: 7, sortBy: 'name', sortOrder: 'asc', q };
  const first = await files.list(ns, scope, query);
  expect(first.total).toBe(n);
  expect(first.rows).toHaveLength(Math.min(7, n));
  // Past the end there is no row to carry the total: it is still exact.
  const beyond = await files.list(ns, scope, { ...query, page: Math.ceil(n / 7) + 1 });
  expect(beyond).toEqual({ rows: [], total: n });
  // The last page holds the remainder, so paging visits every file once.
  if (n) {
    const last = await files.list(ns, scope, { ...query, page: Math.ceil(n / 7) - 1 });
    expect(last.total).toBe(n);
    expect(last.rows).toHaveLength(n - 7 * (Math.ceil(n / 7) - 1));
  }
  return n;
}

describe('FilesRepository.list totals', () => {
  it('stay exact for a provider through creates, concurrent creates of the same and of new items, bulk inserts and deletes', async () => {
    const ns = randomUUID();
    const provider = randomUUID();
    const scope = { providerId: provider };
    expect(await expectTotals(ns, scope)).toBe(0);

    for (let i = 0; i < 5; i++) await files.createOrGet(ns, itemDraft(provider, `a/report-${i}.txt`));
    expect(await expectTotals(ns, scope)).toBe(5);

    // 40 concurrent creators: 20 distinct new items, each asked for twice; plus the same items in another namespace and provider.
    const keys = Array.from({ length: 20 }, (_, i) => `b/memo-${i}.txt`);
    await Promise.all([
      ...keys.flatMap((k) => [files.createOrGet(ns, itemDraft(provider, k)), files.createOrGet(ns, itemDraft(provider, k))]),
      ...keys.map((k) => files.createOrGet(randomUUID(), itemDraft(provider, k))),
      ...keys.map((k) => files.createOrGet(ns, itemDraft(randomUUID(), k))),
    ]);
    expect(await expectTotals(ns, scope)).toBe(25);
    expect(await expectTotals(ns, scope, 'memo')).toBe(20);
    expect(await expectTotals(ns, scope, 'REPORT-3')).toBe(1);

    // One statement inserting many rows, as a bulk load would.
    await ds.query(
      `INSERT INTO files (id, namespace_id, provider_id, key, name, extension, provider_name, owner_id, policy_id, created_time, requested_time)
       SELECT gen_random_uuid(), $1, $2, 'c/bulk-' || i || '.txt', 'bulk-' || i || '.txt', 'txt', 'Local storage', $3, gen_random_uuid(), 1, 1
         FROM generate_series(1, 30) AS i`,
      [ns, provider, owner.id],
    );
    expect(await expectTotals(ns, scope)).toBe(55);

    const { rows } = await files.list(ns, scope, { page: 0, pageSize: 3, sortBy: 'name', sortOrder: 'desc' });
    expect(rows.map((r) => r.name)).toEqual(['report-4.txt', 'report-3.txt', 'report-2.txt']);
    await Promise.all(rows.map((r) => files.delete(ns, r.id)));
    expect(await files.delete(ns, rows[0].id)).toBe(false);
    expect(await expectTotals(ns, scope)).toBe(52);

    await ds.query(`DELETE FROM files WHERE namespace_id = $1 AND provider_id = $2 AND name LIKE 'bulk-%'`, [ns, provider]);
    expect(await expectTotals(ns, scope)).toBe(22);
    expect(await expectTotals(ns, scope, 'bulk')).toBe(0);
    expect(await expectTotals(ns, scope, 'report')).toBe(2);
  });

  it('stay exact for a collection through adds, removes, concurrent adds, file deletes and the collection delete', async () => {
    const ns = randomUUID();
    const provider = randomUUID();
    const made = await Promise.all(
      Array.from({ length: 30 }, (_, i) => files.createOrGet(ns, itemDraft(provider, `d/${i % 2 ? 'draft' : 'final'}-${i}.txt`))),
    );
    const ids = made.map((m) => m.file.id);
    const { collection } = await collections.create(ns, { name: 'reading', description: null, icon: null, owner });
    const { collection: other } = await collections.create(ns, { name: 'other', description: null, icon: null, owner });
    const scope = { collectionId: collection.id };
    expect(await expectTotals(ns, scope)).toBe(0);

    // Every file added twice, concurrently: the second add of each changes nothing.
    await Promise.all([...ids, ...ids].map((id) => collections.addFile(ns, collection.id, id)));
    await Promise.all(ids.slice(0, 4).map((id) => collections.addFile(ns, other.id, id)));
    expect(await expectTotals(ns, scope)).toBe(30);
    expect(await expectTotals(ns, scope, 'draft')).toBe(15);
    expect(await expectTotals(ns, { collectionId: other.id })).toBe(4);

    await Promise.all(ids.slice(0, 6).map((id) => collections.removeFile(ns, collection.id, id)));
    expect(await collections.removeFile(ns, collection.id, ids[0])).toBe('unchanged');
    expect(await expectTotals(ns, scope)).toBe(24);

    // Deleting files removes their links (cascade): from this collection and the other.
    await Promise.all(ids.slice(3, 10).map((id) => files.delete(ns, id)));
    expect(await expectTotals(ns, scope)).toBe(20);
    expect(await expectTotals(ns, { collectionId: other.id })).toBe(3);
    expect(await expectTotals(ns, scope, 'final')).toBe(10);
    expect(await expectTotals(ns, { providerId: provider })).toBe(23);

    // A deleted collection lists nothing; the remaining one is untouched.
    expect(await collections.deleteOwned(ns, other.id, owner.id)).toBe('deleted');
    expect(await files.list(ns, { collectionId: other.id }, { page: 0, pageSize: 5, sortBy: 'name', sortOrder: 'asc' })).toEqual({
      rows: [],
      total: 0,
    });
    expect(await expectTotals(ns, scope)).toBe(20);
  });

  it('are per namespace: a provider shared by two namespaces counts each apart', async () => {
    const provider = randomUUID();
    const [a, b] = [randomUUID(), randomUUID()];
    for (let i = 0; i < 3; i++) await files.createOrGet(a, itemDraft(provider, `e/${i}.txt`));
    await files.createOrGet(b, itemDraft(provider, 'e/0.txt'));
    expect(await expectTotals(a, { providerId: provider })).toBe(3);
    expect(await expectTotals(b, { providerId: provider })).toBe(1);
  });
});

describe('FilesRepository.listProviderPage', () => {
  it('reads the page list() reads, which indexedFilePageJson sends as the DTOs of those files, for every sort', async () => {
    const ns = randomUUID();
    const provider = randomUUID();
    const made = [];
    for (const [i, key] of ['b/Charlie.pdf', 'a/alpha.txt', 'c/bravo.docx', 'a/delta.csv', 'd/Écho "x".md'].entries()) {
      made.push((await files.createOrGet(ns, { ...itemDraft(provider, key), size: i % 2 ? null : 100 * i })).file);
    }
    await ds.query(
      `UPDATE files SET additional_info = $2::jsonb, title = 'Alpha', status = 'SUCCESS', indexed = true, checksum = 'abc' WHERE id = $1`,
      [made[1].id, JSON.stringify({ passages: { status: 'SUCCESS', count: 3, ratio: 0.5, note: 'a "q"' } })],
    );
    for (const sortBy of ['name', 'path', 'createdTime', 'size'] as const) {
      for (const sortOrder of ['asc', 'desc'] as const) {
        for (const page of [0, 1, 2]) {
          const query = { page, pageSize: 2, sortBy, sortOrder };
          const entities = await files.list(ns, { providerId: provider }, query);
          const listed = await files.listProviderPage(ns, provider, query);
          expect(listed.total).toBe(5);
          const json = JSON.parse(indexedFilePageJson(listed.rows, listed.total, page, 2).toString('utf8'));
          expect(json).toEqual(toPage(entities.rows.map(toIndexedFileDto), entities.total, page, 2));
        }
      }
    }
    // list() builds its entities from the page rows as TypeORM would.
    const { rows } = await files.list(ns, { providerId: provider }, { page: 0, pageSize: 10, sortBy: 'name', sortOrder: 'asc' });
    for (const row of rows) expect(row).toEqual(await files.findById(ns, row.id));
    expect(await files.listProviderPage(ns, provider, { page: 3, pageSize: 2, sortBy: 'name', sortOrder: 'asc' })).toEqual({
      rows: [],
      total: 5,
    });
    expect(await files.listProviderPage(randomUUID(), provider, { page: 0, pageSize: 2, sortBy: 'name', sortOrder: 'asc' })).toEqual({
      rows: [],
      total: 0,
    });
  });
});
