import { createDocintelClient } from './client';
import { DocintelApiError, unwrap } from './errors';
import { errorBody, fakeFetch, indexedFile, jsonResponse } from './testing/fake-fetch';

const BASE = 'http://gateway.test:8080';
const page = { data: [], totalPages: 0, totalElements: 0, hasNext: false };

describe('createDocintelClient', () => {
  it('sends the bearer token, and no X-Namespace when none is given', async () => {
    const server = fakeFetch({ 'GET /api/core/providers': () => jsonResponse(page) });
    const api = createDocintelClient({ baseUrl: BASE, token: 'dit_abc', fetch: server.fetch });

    await expect(unwrap(api.GET('/api/core/providers'))).resolves.toEqual(page);

    const [req] = server.seen;
    expect(req.url.href).toBe(`${BASE}/api/core/providers`);
    expect(req.headers.get('authorization')).toBe('Bearer dit_abc');
    expect(req.headers.has('x-namespace')).toBe(false);
  });

  it('sends X-Namespace when given, and serializes the query and path parameters', async () => {
    const server = fakeFetch({
      'GET /api/core/files/f%201': () => jsonResponse(indexedFile('f 1', 'RUNNING')),
      'GET /api/core/files': () => jsonResponse(page),
    });
    const api = createDocintelClient({ baseUrl: `${BASE}/`, token: 't', namespace: 'research', fetch: server.fetch });

    await unwrap(api.GET('/api/core/files', { params: { query: { providerId: 'p1', page: 2, pageSize: 50, sortOrder: 'DESC' } } }));
    await unwrap(api.GET('/api/core/files/{id}', { params: { path: { id: 'f 1' } } }));

    expect(server.seen.map((r) => r.url.href)).toEqual([
      `${BASE}/api/core/files?providerId=p1&page=2&pageSize=50&sortOrder=DESC`,
      `${BASE}/api/core/files/f%201`,
    ]);
    for (const req of server.seen) expect(req.headers.get('x-namespace')).toBe('research');
  });

  it('reads a token and a namespace given as functions before each request', async () => {
    const server = fakeFetch({ 'GET /api/core/providers': () => jsonResponse(page) });
    const tokens = ['first', 'second'];
    const api = createDocintelClient({ baseUrl: BASE, token: async () => tokens.shift(), namespace: () => 'acme', fetch: server.fetch });

    await unwrap(api.GET('/api/core/providers'));
    await unwrap(api.GET('/api/core/providers'));
    await unwrap(api.GET('/api/core/providers'));

    expect(server.seen.map((r) => r.headers.get('authorization'))).toEqual(['Bearer first', 'Bearer second', null]);
    expect(server.seen.map((r) => r.headers.get('x-namespace'))).toEqual(['acme', 'acme', 'acme']);
  });

  it('lets headers set on the request win over the client defaults', async () => {
    const server = fakeFetch({ 'GET /api/core/providers': () => jsonResponse(page) });
    const api = createDocintelClient({ baseUrl: BASE, token: 'default', namespace: 'default', fetch: server.fetch });

    await unwrap(
      api.GET('/api/core/providers', { headers: { Authorization: 'Bearer other', 'X-Namespace': 'elsewhere', 'X-Request-Id': 'r-1' } }),
    );

    const [req] = server.seen;
    expect(req.headers.get('authorization')).toBe('Bearer other');
    expect(req.headers.get('x-namespace')).toBe('elsewhere');
    expect(req.headers.get('x-request-id')).toBe('r-1');
  });

  it('sends a JSON body with its Content-Type', async () => {
    const created = indexedFile('f1', 'PENDING');
    const server = fakeFetch({ 'POST /api/core/files': () => jsonResponse(created, 201) });
    const api = createDocintelClient({ baseUrl: BASE, token: 't', fetch: server.fetch });

    await expect(unwrap(api.POST('/api/core/files', { body: { providerId: 'p1', key: 'docs/a.txt' } }))).resolves.toEqual(created);

    expect(server.seen[0].headers.get('content-type')).toBe('application/json');
    expect(JSON.parse(server.seen[0].body as string)).toEqual({ providerId: 'p1', key: 'docs/a.txt' });
  });

  it('turns an error body into a DocintelApiError through unwrap', async () => {
    const details = [{ field: 'pageSize', problem: 'must be between 1 and 1000' }];
    const server = fakeFetch({
      'GET /api/core/providers': () => jsonResponse(errorBody(400, 'VALIDATION_FAILED', 'The request is invalid', details), 400),
    });
    const api = createDocintelClient({ baseUrl: BASE, token: 't', fetch: server.fetch });

    const err = await unwrap(api.GET('/api/core/providers', { params: { query: { pageSize: 0 } } })).catch((e: unknown) => e);

    expect(err).toBeInstanceOf(DocintelApiError);
    expect(err).toMatchObject({ status: 400, code: 'VALIDATION_FAILED', message: 'The request is invalid', details, requestId: 'req-400' });
  });
});
