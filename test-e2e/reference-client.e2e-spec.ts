import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, TestStack } from '@docintel/testing';
import { errorBody } from './support/http';

/**
 * What the reference API's public client library sends, replayed unchanged against the started
 * services: clients written for the reference must work against docintel without a change.
 *
 * - It sends `Content-Type: application/json` on every request, with an empty body when the
 *   operation has none (reindex, recompute-ontologies, the deletes).
 * - It lists the root of a provider with `key=/`.
 * - It asks for a download URL without knowing whether the key exists (the reference presigns
 *   without a lookup); using the URL is what fails.
 * - It expects the reference's success status of each operation (reference-openapi.json, COMPAT.md).
 */

interface Identifier {
  id: string;
  entityType: string;
}
interface IndexedFile {
  id: Identifier;
  name: string;
}
interface Collection {
  id: Identifier;
  name: string;
  filesCount: number;
}
interface ProviderItem {
  key: string;
  type: string;
  size: number | null;
}
interface Listing {
  items: ProviderItem[];
  nextCursor?: string;
}
interface Page<T> {
  data: T[];
  totalElements: number;
}

type ReferenceDocument = { paths: Record<string, Record<string, { responses?: Record<string, unknown> }>> };
const REFERENCE = JSON.parse(readFileSync(join(REPO_ROOT, '..', 'shared', 'spec', 'reference-openapi.json'), 'utf8')) as ReferenceDocument;

/** The success status the reference documents for an operation (its one 2xx response). */
function referenceSuccess(method: string, path: string): number {
  const op = REFERENCE.paths[`/api/core${path}`]?.[method.toLowerCase()];
  if (!op?.responses) throw new Error(`the reference has no operation ${method} /api/core${path}`);
  const ok = Object.keys(op.responses).filter((s) => /^2\d\d$/.test(s));
  if (ok.length !== 1) throw new Error(`${method} ${path}: the reference documents ${ok.join(', ')}`);
  return Number(ok[0]);
}

describe('a client written for the reference API', () => {
  let stack: TestStack;
  let token: string;
  let providerId: string;

  /** A request as the reference client makes it: JSON content type always, an empty body when there is none. */
  const client = (method: string, path: string, body?: unknown) =>
    stack.request(path, {
      method,
      token,
      headers: { 'content-type': 'application/json' },
      ...(method === 'GET' || method === 'HEAD' ? {} : { body: body === undefined ? '' : JSON.stringify(body) }),
    });

  async function json<T>(res: Response, status: number): Promise<T> {
    const text = await res.text();
    expect({ status: res.status, text }).toMatchObject({ status });
    return (text ? JSON.parse(text) : undefined) as T;
  }

  /** Multipart upload into a directory: the one call without a JSON content type. */
  async function upload(key: string, content = `contents of ${key}\n`): Promise<Response> {
    const slash = key.lastIndexOf('/');
    const form = new FormData();
    form.append('file', new Blob([content]), key.slice(slash + 1));
    return stack.request(`/api/core/providers/${providerId}/items?key=${encodeURIComponent(key.slice(0, slash + 1))}`, {
      method: 'POST',
      token,
      body: form,
    });
  }

  async function indexedFile(key: string): Promise<IndexedFile> {
    expect((await upload(key)).status).toBe(201);
    return json<IndexedFile>(await client('POST', '/api/core/files', { providerId, key }), 201);
  }

  beforeAll(async () => {
    stack = await TestStack.start({ label: 'refclient', apps: ['storage-service', 'rules-engine', 'indexing-service', 'api-gateway'] });
    token = await stack.token('refclient', 'ref@client.test');
    const providers = await json<Page<{ id: Identifier }>>(await client('GET', '/api/core/providers'), 200);
    providerId = providers.data[0].id.id;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  describe('Content-Type: application/json with an empty body on operations without one', () => {
    it('reindex and recompute-ontologies are accepted (202)', async () => {
      const file = await indexedFile('empty-body/reindex.txt');
      expect((await client('POST', `/api/core/files/${file.id.id}/reindex`)).status).toBe(202);
      expect((await client('POST', `/api/core/files/${file.id.id}/reindex?reparse=true`)).status).toBe(202);
      expect((await client('POST', `/api/core/files/${file.id.id}/recompute-ontologies`)).status).toBe(202);
    });

    it('DELETE /collections/{id}/files/{fileId}, DELETE /files/{id} and DELETE /collections/{id} are accepted (204)', async () => {
      const file = await indexedFile('empty-body/delete.txt');
      const collection = await json<Collection>(await client('POST', '/api/core/collections', { name: 'Empty bodies' }), 201);
      await json(await client('POST', `/api/core/collections/${collection.id.id}/files`, { fileId: file.id.id }), 201);

      expect((await client('DELETE', `/api/core/collections/${collection.id.id}/files/${file.id.id}`)).status).toBe(204);
      expect((await json<Collection>(await client('GET', `/api/core/collections/${collection.id.id}`), 200)).filesCount).toBe(0);
      expect((await client('DELETE', `/api/core/files/${file.id.id}`)).status).toBe(204);
      await errorBody(await client('GET', `/api/core/files/${file.id.id}`), 404, 'NOT_FOUND');
      expect((await client('DELETE', `/api/core/collections/${collection.id.id}`)).status).toBe(204);
    });

    it('a missing file or collection is still 404, not 400', async () => {
      const missing = randomUUID();
      const collection = await json<Collection>(await client('POST', '/api/core/collections', { name: 'Missing ones' }), 201);
      await errorBody(await client('POST', `/api/core/files/${missing}/reindex`), 404, 'NOT_FOUND');
      await errorBody(await client('POST', `/api/core/files/${missing}/recompute-ontologies`), 404, 'NOT_FOUND');
      await errorBody(await client('DELETE', `/api/core/files/${missing}`), 404, 'NOT_FOUND');
      await errorBody(await client('DELETE', `/api/core/collections/${collection.id.id}/files/${missing}`), 404, 'NOT_FOUND');
      await errorBody(await client('DELETE', `/api/core/collections/${missing}/files/${missing}`), 404, 'NOT_FOUND');
      await errorBody(await client('DELETE', `/api/core/collections/${missing}`), 404, 'NOT_FOUND');
    });

    it('reads answer as usual with the JSON content type and no body', async () => {
      const file = await indexedFile('empty-body/read.txt');
      expect((await json<IndexedFile>(await client('GET', `/api/core/files/${file.id.id}`), 200)).name).toBe('read.txt');
      await json(await client('GET', `/api/core/files/${file.id.id}/ontologies`), 200);
    });
  });

  it('lists the root of a provider with key=/ exactly as with an empty key', async () => {
    expect((await upload('root-listing.txt')).status).toBe(201);
    expect((await upload('root-folder/inside.txt')).status).toBe(201);
    const empty = await json<Listing>(await client('GET', `/api/core/providers/${providerId}/items?key=`), 200);
    const none = await json<Listing>(await client('GET', `/api/core/providers/${providerId}/items`), 200);
    const slash = await json<Listing>(await client('GET', `/api/core/providers/${providerId}/items?key=%2F`), 200);
    expect(empty.items.map((i) => i.key)).toEqual(expect.arrayContaining(['root-listing.txt', 'root-folder/']));
    expect(slash).toEqual(empty);
    expect(none).toEqual(empty);
    const paged = await json<Listing>(await client('GET', `/api/core/providers/${providerId}/items?key=%2F&limit=1`), 200);
    expect(paged.items).toEqual(empty.items.slice(0, 1));
  });

  it('gets a download URL for a key that does not exist (200), and using it gives 404', async () => {
    const key = `nowhere/${randomUUID()}.pdf`;
    const res = await client('GET', `/api/core/providers/${providerId}/items/download-url?key=${encodeURIComponent(key)}`);
    const body = await json<{ url: string; expiresInSeconds: number }>(res, 200);
    expect(body).toEqual({ url: expect.stringMatching(/^https?:\/\//), expiresInSeconds: 15 * 60 });
    const download = await fetch(body.url);
    expect(download.status).toBe(404);
    await download.arrayBuffer();
    // The same URL works once the file is there: it was a real presigned URL all along.
    expect((await upload(key, 'arrived later')).status).toBe(201);
    const later = await fetch(body.url);
    expect({ status: later.status, text: await later.text() }).toEqual({ status: 200, text: 'arrived later' });
  });

  it("answers the reference's success status on every main operation", async () => {
    const seen: Array<{ op: string; ours: number; reference: number }> = [];
    /** Calls through the reference client, records our status beside the reference's. */
    const check = async (method: string, template: string, path: string, body?: unknown): Promise<Response> => {
      const res = await client(method, `/api/core${path}`, body);
      seen.push({ op: `${method} ${template}`, ours: res.status, reference: referenceSuccess(method, template) });
      return res;
    };
    const items = `/providers/${providerId}/items`;

    await check('GET', '/providers', '/providers');
    await check('GET', '/providers/{id}', `/providers/${providerId}`);
    // Multipart upload (201) is sent as multipart, not through the JSON client.
    const uploaded = await upload('status/report.txt', 'status codes');
    seen.push({ op: 'POST /providers/{providerId}/items (multipart)', ours: uploaded.status, reference: 201 });
    await check('POST', '/providers/{providerId}/items', items, { key: 'status/folder/' });
    await check('GET', '/providers/{providerId}/items', `${items}?key=status%2F`);
    await check('PATCH', '/providers/{providerId}/items', `${items}?newName=renamed.txt`, { key: 'status/report.txt' });
    await check('GET', '/providers/{providerId}/items/download-url', `${items}/download-url?key=status%2Frenamed.txt`);
    const content = await check('GET', '/providers/{providerId}/items/content', `${items}/content?key=status%2Frenamed.txt`);
    expect(await content.text()).toBe('status codes');
    const uploadUrl = await check('POST', '/providers/{providerId}/items/upload-url', `${items}/upload-url`, {
      key: 'status/presigned.txt',
      mediaType: 'text/plain',
    });
    const { url } = (await uploadUrl.json()) as { url: string };
    expect((await fetch(url, { method: 'PUT', headers: { 'content-type': 'text/plain' }, body: 'presigned' })).status).toBeLessThan(300);
    await check('POST', '/providers/{providerId}/items/confirm', `${items}/confirm`, { key: 'status/presigned.txt' });

    const file = await check('POST', '/files', '/files', { providerId, key: 'status/renamed.txt' });
    const fileId = ((await file.json()) as IndexedFile).id.id;
    await check('GET', '/files', `/files?providerId=${providerId}&page=0&pageSize=20`);
    await check('GET', '/files/{id}', `/files/${fileId}`);
    await check('GET', '/files/{id}/ontologies', `/files/${fileId}/ontologies`);
    await check('POST', '/files/{id}/reindex', `/files/${fileId}/reindex`);
    await check('POST', '/files/{id}/recompute-ontologies', `/files/${fileId}/recompute-ontologies`);

    const created = await check('POST', '/collections', '/collections', { name: 'Statuses' });
    const collectionId = ((await created.json()) as Collection).id.id;
    await check('GET', '/collections', '/collections');
    await check('GET', '/collections/{id}', `/collections/${collectionId}`);
    await check('PATCH', '/collections/{id}', `/collections/${collectionId}`, { description: 'checked' });
    await check('POST', '/collections/{id}/files', `/collections/${collectionId}/files`, { fileId });
    await check('GET', '/collections/{id}/files', `/collections/${collectionId}/files`);
    await check('DELETE', '/collections/{id}/files/{fileId}', `/collections/${collectionId}/files/${fileId}`);
    await check('DELETE', '/collections/{id}', `/collections/${collectionId}`);
    await check('DELETE', '/files/{id}', `/files/${fileId}`);
    await check('DELETE', '/providers/{providerId}/items', items, { key: 'status/' });

    const wrong = seen.filter((s) => s.ours !== s.reference);
    expect(wrong).toEqual([]);
    // COMPAT.md: creates and uploads 201, reindex and recompute 202, deletes 204.
    expect(seen.filter((s) => s.op.startsWith('DELETE')).map((s) => s.ours)).toEqual([204, 204, 204, 204]);
  });
});
