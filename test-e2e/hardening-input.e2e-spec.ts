import { TestStack } from '@docintel/testing';
import { errorBody } from './support/http';

/**
 * Hostile or sloppy input through the HTTP API: every bad request gets a 4xx with the one error
 * body naming what is wrong, never a 500, and the services keep serving afterwards.
 */

interface Entity {
  id: { id: string; entityType: string };
  name: string;
  [field: string]: unknown;
}
interface Page<T> {
  data: T[];
  totalPages: number;
  totalElements: number;
  hasNext: boolean;
}

const NUL = 'must not contain the NUL character (U+0000)';
const TOO_DEEP = 'is nested more than 64 levels deep';
const UNKNOWN = '3f0e7a43-6c8e-4a4e-9d1e-9f4b0d2f7c11';
const JSON_TYPE = { 'content-type': 'application/json' };

/** `{"a":[{"a":[...]}]}` nested `levels` deep, as text (JSON.stringify would recurse). */
const deepJson = (levels: number) => {
  const open: string[] = [];
  const close: string[] = [];
  for (let i = 0; i < levels; i++) {
    open.push(i % 2 ? '[' : '{"a":');
    close.push(i % 2 ? ']' : '}');
  }
  return `${open.join('')}1${close.reverse().join('')}`;
};

describe('Hardening: input the API must refuse cleanly', () => {
  let stack: TestStack;
  let alice: string;
  let bob: string;
  let eve: string;
  let providerId: string;

  const call = (method: string, path: string, token: string | undefined, body?: unknown) =>
    stack.request(path, {
      method,
      token,
      ...(body !== undefined ? { body: JSON.stringify(body), headers: JSON_TYPE } : {}),
    });
  /** A request with a body sent exactly as given, under the content type given. */
  const raw = (method: string, path: string, token: string, body: string, contentType: string) =>
    stack.request(path, { method, token, body, headers: { 'content-type': contentType } });

  async function json<T>(res: Response, status: number): Promise<T> {
    const text = await res.text();
    expect({ status: res.status, text }).toMatchObject({ status });
    return JSON.parse(text) as T;
  }

  const createCollection = async (name: string, token = alice) =>
    json<Entity>(await call('POST', '/api/core/collections', token, { name }), 201);

  /** Uploaded with multipart (which must keep working), then made an IndexedFile. */
  async function indexedFile(key: string, token = alice): Promise<Entity> {
    const slash = key.lastIndexOf('/');
    const form = new FormData();
    form.append('file', new Blob(['hello, hardening']), key.slice(slash + 1));
    const upload = await stack.request(`/api/core/providers/${providerId}/items?key=${encodeURIComponent(key.slice(0, slash + 1))}`, {
      method: 'POST',
      token,
      body: form,
    });
    expect(upload.status).toBe(201);
    return json<Entity>(await call('POST', '/api/core/files', token, { providerId, key }), 201);
  }

  /** The service still answers an ordinary request. */
  async function stillServing(): Promise<void> {
    expect((await call('GET', '/api/core/collections', alice)).status).toBe(200);
    expect((await call('GET', '/v1/rules', alice)).status).toBe(200);
  }

  beforeAll(async () => {
    stack = await TestStack.start({ label: 'hardening', apps: ['storage-service', 'indexing-service', 'rules-engine', 'api-gateway'] });
    alice = await stack.token('acme', 'alice@acme.test');
    bob = await stack.token('acme', 'bob@acme.test');
    eve = await stack.token('globex', 'eve@globex.test');
    providerId = (await json<Page<Entity>>(await call('GET', '/api/core/providers', alice), 200)).data[0].id.id;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  describe('paging numbers', () => {
    let lists: string[];
    beforeAll(async () => {
      const c = await createCollection('Paged');
      lists = ['/api/core/providers', '/api/core/collections', `/api/core/collections/${c.id.id}/files`, '/api/core/files'];
    });
    /** The list with page and pageSize (required by GET /files), one of them set to `value`. */
    const paged = (list: string, field: string, value: string) => {
      const query = new URLSearchParams({ page: '0', pageSize: '20', [field]: value });
      if (list === '/api/core/files') query.set('providerId', providerId);
      return `${list}?${query.toString()}`;
    };

    it.each([
      ['page', '9223372036854775808', 'must be at most 2147483647'],
      ['page', '2147483648', 'must be at most 2147483647'],
      ['page', '1e3', 'must be an integer'],
      ['page', '0x10', 'must be an integer'],
      ['pageSize', '9223372036854775808', 'must be between 1 and 1000'],
      ['pageSize', '1e3', 'must be an integer'],
      ['pageSize', '0x10', 'must be an integer'],
    ])('answers %s=%s with 400 naming the field on every page-based list', async (field, value, problem) => {
      for (const list of lists) {
        const body = await errorBody(await call('GET', paged(list, field, value), alice), 400, 'VALIDATION_FAILED');
        expect({ list, details: body.details }).toEqual({ list, details: [{ field, problem }] });
      }
      await stillServing();
    });

    it('serves the largest page, empty', async () => {
      for (const list of lists) {
        const page = await json<Page<unknown>>(
          await call('GET', paged(list, 'page', '2147483647').replace('pageSize=20', 'pageSize=1000'), alice),
          200,
        );
        expect({ list, data: page.data, hasNext: page.hasNext }).toEqual({ list, data: [], hasNext: false });
      }
    });
  });

  describe('NUL characters', () => {
    it('answers a NUL in q, in a name, in a rule filter or in a path parameter with 400 naming it', async () => {
      const q = await errorBody(await call('GET', '/api/core/collections?q=a%00b', alice), 400, 'VALIDATION_FAILED');
      expect(q.details).toEqual([{ field: 'q', problem: NUL }]);

      const name = await errorBody(await call('POST', '/api/core/collections', alice, { name: 'Trials\u0000' }), 400, 'VALIDATION_FAILED');
      expect(name.details).toEqual([{ field: 'name', problem: NUL }]);

      const c = await createCollection('Clean');
      const patch = await errorBody(
        await call('PATCH', `/api/core/collections/${c.id.id}`, alice, { description: '\u0000' }),
        400,
        'VALIDATION_FAILED',
      );
      expect(patch.details).toEqual([{ field: 'description', problem: NUL }]);

      const filter = await errorBody(
        await call('PUT', '/v1/rules/corpus_parsing', alice, { filter: { mime_types: ['application/pdf', 'text/\u0000plain'] } }),
        400,
        'VALIDATION_FAILED',
      );
      expect(filter.details).toEqual([{ field: 'filter.mime_types[1]', problem: NUL }]);

      const created = await errorBody(
        await call('POST', '/v1/rules', alice, { trigger_id: 'corpus_parsing', filter: { 'mime\u0000types': [] } }),
        400,
        'VALIDATION_FAILED',
      );
      expect(created.details).toEqual([{ field: 'filter["mime\\u0000types"]', problem: `property name ${NUL}` }]);

      const param = await errorBody(await call('GET', '/v1/rules/corpus%00parsing', alice), 400, 'VALIDATION_FAILED');
      expect(param.details).toEqual([{ field: 'trigger_id', problem: NUL }]);

      const files = await errorBody(await call('GET', `/api/core/files?providerId=%00&page=0&pageSize=1`, alice), 400, 'VALIDATION_FAILED');
      expect(files.details).toEqual([{ field: 'providerId', problem: NUL }]);

      const file = await errorBody(
        await call('POST', '/api/core/files', alice, { providerId, key: 'a\u0000.pdf' }),
        400,
        'VALIDATION_FAILED',
      );
      expect(file.details).toContainEqual({ field: 'key', problem: NUL });

      await stillServing();
      expect((await json<Entity>(await call('GET', `/api/core/collections/${c.id.id}`, alice), 200)).name).toBe('Clean');
      const rule = await call('PUT', '/v1/rules/corpus_parsing', alice, { filter: { mime_types: ['application/pdf'] } });
      expect([200, 201]).toContain(rule.status);
    });
  });

  describe('deeply nested JSON', () => {
    it('answers a body nested 1,500 deep with 400 naming the body, on every JSON route', async () => {
      const c = await createCollection('Shallow');
      const body = `{"name":"x","filter":${deepJson(1500)}}`;
      for (const [method, path] of [
        ['POST', '/api/core/collections'],
        ['PATCH', `/api/core/collections/${c.id.id}`],
        ['POST', `/api/core/collections/${c.id.id}/files`],
        ['POST', '/api/core/files'],
        ['PUT', '/v1/rules/corpus_parsing'],
        ['POST', '/v1/rules'],
        ['DELETE', `/api/core/providers/${providerId}/items`],
      ]) {
        const err = await errorBody(await raw(method, path, alice, body, 'application/json'), 400, 'VALIDATION_FAILED');
        expect({ method, path, details: err.details }).toEqual({ method, path, details: [{ field: '(body)', problem: TOO_DEEP }] });
      }
      await stillServing();
    });

    it('accepts nesting up to the cap', async () => {
      // 1 (the body) + 63 levels under "extra": exactly 64; the DTO drops "extra".
      const ok = await raw('POST', '/api/core/collections', alice, `{"name":"Nested","extra":${deepJson(63)}}`, 'application/json');
      expect((await json<Entity>(ok, 201)).name).toBe('Nested');
      const over = await raw('POST', '/api/core/collections', alice, `{"name":"Nested","extra":${deepJson(64)}}`, 'application/json');
      expect((await errorBody(over, 400, 'VALIDATION_FAILED')).details).toEqual([{ field: '(body)', problem: TOO_DEEP }]);
    });
  });

  describe('an empty body with a JSON content type', () => {
    it('is no body on the routes the reference client calls that way', async () => {
      const empty = (method: string, path: string) => raw(method, path, alice, '', 'application/json');
      const f = await indexedFile('hardening/empty-body.txt');
      const c = await createCollection('Empty bodies');
      await json(await call('POST', `/api/core/collections/${c.id.id}/files`, alice, { fileId: f.id.id }), 201);

      expect((await empty('POST', `/api/core/files/${f.id.id}/reindex`)).status).toBe(202);
      expect((await empty('POST', `/api/core/files/${f.id.id}/recompute-ontologies`)).status).toBe(202);
      expect((await empty('DELETE', `/api/core/collections/${c.id.id}/files/${f.id.id}`)).status).toBe(204);
      expect((await empty('DELETE', `/api/core/files/${f.id.id}`)).status).toBe(204);

      // Gone now: the same requests say so.
      await errorBody(await empty('POST', `/api/core/files/${f.id.id}/reindex`), 404, 'NOT_FOUND');
      await errorBody(await empty('POST', `/api/core/files/${f.id.id}/recompute-ontologies`), 404, 'NOT_FOUND');
      await errorBody(await empty('DELETE', `/api/core/files/${f.id.id}`), 404, 'NOT_FOUND');
      await errorBody(await empty('DELETE', `/api/core/collections/${c.id.id}/files/${f.id.id}`), 404, 'NOT_FOUND');
      await errorBody(await empty('DELETE', `/api/core/collections/${UNKNOWN}/files/${UNKNOWN}`), 404, 'NOT_FOUND');
    });

    it('gives the usual validation 400 where a body is required', async () => {
      const collection = await errorBody(
        await raw('POST', '/api/core/collections', alice, '', 'application/json'),
        400,
        'VALIDATION_FAILED',
      );
      expect(collection.details.map((d) => d.field)).toContain('name');
      const rule = await errorBody(
        await raw('POST', '/v1/rules', alice, ' \n', 'application/json; charset=utf-8'),
        400,
        'VALIDATION_FAILED',
      );
      expect(rule.details.map((d) => d.field)).toContain('trigger_id');
      const file = await errorBody(await raw('POST', '/api/core/files', alice, '', 'application/json'), 400, 'VALIDATION_FAILED');
      expect(new Set(file.details.map((d) => d.field))).toEqual(new Set(['providerId', 'key']));
      // An empty PATCH changes nothing.
      const c = await createCollection('Unchanged');
      expect((await json<Entity>(await raw('PATCH', `/api/core/collections/${c.id.id}`, alice, '', 'application/json'), 200)).name).toBe(
        'Unchanged',
      );
    });
  });

  describe('bodies that are not JSON', () => {
    it('answers form-urlencoded, text or any other type on a JSON route with 415', async () => {
      const c = await createCollection('Typed');
      for (const [method, path, body, type] of [
        ['POST', '/api/core/collections', 'name=Form', 'application/x-www-form-urlencoded'],
        ['PATCH', `/api/core/collections/${c.id.id}`, 'name=Form', 'application/x-www-form-urlencoded'],
        ['PUT', '/v1/rules/corpus_parsing', 'filter=x', 'application/x-www-form-urlencoded'],
        ['POST', '/api/core/files', `providerId=${providerId}&key=a.pdf`, 'application/x-www-form-urlencoded'],
        ['POST', '/api/core/collections', '{"name":"Text"}', 'text/plain'],
        ['POST', '/api/core/collections', '<name>Xml</name>', 'application/xml'],
        ['DELETE', `/api/core/providers/${providerId}/items`, 'key=a.txt', 'application/x-www-form-urlencoded'],
      ]) {
        const err = await errorBody(await raw(method, path, alice, body, type), 415, 'UNSUPPORTED_MEDIA_TYPE');
        expect({ method, path, type, error: err.error, message: err.message }).toEqual({
          method,
          path,
          type,
          error: 'Unsupported Media Type',
          message: expect.stringContaining(type),
        });
      }
      const names = (await json<Page<Entity>>(await call('GET', '/api/core/collections?pageSize=1000', alice), 200)).data.map(
        (x) => x.name,
      );
      expect(names).not.toEqual(expect.arrayContaining(['Form']));
      expect(names).not.toEqual(expect.arrayContaining(['Text']));
    });

    it('still takes JSON with parameters or a +json type, and multipart uploads', async () => {
      const utf8 = await raw('POST', '/api/core/collections', alice, '{"name":"Charset"}', 'application/json; charset=utf-8');
      expect((await json<Entity>(utf8, 201)).name).toBe('Charset');
      const merge = await raw('POST', '/api/core/collections', alice, '{"name":"Merge"}', 'application/merge-patch+json');
      expect((await json<Entity>(merge, 201)).name).toBe('Merge');
      expect((await indexedFile('hardening/multipart.txt')).name).toBe('multipart.txt');
    });
  });

  describe('ids in paths', () => {
    it('answers an id that is not a UUID with 400 naming the path parameter', async () => {
      const c = await createCollection('Ids');
      for (const [method, path, field] of [
        ['GET', '/api/core/files/not-a-uuid', 'id'],
        ['DELETE', '/api/core/files/not-a-uuid', 'id'],
        ['POST', '/api/core/files/not-a-uuid/reindex', 'id'],
        ['POST', '/api/core/files/not-a-uuid/recompute-ontologies', 'id'],
        ['GET', '/api/core/files/not-a-uuid/ontologies', 'id'],
        ['GET', '/api/core/files/not-a-uuid/document', 'id'],
        ['GET', '/api/core/collections/xyz', 'id'],
        ['PATCH', '/api/core/collections/xyz', 'id'],
        ['DELETE', '/api/core/collections/xyz', 'id'],
        ['GET', '/api/core/collections/xyz/files', 'id'],
        ['POST', '/api/core/collections/xyz/files', 'id'],
        ['DELETE', `/api/core/collections/${c.id.id}/files/not-a-uuid`, 'fileId'],
        ['GET', '/api/core/providers/xyz', 'id'],
        ['GET', '/api/core/providers/xyz/items', 'providerId'],
        ['GET', '/api/core/providers/xyz/items/content?key=a.txt', 'providerId'],
        ['GET', '/api/core/providers/xyz/items/download-url?key=a.txt', 'providerId'],
      ]) {
        const err = await errorBody(await call(method, path, alice), 400, 'VALIDATION_FAILED');
        expect({ method, path, details: err.details }).toEqual({ method, path, details: [{ field, problem: 'must be a UUID' }] });
      }
      // A well-formed id that names nothing is still 404.
      await errorBody(await call('GET', `/api/core/files/${UNKNOWN}`, alice), 404, 'NOT_FOUND');
      await errorBody(await call('GET', `/api/core/collections/${UNKNOWN}`, alice), 404, 'NOT_FOUND');
      await errorBody(await call('DELETE', `/api/core/collections/${c.id.id}/files/${UNKNOWN}`, alice), 404, 'NOT_FOUND');
      await errorBody(await call('GET', `/api/core/providers/${UNKNOWN}`, alice), 404, 'NOT_FOUND');
    });

    it('leaves the LOCAL presigned transfer route alone: its parameter is a grant, not a UUID', async () => {
      const res = await stack.request('/api/storage/transfer/not-a-grant');
      const body = await res.json();
      expect(res.status).not.toBe(400);
      expect(body.details ?? []).not.toContainEqual(expect.objectContaining({ problem: 'must be a UUID' }));

      const grant = await json<{ url: string }>(
        await call('POST', `/api/core/providers/${providerId}/items/upload-url`, alice, { key: 'hardening/presigned.txt' }),
        200,
      );
      const put = await fetch(grant.url, {
        method: 'PUT',
        body: 'presigned bytes',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(put.status).toBe(200);
    });
  });

  describe('collection ownership', () => {
    it('lets the other users of the namespace read and fill a collection, but only its owner change it', async () => {
      const c = await createCollection('Alice only');
      const forbidden = await errorBody(
        await call('PATCH', `/api/core/collections/${c.id.id}`, bob, { name: 'Bob was here' }),
        403,
        'FORBIDDEN',
      );
      expect(forbidden.message).toBe(`Only the owner of collection ${c.id.id} may update it`);
      await errorBody(await call('PATCH', `/api/core/collections/${c.id.id}`, bob, {}), 403, 'FORBIDDEN');
      await errorBody(await call('DELETE', `/api/core/collections/${c.id.id}`, bob), 403, 'FORBIDDEN');
      // Another namespace does not even learn that it exists.
      await errorBody(await call('PATCH', `/api/core/collections/${c.id.id}`, eve, { name: 'Eve was here' }), 404, 'NOT_FOUND');

      const seen = await json<Entity>(await call('GET', `/api/core/collections/${c.id.id}`, bob), 200);
      expect(seen.name).toBe('Alice only');
      const f = await indexedFile('hardening/shared.txt', bob);
      await json(await call('POST', `/api/core/collections/${c.id.id}/files`, bob, { fileId: f.id.id }), 201);
      expect((await call('DELETE', `/api/core/collections/${c.id.id}/files/${f.id.id}`, bob)).status).toBe(204);

      const renamed = await json<Entity>(await call('PATCH', `/api/core/collections/${c.id.id}`, alice, { name: 'Still Alice' }), 200);
      expect(renamed.name).toBe('Still Alice');
    });
  });
});
