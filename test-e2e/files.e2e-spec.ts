import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IndexedFile as ApiIndexedFile, operations } from '@docintel/api-client';
import { REPO_ROOT, TestStack } from '@docintel/testing';
import { clientFor, ok, postItem, statusOf } from './support/client';
import { errorBody } from './support/http';
import { compareWithReference, type OpenApiDocument } from './support/openapi-compat';

const CORPUS = join(REPO_ROOT, '..', 'shared', 'corpus');
const SUPPORTED = 'pdf, txt, html, htm, doc, docx, csv, xlsx, xls, ods, jpg, jpeg, png, webp, bmp, tiff, json, xml';

/**
 * An IndexedFile as the API sends it: besides the properties of the OpenAPI document, `key` and
 * `lastMergeJob`, which the document mentions in its description but leaves out of its properties.
 */
type IndexedFile = ApiIndexedFile & { key: string; lastMergeJob: null };
type FilesQuery = operations['listFiles']['parameters']['query'];

/** Every field the interface lists for an IndexedFile. */
const FILE_FIELDS = [
  'id',
  'createdTime',
  'owner',
  'policy',
  'providerId',
  'name',
  'path',
  'key',
  'size',
  'checksum',
  'mediaType',
  'extension',
  'indexed',
  'matchComputed',
  'displayName',
  'dbName',
  'lastIndexationInfos',
  'ownerFirstName',
  'ownerLastName',
  'ownerEmail',
  'ownerAvatarUrl',
  'providerName',
  'additionalInfo',
  'additionalInfos',
  'description',
  'authors',
  'title',
  'lastMergeJob',
  'type',
];

describe('Files API', () => {
  let stack: TestStack;
  let alice: string;
  let bob: string;
  let eve: string;
  let providerId: string;

  /** The typed client acting as the token's user. */
  const as = (token: string) => clientFor(stack, token);
  const idPath = (id: string) => ({ params: { path: { id } } });

  /** Uploads a file through the provider items API (multipart): a corpus document, or the given content. */
  const putItem = async (key: string, source: { corpus?: string; content?: string } = {}, token = alice): Promise<number> => {
    const bytes = source.corpus ? readFileSync(join(CORPUS, source.corpus)) : Buffer.from(source.content ?? `contents of ${key}\n`);
    const { response } = await postItem(as(token), { providerId, key, body: bytes });
    expect({ key, status: response.status }).toEqual({ key, status: 201 });
    return bytes.length;
  };

  /** A raw request, for the malformed ones and the error-shape checks (errorBody). */
  const call = (method: string, path: string, token: string | undefined, body?: unknown) =>
    stack.request(path, {
      method,
      token,
      ...(body !== undefined ? { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } } : {}),
    });

  const create = async (key: string, token = alice): Promise<IndexedFile> => {
    const { data, response } = await as(token).POST('/api/core/files', { body: { providerId, key } });
    expect({ key, status: response.status }).toEqual({ key, status: 201 });
    return data as IndexedFile; // with key and lastMergeJob (see IndexedFile)
  };

  const list = async (query: FilesQuery, token = alice) => {
    const { data, response } = await as(token).GET('/api/core/files', { params: { query } });
    expect(response.status).toBe(200);
    return { ...data!, data: data!.data as IndexedFile[] }; // with key and lastMergeJob (see IndexedFile)
  };

  beforeAll(async () => {
    stack = await TestStack.start({ label: 'files', apps: ['storage-service', 'indexing-service', 'api-gateway'] });
    alice = await stack.token('acme', 'alice@acme.test');
    bob = await stack.token('acme', 'bob@acme.test');
    eve = await stack.token('globex', 'eve@globex.test');
    const providers = await ok(as(alice).GET('/api/core/providers'));
    providerId = providers.data[0].id.id;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  describe('POST /files', () => {
    it('creates a PENDING IndexedFile from an existing provider item, every field filled in', async () => {
      const size = await putItem('papers/otsl.pdf', { corpus: 'pdf/docling_2305.03393v1-pg9.pdf' });
      const before = Date.now();
      const file = await create('papers/otsl.pdf');
      expect(Object.keys(file).sort()).toEqual([...FILE_FIELDS].sort());
      expect(file).toMatchObject({
        id: { id: expect.stringMatching(/^[0-9a-f-]{36}$/), entityType: 'FILE' },
        owner: { id: expect.any(String) },
        policy: { id: expect.any(String), entityType: 'POLICY' },
        providerId: { id: providerId, entityType: 'PROVIDER' },
        name: 'otsl.pdf',
        path: 'papers/otsl.pdf',
        key: 'papers/otsl.pdf',
        size,
        checksum: null,
        extension: 'pdf',
        indexed: false,
        matchComputed: false,
        displayName: 'otsl.pdf',
        dbName: 'otsl.pdf',
        lastIndexationInfos: { status: 'PENDING', errorMessage: null },
        ownerEmail: 'alice@acme.test',
        providerName: 'Local storage',
        additionalInfo: {},
        lastMergeJob: null,
        type: 'FILE',
      });
      expect(file.mediaType).toBe('application/pdf');
      expect(file.createdTime).toBeGreaterThanOrEqual(before - 1000);
    });

    it('returns the existing IndexedFile, unchanged, when the same item is created again (201 both times)', async () => {
      await putItem('again/notes.txt');
      const first = await create('again/notes.txt');
      const second = await create('again/notes.txt', bob);
      expect(second).toEqual(first);
    });

    it('creates one IndexedFile when many requests race for the same item', async () => {
      await putItem('race/table.csv', { corpus: 'csv/docling_csv-comma.csv' });
      const results = await Promise.all(Array.from({ length: 8 }, () => create('race/table.csv')));
      expect(new Set(results.map((f) => f.id.id)).size).toBe(1);
      const page = await list({ providerId, page: 0, pageSize: 100 });
      expect(page.data.filter((f) => f.key === 'race/table.csv')).toHaveLength(1);
    });

    it('answers 400 for a key ending in /, naming the field', async () => {
      const body = await errorBody(await call('POST', '/api/core/files', alice, { providerId, key: 'papers/' }), 400, 'VALIDATION_FAILED');
      expect(body.details).toEqual([{ field: 'key', problem: "must not end with '/' (it names a file)" }]);
    });

    it('answers 400 for an unsupported extension, listing the supported ones', async () => {
      await putItem('tools/setup.exe');
      const body = await errorBody(
        await call('POST', '/api/core/files', alice, { providerId, key: 'tools/setup.exe' }),
        400,
        'VALIDATION_FAILED',
      );
      expect(body.details).toEqual([{ field: 'key', problem: `has the unsupported extension .exe; supported extensions: ${SUPPORTED}` }]);
      const none = await errorBody(await call('POST', '/api/core/files', alice, { providerId, key: 'Makefile' }), 400, 'VALIDATION_FAILED');
      expect(none.details[0].problem).toContain('has no file extension; supported extensions: pdf, txt');
    });

    it('answers 400 naming each missing field', async () => {
      const body = await errorBody(await call('POST', '/api/core/files', alice, {}), 400, 'VALIDATION_FAILED');
      expect(new Set(body.details.map((d) => d.field))).toEqual(new Set(['providerId', 'key']));
    });

    it('answers 404 when the provider item or the provider does not exist', async () => {
      const missing = await errorBody(
        await call('POST', '/api/core/files', alice, { providerId, key: 'nowhere/missing.pdf' }),
        404,
        'NOT_FOUND',
      );
      expect(missing.message).toContain('nowhere/missing.pdf');
      await putItem('folder.pdf/inside.txt');
      await errorBody(await call('POST', '/api/core/files', alice, { providerId, key: 'folder.pdf' }), 404, 'NOT_FOUND');
      await errorBody(
        await call('POST', '/api/core/files', alice, { providerId: '00000000-0000-4000-8000-000000000000', key: 'papers/otsl.pdf' }),
        404,
        'NOT_FOUND',
      );
    });

    it('needs a token', async () => {
      await errorBody(await call('POST', '/api/core/files', undefined, { providerId, key: 'a.pdf' }), 401, 'UNAUTHENTICATED');
      await errorBody(await call('GET', `/api/core/files?providerId=${providerId}&page=0&pageSize=1`, undefined), 401, 'UNAUTHENTICATED');
    });
  });

  describe('reading, listing and namespaces', () => {
    let shared: IndexedFile;

    beforeAll(async () => {
      await putItem('shared/report.docx', { corpus: 'docx/docling_word_sample.docx' });
      shared = await create('shared/report.docx');
    });

    it('shows a file to every user of its namespace', async () => {
      const { data, response } = await as(bob).GET('/api/core/files/{id}', idPath(shared.id.id));
      expect(response.status).toBe(200);
      expect(data).toEqual(shared);
    });

    it('answers 404 for unknown ids and for files of another namespace, on every operation', async () => {
      await errorBody(await call('GET', '/api/core/files/3f0e7a43-6c8e-4a4e-9d1e-9f4b0d2f7c11', alice), 404, 'NOT_FOUND');
      await errorBody(await call('GET', '/api/core/files/not-a-uuid', alice), 400, 'VALIDATION_FAILED');
      const id = shared.id.id;
      const attempts: Array<[string, string]> = [
        ['GET', `/api/core/files/${id}`],
        ['DELETE', `/api/core/files/${id}`],
        ['POST', `/api/core/files/${id}/reindex`],
        ['POST', `/api/core/files/${id}/recompute-ontologies`],
        ['GET', `/api/core/files/${id}/ontologies`],
        ['GET', `/api/core/files/${id}/document`],
      ];
      for (const [method, path] of attempts) {
        const body = await errorBody(await call(method, path, eve), 404, 'NOT_FOUND');
        expect(body.message).toBe(`IndexedFile ${id} was not found`);
      }
      expect(await statusOf(as(alice).GET('/api/core/files/{id}', idPath(id)))).toBe(200);
    });

    it('lists nothing of another namespace, and a new file there is its own', async () => {
      expect((await list({ providerId, page: 0, pageSize: 100 }, eve)).totalElements).toBe(0);
      // Each namespace has its own part of the default provider: eve's item is her own upload.
      await putItem('shared/report.docx', { corpus: 'docx/docling_word_sample.docx' }, eve);
      const theirs = await create('shared/report.docx', eve);
      expect(theirs.id.id).not.toBe(shared.id.id);
      expect(theirs.ownerEmail).toBe('eve@globex.test');
      expect((await list({ providerId, page: 0, pageSize: 100 }, eve)).data.map((f) => f.id.id)).toEqual([theirs.id.id]);
    });
  });

  describe('GET /files', () => {
    const keys = ['sort/b-medium.txt', 'sort/A-large.json', 'sort/c-small.xml', 'other/d-tiny.html'];
    let ns: string;

    beforeAll(async () => {
      ns = await stack.token('sorting', 'sam@sorting.test');
      await putItem('sort/b-medium.txt', { content: 'x'.repeat(200) }, ns);
      await putItem('sort/A-large.json', { content: `"${'y'.repeat(500)}"` }, ns);
      await putItem('sort/c-small.xml', { content: '<a>z</a>' }, ns);
      await putItem('other/d-tiny.html', { content: '<p>' }, ns);
      for (const k of keys) await create(k, ns);
    });

    const names = async (sort: Pick<FilesQuery, 'sortProperty' | 'sortOrder'>) =>
      (await list({ providerId, page: 0, pageSize: 10, ...sort }, ns)).data.map((f) => f.name);

    it('sorts by name, path, createdTime and size, ASC or DESC in either case', async () => {
      expect(await names({ sortProperty: 'name', sortOrder: 'ASC' })).toEqual([
        'A-large.json',
        'b-medium.txt',
        'c-small.xml',
        'd-tiny.html',
      ]);
      expect(await names({ sortProperty: 'name', sortOrder: 'desc' })).toEqual([
        'd-tiny.html',
        'c-small.xml',
        'b-medium.txt',
        'A-large.json',
      ]);
      expect(await names({ sortProperty: 'path' })).toEqual(['d-tiny.html', 'A-large.json', 'b-medium.txt', 'c-small.xml']);
      expect(await names({ sortProperty: 'size', sortOrder: 'DESC' })).toEqual([
        'A-large.json',
        'b-medium.txt',
        'c-small.xml',
        'd-tiny.html',
      ]);
      expect(new Set(await names({ sortProperty: 'createdTime' }))).toEqual(new Set(keys.map((k) => k.split('/')[1])));
    });

    it('pages with totals and hasNext', async () => {
      const p0 = await list({ providerId, page: 0, pageSize: 3, sortProperty: 'name' }, ns);
      expect(p0).toMatchObject({ totalElements: 4, totalPages: 2, hasNext: true });
      expect(p0.data).toHaveLength(3);
      const p1 = await list({ providerId, page: 1, pageSize: 3, sortProperty: 'name' }, ns);
      expect(p1).toMatchObject({ totalElements: 4, totalPages: 2, hasNext: false });
      expect(p1.data.map((f) => f.name)).toEqual(['d-tiny.html']);
      // Past the last page: no rows, and still the total.
      expect(await list({ providerId, page: 5, pageSize: 3 }, ns)).toMatchObject({ data: [], totalElements: 4, hasNext: false });
    });

    it('requires providerId, page and pageSize and checks the sort parameters', async () => {
      const missing = await errorBody(await call('GET', '/api/core/files', ns), 400, 'VALIDATION_FAILED');
      expect(new Set(missing.details.map((d) => d.field))).toEqual(new Set(['providerId', 'page', 'pageSize']));
      const bad = await errorBody(
        await call('GET', `/api/core/files?providerId=${providerId}&page=0&pageSize=5&sortProperty=owner&sortOrder=up`, ns),
        400,
        'VALIDATION_FAILED',
      );
      expect(bad.details).toEqual(
        expect.arrayContaining([
          { field: 'sortProperty', problem: 'must be one of name, path, createdTime, size' },
          { field: 'sortOrder', problem: 'must be ASC or DESC' },
        ]),
      );
    });

    it('answers 404 for an unknown provider', async () => {
      await errorBody(
        await call('GET', '/api/core/files?providerId=00000000-0000-4000-8000-000000000000&page=0&pageSize=5', ns),
        404,
        'NOT_FOUND',
      );
    });
  });

  describe('reindex, ontologies, document, delete', () => {
    let life: IndexedFile;

    beforeAll(async () => {
      await putItem('life/cycle.pdf', { corpus: 'pdf/docling_2305.03393v1-pg9.pdf' });
      life = await create('life/cycle.pdf');
    });

    it('accepts reindex (with and without reparse) and recompute with 202 and no body; the file is PENDING', async () => {
      // parseAs stream: the body is left unread, to check that there is none.
      const requests: Array<[string, () => Promise<{ response: Response }>]> = [
        ['reindex', () => as(alice).POST('/api/core/files/{id}/reindex', { ...idPath(life.id.id), parseAs: 'stream' })],
        [
          'reindex?reparse=true',
          () =>
            as(alice).POST('/api/core/files/{id}/reindex', {
              params: { path: { id: life.id.id }, query: { reparse: true } },
              parseAs: 'stream',
            }),
        ],
        [
          'recompute-ontologies',
          () => as(alice).POST('/api/core/files/{id}/recompute-ontologies', { ...idPath(life.id.id), parseAs: 'stream' }),
        ],
      ];
      for (const [path, send] of requests) {
        const { response } = await send();
        expect({ path, status: response.status }).toEqual({ path, status: 202 });
        expect(await response.text()).toBe('');
      }
      const again = await ok(as(bob).GET('/api/core/files/{id}', idPath(life.id.id)));
      expect(again.lastIndexationInfos).toMatchObject({ status: 'PENDING', errorMessage: null });
      const bad = await errorBody(
        await call('POST', `/api/core/files/${life.id.id}/reindex?reparse=maybe`, alice),
        400,
        'VALIDATION_FAILED',
      );
      expect(bad.details).toEqual([{ field: 'reparse', problem: 'must be true or false' }]);
    });

    it('lists no ontologies before they are computed', async () => {
      const { data, response } = await as(alice).GET('/api/core/files/{id}/ontologies', idPath(life.id.id));
      expect(response.status).toBe(200);
      expect(data).toEqual([]);
    });

    it('answers 409 for the document while the file is not indexed, 400 for an unknown format', async () => {
      const body = await errorBody(await call('GET', `/api/core/files/${life.id.id}/document?format=markdown`, alice), 409, 'CONFLICT');
      expect(body.message).toContain('not indexed yet');
      const bad = await errorBody(await call('GET', `/api/core/files/${life.id.id}/document?format=docx`, alice), 400, 'VALIDATION_FAILED');
      expect(bad.details).toEqual([{ field: 'format', problem: 'must be one of json, markdown, text' }]);
      await errorBody(await call('GET', '/api/core/files/3f0e7a43-6c8e-4a4e-9d1e-9f4b0d2f7c11/document', alice), 404, 'NOT_FOUND');
    });

    it('deletes the IndexedFile with 204, keeps the provider item, and can create it anew', async () => {
      const { response } = await as(bob).DELETE('/api/core/files/{id}', idPath(life.id.id));
      expect(response.status).toBe(204);
      expect(await response.text()).toBe('');
      await errorBody(await call('GET', `/api/core/files/${life.id.id}`, alice), 404, 'NOT_FOUND');
      await errorBody(await call('DELETE', `/api/core/files/${life.id.id}`, alice), 404, 'NOT_FOUND');
      const items = await ok(
        as(alice).GET('/api/core/providers/{providerId}/items', { params: { path: { providerId }, query: { key: 'life/' } } }),
      );
      expect(items.items.map((i) => i.key)).toEqual(['life/cycle.pdf']);
      const anew = await create('life/cycle.pdf');
      expect(anew.id.id).not.toBe(life.id.id);
    });
  });

  it('documents the Files operations as the reference does', async () => {
    const ours = (await (await stack.request('/api/docs-json')).json()) as OpenApiDocument;
    const reference = JSON.parse(
      readFileSync(join(REPO_ROOT, '..', 'shared', 'spec', 'reference-openapi.json'), 'utf8'),
    ) as OpenApiDocument;
    const ids = ['listFiles', 'createFile', 'getFile', 'deleteFile', 'reindexFile', 'recomputeFileOntologies', 'getFileOntologies'];
    const { matched, problems } = compareWithReference(ours, reference);
    expect(matched.map((m) => m.operationId)).toEqual(expect.arrayContaining(ids));
    expect(problems.filter((p) => ids.some((id) => p.includes(`(${id})`)))).toEqual([]);
    expect(ours.paths['/api/core/files/{id}/document']?.get).toBeDefined();
  });
});
