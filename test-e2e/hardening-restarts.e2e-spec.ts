import type { AppName } from '@docintel/testing';
import { TestStack } from '@docintel/testing';
import { errorBody, json } from './support/http';

/**
 * What clients see around restarts and from the edges of the HTTP surface: liveness that measures
 * the event loop, a 503 with Retry-After (never a 500 or a 504 after the RPC timeout) while a
 * service is down, the console's security headers, and multipart file names broken by a line break.
 */

interface Page<T> {
  data: T[];
}
interface Provider {
  id: { id: string };
}
interface Listing {
  items: Array<{ key: string }>;
}

const APPS: AppName[] = ['storage-service', 'rules-engine', 'api-gateway'];

describe('Hardening: restarts, liveness and the HTTP edges', () => {
  let stack: TestStack;
  let token: string;
  let providerId: string;

  beforeAll(async () => {
    stack = await TestStack.start({ label: 'restarts', apps: APPS });
    token = await stack.token('acme', 'alice@acme.test');
    providerId = (await json<Page<Provider>>(await stack.request('/api/core/providers', { token }))).data[0].id.id;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('answers /health/live on every process with the event-loop delay it measured', async () => {
    for (const name of APPS) {
      const app = stack.apps.get(name);
      const res = await fetch(`http://127.0.0.1:${app?.port}/health/live`);
      const body = (await res.json()) as { status: string; checks: { eventLoop: { status: string; delayMs: number; maxDelayMs: number } } };
      expect({ name, status: res.status, body }).toMatchObject({
        name,
        status: 200,
        body: { status: 'ok', checks: { eventLoop: { status: 'up', delayMs: expect.any(Number), maxDelayMs: 5000 } } },
      });
    }
  });

  it('answers 503 with Retry-After and the JSON error body while a service is down, and serves again once it is back', async () => {
    expect((await stack.request('/v1/rules', { token })).status).toBe(200);
    await stack.stopApp('rules-engine', 'SIGKILL');
    try {
      const res = await stack.request('/v1/rules', { token });
      const body = await errorBody(res, 503, 'SERVICE_UNAVAILABLE');
      expect(body.message).toMatch(/rules service is not available right now/);
      expect(body.errorId).toBeUndefined();
      expect(res.headers.get('retry-after')).toBe('5');
    } finally {
      await stack.startApp('rules-engine');
    }
    expect((await stack.request('/v1/rules', { token })).status).toBe(200);
  });

  it('serves the console with a Content-Security-Policy and X-Frame-Options: DENY', async () => {
    for (const path of ['/', '/files/3f1c5a52-2f7c-4b5e-8d4e-1a2b3c4d5e6f']) {
      const res = await fetch(`${stack.baseUrl}${path}`, { headers: { accept: 'text/html' } });
      await res.arrayBuffer();
      const csp = res.headers.get('content-security-policy') ?? '';
      expect({ path, csp }).toEqual({ path, csp: expect.stringContaining("frame-ancestors 'none'") });
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("object-src 'none'");
      expect(res.headers.get('x-frame-options')).toBe('DENY');
    }
    // The API keeps its JSON, without a page policy.
    const api = await stack.request('/api/core/providers', { token });
    expect(api.headers.get('content-security-policy')).toBeNull();
  });

  describe('a multipart file name with a line break in it', () => {
    const boundary = 'docintel-e2e-crlf';
    const upload = (filename: string) =>
      stack.request(`/api/core/providers/${providerId}/items?key=${encodeURIComponent('crlf/')}`, {
        method: 'POST',
        token,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        body:
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n` +
          `Content-Type: text/plain\r\n\r\nhello\r\n--${boundary}--\r\n`,
      });
    const stored = async () =>
      (
        await json<Listing>(await stack.request(`/api/core/providers/${providerId}/items?key=${encodeURIComponent('crlf/')}`, { token }))
      ).items.map((i) => i.key);

    it.each([
      ['CR LF', 'evil\r\nname.txt'],
      ['LF', 'evil\nname.txt'],
      ['CR', 'evil\rname.txt'],
    ])('is refused (400 naming file) rather than stored cut at the %s', async (_what, filename) => {
      const body = await errorBody(await upload(filename), 400, 'VALIDATION_FAILED');
      expect(body.details.map((d) => d.field)).toEqual(['file']);
      expect(await stored()).toEqual([]);
    });

    it('still stores an ordinary name', async () => {
      expect((await upload('plain name.txt')).status).toBe(201);
      expect(await stored()).toEqual(['crlf/plain name.txt']);
    });
  });
});
