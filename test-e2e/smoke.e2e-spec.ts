import type { DocintelClient } from '@docintel/api-client';
import { TestStack } from '@docintel/testing';
import { clientFor } from './support/client';
import { errorBody } from './support/http';

/** Operations of a started stack: errors, request ids, health, metrics, a service going away, shutdown. */
describe('a started stack', () => {
  let stack: TestStack;
  let token: string;
  let api: DocintelClient;

  beforeAll(async () => {
    // A short shutdown budget: a service that does not stop gracefully within it exits with 1.
    stack = await TestStack.start({ label: 'smoke', env: { SHUTDOWN_TIMEOUT_MS: '3000' } });
    token = await stack.token('default', 'dev@example.com');
    api = clientFor(stack, token);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('lists the default LOCAL provider for a token from the CLI', async () => {
    const { data: page, response } = await api.GET('/api/core/providers');
    expect(response.status).toBe(200);
    expect(page).toMatchObject({ totalElements: 1, totalPages: 1, hasNext: false });
    expect(page?.data[0]).toMatchObject({ name: 'Local storage', type: 'LOCAL', icon: 'folder', config: { type: 'LOCAL' } });
  });

  it('answers 401 with a JSON error body without a token', async () => {
    const body = await errorBody(await stack.request('/api/core/providers'), 401, 'UNAUTHENTICATED');
    expect(body.error).toBe('Unauthorized');
  });

  it('answers an unknown route with a 404 JSON body', async () => {
    const body = await errorBody(await stack.request('/api/core/no-such-thing?x=1', { token }), 404, 'NOT_FOUND');
    expect(body).toMatchObject({ error: 'Not Found', message: 'No route for GET /api/core/no-such-thing', details: [] });
    const post = await errorBody(await stack.request('/api/core/providers', { token, method: 'POST' }), 404, 'NOT_FOUND');
    expect(post.message).toBe('No route for POST /api/core/providers');
  });

  it('answers a malformed or oversized JSON body with a JSON error body', async () => {
    const post = (body: string) =>
      stack.request('/v1/rules', { token, method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const malformed = await errorBody(await post('{"trigger_id": '), 400, 'VALIDATION_FAILED');
    expect(malformed.message).toMatch(/not valid JSON/);
    await errorBody(await post(JSON.stringify({ filter: { padding: 'x'.repeat(1024 * 1024 + 1) } })), 413, 'PAYLOAD_TOO_LARGE');
  });

  it('keeps the X-Request-Id a client sends, in the header and the error body', async () => {
    const { response: ok } = await api.GET('/api/core/providers', { headers: { 'x-request-id': 'client-req-0001' } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-request-id')).toBe('client-req-0001');

    const denied = await stack.request('/api/core/providers', { headers: { 'x-request-id': 'client-req-0002' } });
    expect((await errorBody(denied, 401, 'UNAUTHENTICATED')).requestId).toBe('client-req-0002');

    const missing = await stack.request('/api/core/nowhere', { token, headers: { 'x-request-id': 'client-req-0003' } });
    expect((await errorBody(missing, 404, 'NOT_FOUND')).requestId).toBe('client-req-0003');
  });

  it('makes up a request id when the client sends none or an unusable one', async () => {
    const { response: none } = await clientFor(stack, undefined).GET('/api/core/providers');
    expect(none.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const bad = await stack.request('/api/core/providers', { headers: { 'x-request-id': 'has spaces and <tags>' } });
    const body = await errorBody(bad, 401, 'UNAUTHENTICATED');
    expect(body.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.requestId).not.toBe(none.headers.get('x-request-id'));
  });

  it('reports readiness and liveness on /health without a token', async () => {
    for (const path of ['/health', '/health/ready']) {
      const res = await stack.request(path);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        status: 'ok',
        service: 'api-gateway',
        checks: { nats: { status: 'up' }, postgres: { status: 'up' } },
      });
    }
    const live = await stack.request('/health/live');
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({
      status: 'ok',
      service: 'api-gateway',
      checks: { eventLoop: { status: 'up', delayMs: expect.any(Number), maxDelayMs: 5000, windowMs: 5000 } },
    });
  });

  it('serves Prometheus metrics on /metrics', async () => {
    await api.GET('/api/core/providers');
    const res = await stack.request('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(text).toContain('# TYPE docintel_http_request_duration_seconds histogram');
    expect(text).toMatch(/docintel_http_request_duration_seconds_count\{[^}]*route="\/api\/core\/providers"[^}]*status="200"[^}]*\} [1-9]/);
    expect(text).toMatch(
      /docintel_rpc_client_duration_seconds_count\{[^}]*subject="storage\.providers\.list"[^}]*outcome="ok"[^}]*\} [1-9]/,
    );
    expect(text).toContain('service="api-gateway"');
    expect(text).toContain('process_cpu_user_seconds_total');
  });

  it('answers 503 while storage-service is down, keeps serving, and recovers when it is back', async () => {
    expect(await stack.stopApp('storage-service')).toBe(0);

    for (let i = 0; i < 2; i++) {
      const body = await errorBody(await stack.request('/api/core/providers', { token }), 503, 'SERVICE_UNAVAILABLE');
      expect(body).toMatchObject({ error: 'Service Unavailable', details: [] });
      expect(body.message).toMatch(/storage service is not available/);
    }
    expect((await stack.request('/health/live')).status).toBe(200);
    expect((await stack.request('/health')).status).toBe(200);
    await errorBody(await stack.request('/api/core/providers'), 401, 'UNAUTHENTICATED');

    await stack.startApp('storage-service');
    const { response } = await api.GET('/api/core/providers');
    expect(response.status).toBe(200);
  });

  it('stops every service gracefully on SIGTERM (exit code 0 within the shutdown budget)', async () => {
    const names = [...stack.apps.keys()];
    expect(names).toEqual(expect.arrayContaining(['api-gateway', 'storage-service', 'rules-engine']));
    const codes = await Promise.all(names.map(async (name) => [name, await stack.stopApp(name)] as const));
    expect(Object.fromEntries(codes)).toEqual(Object.fromEntries(names.map((n) => [n, 0])));
  });
});
