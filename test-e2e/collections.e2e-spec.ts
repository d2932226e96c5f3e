import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CreateCollectionRequest, IndexedFile, operations, UpdateCollectionRequest } from '@docintel/api-client';
import { REPO_ROOT, TestStack } from '@docintel/testing';
import { clientFor, ok, postItem, statusOf } from './support/client';
import { errorBody } from './support/http';
import { compareWithReference, type OpenApiDocument } from './support/openapi-compat';

type FilesQuery = NonNullable<operations['listCollectionFiles']['parameters']['query']>;

/** Every field the interface lists for a collection. */
const COLLECTION_FIELDS = [
  'id',
  'createdTime',
  'owner',
  'policy',
  'name',
  'description',
  'icon',
  'ownerFirstName',
  'ownerLastName',
  'ownerEmail',
  'ownerAvatarUrl',
  'filesCount',
  'derivedFromCollectionId',
  'derivedFromCollectionName',
  'derivedFromViewId',
  'derivedFromViewName',
  'chained',
  'derivedToCollectionId',
  'derivedToCollectionName',
];

describe('Collections API', () => {
  let stack: TestStack;
  let alice: string;
  let bob: string;
  let eve: string;
  let providerId: string;

  /** A raw request, for the malformed ones and the error-shape checks (errorBody). */
  const call = (method: string, path: string, token: string | undefined, body?: unknown) =>
    stack.request(path, {
      method,
      token,
      ...(body !== undefined ? { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } } : {}),
    });
  /** The typed client acting as the token's user. */
  const as = (token: string) => clientFor(stack, token);
  const path = (id: string) => ({ params: { path: { id } } });

  const createCollection = async (body: CreateCollectionRequest, token = alice) =>
    ok(as(token).POST('/api/core/collections', { body }), 201);
  const getCollection = async (id: string, token = alice) => ok(as(token).GET('/api/core/collections/{id}', path(id)));
  const filesOf = async (id: string, query: FilesQuery = {}, token = alice) =>
    ok(as(token).GET('/api/core/collections/{id}/files', { params: { path: { id }, query } }));
  const addFile = async (id: string, fileId: string, token = alice) =>
    ok(as(token).POST('/api/core/collections/{id}/files', { ...path(id), body: { fileId } }), 201);

  /** A provider item uploaded through the items API and made an IndexedFile of the caller's namespace. */
  async function indexedFile(key: string, token = alice, bytes = 10): Promise<IndexedFile> {
    const upload = await postItem(as(token), { providerId, key, body: 'x'.repeat(bytes) });
    expect(upload.response.status).toBe(201);
    return ok(as(token).POST('/api/core/files', { body: { providerId, key } }), 201);
  }

  beforeAll(async () => {
    stack = await TestStack.start({ label: 'collections', apps: ['storage-service', 'indexing-service', 'api-gateway'] });
    alice = await stack.token('acme', 'alice@acme.test');
    bob = await stack.token('acme', 'bob@acme.test');
    eve = await stack.token('globex', 'eve@globex.test');
    const providers = await ok(as(alice).GET('/api/core/providers'));
    providerId = providers.data[0].id.id;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('creates a collection owned by the caller, every field present', async () => {
    const c = await createCollection({ name: 'Oncology trials', description: 'Phase 3', icon: 'flask' });
    expect(Object.keys(c).sort()).toEqual([...COLLECTION_FIELDS].sort());
    expect(c).toMatchObject({
      id: { id: expect.stringMatching(/^[0-9a-f-]{36}$/), entityType: 'COLLECTION' },
      policy: { entityType: 'POLICY' },
      name: 'Oncology trials',
      description: 'Phase 3',
      icon: 'flask',
      ownerEmail: 'alice@acme.test',
      filesCount: 0,
      chained: false,
      derivedFromCollectionId: null,
    });
    expect(await getCollection(c.id.id, bob)).toEqual(c);
  });

  it('answers 400 naming the field for a missing or empty name', async () => {
    const missing = await errorBody(await call('POST', '/api/core/collections', alice, { description: 'x' }), 400, 'VALIDATION_FAILED');
    expect(missing.details.map((d) => d.field)).toContain('name');
    const empty = await errorBody(await call('POST', '/api/core/collections', alice, { name: '' }), 400, 'VALIDATION_FAILED');
    expect(empty.details).toEqual([{ field: 'name', problem: 'must not be empty' }]);
  });

  it('lists the namespace collections with q, paging (20 by default) and sorting', async () => {
    const ns = await stack.token('listing', 'lee@listing.test');
    for (let i = 1; i <= 23; i++) await createCollection({ name: `Batch ${String(i).padStart(2, '0')}` }, ns);
    await createCollection({ name: 'Zebra study' }, ns);
    const first = await ok(as(ns).GET('/api/core/collections'));
    expect(first).toMatchObject({ totalElements: 24, totalPages: 2, hasNext: true });
    expect(first.data).toHaveLength(20);
    expect(first.data[0].name).toBe('Batch 01');
    const desc = await ok(as(ns).GET('/api/core/collections', { params: { query: { sortBy: 'name', sortOrder: 'DESC', pageSize: 2 } } }));
    expect(desc.data.map((c) => c.name)).toEqual(['Zebra study', 'Batch 23']);
    const q = await ok(as(ns).GET('/api/core/collections', { params: { query: { q: 'batch 2', page: 0, pageSize: 10 } } }));
    expect(q.data.map((c) => c.name)).toEqual(['Batch 20', 'Batch 21', 'Batch 22', 'Batch 23']);
    const bad = await errorBody(await call('GET', '/api/core/collections?sortBy=size', ns), 400, 'VALIDATION_FAILED');
    expect(bad.details).toEqual([{ field: 'sortBy', problem: 'must be one of name, createdTime, filesCount' }]);
    const theirs = await ok(as(eve).GET('/api/core/collections'));
    expect(theirs.data.map((c) => c.name)).not.toContain('Zebra study');
  });

  it('changes only the fields given in a PATCH', async () => {
    const c = await createCollection({ name: 'Draft', description: 'first', icon: 'pen' });
    // Only the owner may change it; the other users of the namespace get 403.
    await errorBody(await call('PATCH', `/api/core/collections/${c.id.id}`, bob, { name: 'Final' }), 403, 'FORBIDDEN');
    const update = (body: UpdateCollectionRequest) => ok(as(alice).PATCH('/api/core/collections/{id}', { ...path(c.id.id), body }));
    const renamed = await update({ name: 'Final' });
    expect(renamed).toMatchObject({ name: 'Final', description: 'first', icon: 'pen', owner: c.owner });
    const described = await update({ description: 'second', icon: null });
    expect(described).toMatchObject({ name: 'Final', description: 'second', icon: null });
    expect(await update({})).toEqual(described);
    const bad = await errorBody(await call('PATCH', `/api/core/collections/${c.id.id}`, alice, { name: '' }), 400, 'VALIDATION_FAILED');
    expect(bad.details).toEqual([{ field: 'name', problem: 'must not be empty' }]);
    await errorBody(await call('PATCH', `/api/core/collections/${c.id.id}`, eve, { name: 'Mine now' }), 404, 'NOT_FOUND');
    expect((await getCollection(c.id.id)).name).toBe('Final');
  });

  it('holds several files, the same file in several collections, with filesCount always right', async () => {
    const a = await createCollection({ name: 'A' });
    const b = await createCollection({ name: 'B' });
    const f1 = await indexedFile('coll/alpha.pdf', alice, 30);
    const f2 = await indexedFile('coll/beta.txt', alice, 10);
    const f3 = await indexedFile('coll/gamma.csv', alice, 20);

    for (const f of [f1, f2, f3]) {
      const added = await addFile(a.id.id, f.id.id);
      expect(added).toEqual(f);
    }
    // Adding again is idempotent, and another user of the namespace may add too.
    await addFile(a.id.id, f1.id.id, bob);
    await addFile(b.id.id, f1.id.id, bob);
    expect((await getCollection(a.id.id)).filesCount).toBe(3);
    expect((await getCollection(b.id.id)).filesCount).toBe(1);

    const bySize = await filesOf(a.id.id, { sortBy: 'size', sortOrder: 'desc' });
    expect(bySize).toMatchObject({ totalElements: 3, totalPages: 1, hasNext: false });
    expect(bySize.data.map((f) => f.name)).toEqual(['alpha.pdf', 'gamma.csv', 'beta.txt']);
    const paged = await filesOf(a.id.id, { sortBy: 'name', page: 1, pageSize: 2 });
    expect(paged).toMatchObject({ totalElements: 3, totalPages: 2, hasNext: false });
    expect(paged.data.map((f) => f.name)).toEqual(['gamma.csv']);
    expect((await filesOf(a.id.id, { q: 'ET' })).data.map((f) => f.name)).toEqual(['beta.txt']);

    const removeF1 = { params: { path: { id: a.id.id, fileId: f1.id.id } } };
    const removed = await as(alice).DELETE('/api/core/collections/{id}/files/{fileId}', removeF1);
    expect(removed.response.status).toBe(204);
    expect(await statusOf(as(alice).DELETE('/api/core/collections/{id}/files/{fileId}', removeF1))).toBe(204);
    expect((await getCollection(a.id.id)).filesCount).toBe(2);
    expect((await getCollection(b.id.id)).filesCount).toBe(1);
    expect(await statusOf(as(alice).GET('/api/core/files/{id}', path(f1.id.id)))).toBe(200);

    // Deleting a file takes it out of every collection.
    expect(await statusOf(as(alice).DELETE('/api/core/files/{id}', path(f2.id.id)))).toBe(204);
    expect((await getCollection(a.id.id)).filesCount).toBe(1);
    expect((await filesOf(a.id.id)).data.map((f) => f.name)).toEqual(['gamma.csv']);
  });

  it('answers 404 for unknown collections and files, and for those of another namespace', async () => {
    const mine = await createCollection({ name: 'Mine' });
    const file = await indexedFile('coll/own.pdf');
    const theirFile = await indexedFile('coll/theirs.pdf', eve);
    const unknown = '3f0e7a43-6c8e-4a4e-9d1e-9f4b0d2f7c11';

    const added = await errorBody(
      await call('POST', `/api/core/collections/${mine.id.id}/files`, alice, { fileId: unknown }),
      404,
      'NOT_FOUND',
    );
    expect(added.message).toBe(`IndexedFile ${unknown} was not found`);
    await errorBody(await call('POST', `/api/core/collections/${mine.id.id}/files`, alice, { fileId: theirFile.id.id }), 404, 'NOT_FOUND');
    await errorBody(await call('POST', `/api/core/collections/${unknown}/files`, alice, { fileId: file.id.id }), 404, 'NOT_FOUND');
    const missingField = await errorBody(
      await call('POST', `/api/core/collections/${mine.id.id}/files`, alice, {}),
      400,
      'VALIDATION_FAILED',
    );
    expect(new Set(missingField.details.map((d) => d.field))).toEqual(new Set(['fileId']));
    await errorBody(await call('DELETE', `/api/core/collections/${mine.id.id}/files/${unknown}`, alice), 404, 'NOT_FOUND');

    for (const [method, path, body] of [
      ['GET', `/api/core/collections/${mine.id.id}`],
      ['PATCH', `/api/core/collections/${mine.id.id}`, { name: 'x' }],
      ['DELETE', `/api/core/collections/${mine.id.id}`],
      ['GET', `/api/core/collections/${mine.id.id}/files`],
      ['POST', `/api/core/collections/${mine.id.id}/files`, { fileId: theirFile.id.id }],
      ['DELETE', `/api/core/collections/${mine.id.id}/files/${file.id.id}`],
    ] as Array<[string, string, unknown?]>) {
      const err = await errorBody(await call(method, path, eve, body), 404, 'NOT_FOUND');
      expect(err.message).toBe(`Collection ${mine.id.id} was not found`);
    }
    await errorBody(await call('GET', '/api/core/collections/not-a-uuid', alice), 400, 'VALIDATION_FAILED');
    expect((await getCollection(mine.id.id)).name).toBe('Mine');
  });

  it('lets only the owner delete a collection (403 for the others of the namespace); its files stay', async () => {
    const c = await createCollection({ name: 'Owned' });
    const f = await indexedFile('coll/kept.pdf');
    await addFile(c.id.id, f.id.id);

    const forbidden = await errorBody(await call('DELETE', `/api/core/collections/${c.id.id}`, bob), 403, 'FORBIDDEN');
    expect(forbidden.message).toContain('Only the owner');
    expect((await getCollection(c.id.id, bob)).filesCount).toBe(1);

    const { response } = await as(alice).DELETE('/api/core/collections/{id}', path(c.id.id));
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    await errorBody(await call('GET', `/api/core/collections/${c.id.id}`, alice), 404, 'NOT_FOUND');
    await errorBody(await call('DELETE', `/api/core/collections/${c.id.id}`, alice), 404, 'NOT_FOUND');
    expect(await statusOf(as(alice).GET('/api/core/files/{id}', path(f.id.id)))).toBe(200);
  });

  it('needs a token', async () => {
    await errorBody(await call('GET', '/api/core/collections', undefined), 401, 'UNAUTHENTICATED');
  });

  it('documents the Collections operations as the reference does', async () => {
    const ours = (await (await stack.request('/api/docs-json')).json()) as OpenApiDocument;
    const reference = JSON.parse(
      readFileSync(join(REPO_ROOT, '..', 'shared', 'spec', 'reference-openapi.json'), 'utf8'),
    ) as OpenApiDocument;
    const ids = [
      'listCollections',
      'createCollection',
      'getCollection',
      'updateCollection',
      'deleteCollection',
      'listCollectionFiles',
      'addFileToCollection',
      'removeFileFromCollection',
    ];
    const { matched, problems } = compareWithReference(ours, reference);
    expect(matched.map((m) => m.operationId)).toEqual(expect.arrayContaining(ids));
    expect(problems.filter((p) => ids.some((id) => p.includes(`(${id})`)))).toEqual([]);
  });
});
