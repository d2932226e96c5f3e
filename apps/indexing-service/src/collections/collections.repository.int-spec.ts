import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { FilesRepository } from '../files/files.repository';
import { startIndexingDatabase, type IndexingDatabase } from '../testing/indexing-database';
import { CollectionsRepository, type CollectionPatch, type NewCollection } from './collections.repository';

let db: IndexingDatabase;
let ds: DataSource;
let collections: CollectionsRepository;
let files: FilesRepository;

beforeAll(async () => {
  db = await startIndexingDatabase('idxcoll', 20);
  ds = db.ds;
  collections = new CollectionsRepository(ds);
  files = new FilesRepository(ds);
});
afterAll(async () => {
  await db?.close();
});

const alice = { id: randomUUID(), email: 'alice@example.com', firstName: '', lastName: '', avatarUrl: '' };
const bob = { id: randomUUID(), email: 'bob@example.com', firstName: '', lastName: '', avatarUrl: '' };

const collectionDraft = (overrides: Partial<NewCollection> = {}): NewCollection => ({
  name: `collection ${randomUUID().slice(0, 8)}`,
  description: null,
  icon: null,
  owner: alice,
  ...overrides,
});

async function newFile(ns: string, name = `${randomUUID()}.pdf`): Promise<string> {
  const { file } = await files.createOrGet(ns, {
    providerId: randomUUID(),
    providerName: 'Local storage',
    key: name,
    name,
    extension: 'pdf',
    size: 10,
    mediaType: 'application/pdf',
    owner: alice,
  });
  return file.id;
}

describe('CollectionsRepository', () => {
  it('creates a collection owned by its creator, with no files', async () => {
    const ns = randomUUID();
    const { collection, filesCount } = await collections.create(
      ns,
      collectionDraft({ name: 'Trials', description: 'phase 3', icon: 'flask' }),
    );
    expect(filesCount).toBe(0);
    expect(collection).toMatchObject({
      namespaceId: ns,
      name: 'Trials',
      description: 'phase 3',
      icon: 'flask',
      ownerId: alice.id,
      ownerEmail: alice.email,
    });
    expect(await collections.findById(ns, collection.id)).toEqual({ collection, filesCount: 0 });
  });

  it('lists with a name filter, sorting and paging', async () => {
    const ns = randomUUID();
    const made: Record<string, string> = {};
    for (const name of ['beta', 'Alpha', 'gamma', 'alphabet'])
      made[name] = (await collections.create(ns, collectionDraft({ name }))).collection.id;
    const f1 = await newFile(ns);
    const f2 = await newFile(ns);
    await collections.addFile(ns, made.gamma, f1);
    await collections.addFile(ns, made.gamma, f2);
    await collections.addFile(ns, made.beta, f1);

    const names = async (q: Parameters<CollectionsRepository['list']>[1]) =>
      (await collections.list(ns, q)).rows.map((r) => r.collection.name);
    expect(await names({ page: 0, pageSize: 20, sortBy: 'name', sortOrder: 'asc' })).toEqual(['Alpha', 'alphabet', 'beta', 'gamma']);
    expect(await names({ page: 0, pageSize: 20, sortBy: 'name', sortOrder: 'asc', q: 'ALPH' })).toEqual(['Alpha', 'alphabet']);
    expect(await names({ page: 0, pageSize: 20, sortBy: 'name', sortOrder: 'asc', q: '%' })).toEqual([]);
    expect((await names({ page: 0, pageSize: 20, sortBy: 'filesCount', sortOrder: 'desc' })).slice(0, 2)).toEqual(['gamma', 'beta']);
    const page1 = await collections.list(ns, { page: 1, pageSize: 3, sortBy: 'createdTime', sortOrder: 'asc' });
    expect(page1.total).toBe(4);
    expect(page1.rows).toHaveLength(1);
    expect((await collections.list(randomUUID(), { page: 0, pageSize: 20, sortBy: 'name', sortOrder: 'asc' })).total).toBe(0);
  });

  it('changes only the fields given; null clears description and icon', async () => {
    const ns = randomUUID();
    const { collection } = await collections.create(ns, collectionDraft({ name: 'n', description: 'd', icon: 'i' }));
    const update = async (namespace: string, id: string, patch: CollectionPatch) => {
      const result = await collections.updateOwned(namespace, id, alice.id, patch);
      return result.outcome === 'updated' ? result.collection : null;
    };
    expect((await update(ns, collection.id, { description: 'd2' }))?.collection).toMatchObject({
      name: 'n',
      description: 'd2',
      icon: 'i',
    });
    expect((await update(ns, collection.id, { name: 'n2' }))?.collection).toMatchObject({
      name: 'n2',
      description: 'd2',
      icon: 'i',
    });
    expect((await update(ns, collection.id, { icon: null }))?.collection).toMatchObject({
      name: 'n2',
      description: 'd2',
      icon: null,
    });
    expect((await update(ns, collection.id, {}))?.collection).toMatchObject({ name: 'n2' });
    expect(await update(randomUUID(), collection.id, { name: 'hijack' })).toBeNull();
    expect(await update(ns, randomUUID(), {})).toBeNull();
  });

  it('lets only the owner update; another user of the namespace changes nothing', async () => {
    const ns = randomUUID();
    const { collection } = await collections.create(ns, collectionDraft({ name: 'mine', description: 'd', icon: 'i' }));
    expect(await collections.updateOwned(ns, collection.id, bob.id, { name: 'hijack', icon: null })).toEqual({ outcome: 'not-owner' });
    expect(await collections.updateOwned(ns, collection.id, bob.id, {})).toEqual({ outcome: 'not-owner' });
    expect((await collections.findById(ns, collection.id))?.collection).toMatchObject({ name: 'mine', description: 'd', icon: 'i' });
    // Another namespace does not learn that the collection exists, owner or not.
    expect(await collections.updateOwned(randomUUID(), collection.id, alice.id, { name: 'x' })).toEqual({ outcome: 'missing' });
    expect(await collections.updateOwned(ns, 'not-a-uuid', alice.id, { name: 'x' })).toEqual({ outcome: 'missing' });
    const mine = await collections.updateOwned(ns, collection.id, alice.id, { name: 'still mine' });
    expect(mine).toMatchObject({ outcome: 'updated', collection: { collection: { name: 'still mine', ownerId: alice.id } } });
  });

  it('decides concurrent updates by the owner and others on the locked row', async () => {
    const ns = randomUUID();
    const { collection } = await collections.create(ns, collectionDraft({ name: 'race' }));
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        collections.updateOwned(ns, collection.id, i % 2 ? bob.id : alice.id, { description: `by ${i % 2 ? 'bob' : 'alice'} ${i}` }),
      ),
    );
    expect(outcomes.filter((o) => o.outcome === 'not-owner')).toHaveLength(5);
    expect(outcomes.filter((o) => o.outcome === 'updated')).toHaveLength(5);
    expect((await collections.findById(ns, collection.id))?.collection.description).toMatch(/^by alice \d$/);
  });

  it('lets only the owner delete; the files stay', async () => {
    const ns = randomUUID();
    const { collection } = await collections.create(ns, collectionDraft());
    const fileId = await newFile(ns);
    await collections.addFile(ns, collection.id, fileId);
    expect(await collections.deleteOwned(ns, collection.id, bob.id)).toBe('not-owner');
    expect(await collections.deleteOwned(randomUUID(), collection.id, alice.id)).toBe('missing');
    expect(await collections.deleteOwned(ns, collection.id, alice.id)).toBe('deleted');
    expect(await collections.deleteOwned(ns, collection.id, alice.id)).toBe('missing');
    expect(await files.findById(ns, fileId)).not.toBeNull();
  });

  it('links files idempotently, counts them right, and puts one file in several collections', async () => {
    const ns = randomUUID();
    const a = (await collections.create(ns, collectionDraft())).collection.id;
    const b = (await collections.create(ns, collectionDraft())).collection.id;
    const f1 = await newFile(ns);
    const f2 = await newFile(ns);
    expect(await collections.addFile(ns, a, f1)).toBe('linked');
    expect(await collections.addFile(ns, a, f1)).toBe('unchanged');
    expect(await collections.addFile(ns, a, f2)).toBe('linked');
    expect(await collections.addFile(ns, b, f1)).toBe('linked');
    expect((await collections.findById(ns, a))?.filesCount).toBe(2);
    expect((await collections.findById(ns, b))?.filesCount).toBe(1);

    const inA = await files.list(ns, { collectionId: a }, { page: 0, pageSize: 10, sortBy: 'name', sortOrder: 'asc' });
    expect(new Set(inA.rows.map((f) => f.id))).toEqual(new Set([f1, f2]));
    expect(inA.total).toBe(2);

    expect(await collections.removeFile(ns, a, f1)).toBe('unlinked');
    expect(await collections.removeFile(ns, a, f1)).toBe('unchanged');
    expect((await collections.findById(ns, a))?.filesCount).toBe(1);
    expect((await collections.findById(ns, b))?.filesCount).toBe(1);
    expect(await files.findById(ns, f1)).not.toBeNull();
  });

  it('counts concurrent additions of the same file once', async () => {
    const ns = randomUUID();
    const c = (await collections.create(ns, collectionDraft())).collection.id;
    const f = await newFile(ns);
    const outcomes = await Promise.all(Array.from({ length: 12 }, () => collections.addFile(ns, c, f)));
    expect(outcomes.filter((o) => o === 'linked')).toHaveLength(1);
    expect((await collections.findById(ns, c))?.filesCount).toBe(1);
  });

  it('never links across namespaces, and says which side is missing', async () => {
    const ns = randomUUID();
    const other = randomUUID();
    const mine = (await collections.create(ns, collectionDraft())).collection.id;
    const theirs = (await collections.create(other, collectionDraft())).collection.id;
    const myFile = await newFile(ns);
    const theirFile = await newFile(other);
    expect(await collections.addFile(ns, mine, theirFile)).toBe('no-file');
    expect(await collections.addFile(ns, theirs, myFile)).toBe('no-collection');
    expect(await collections.addFile(ns, mine, 'nope')).toBe('no-file');
    expect(await collections.removeFile(ns, theirs, myFile)).toBe('no-collection');
    expect(await collections.removeFile(ns, mine, theirFile)).toBe('no-file');
    expect((await collections.findById(ns, mine))?.filesCount).toBe(0);
    expect(await collections.findById(other, mine)).toBeNull();
  });
});
