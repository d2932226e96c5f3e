import Fastify, { type FastifyInstance } from 'fastify';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { Logger } from '@docintel/observability';
import { CONSOLE_CSP, IMMUTABLE, NOT_BUILT, serveConsole } from './console';

// @fastify/static requires content-disposition 3, an ES module Node 20.19+ loads with require() but
// jest's CommonJS runtime cannot; downloads (its only use) are not part of the console.
jest.mock('content-disposition', () => ({ create: (name: string) => `attachment; filename="${name}"` }));

const INDEX = '<!doctype html><html><body><div id="root"></div><script src="/assets/index-AbC123.js"></script></body></html>';
const HTML = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

/** A Fastify instance with the console and one API route; unmatched requests get a JSON 404, as the gateway's. */
async function gateway(root: string): Promise<{ app: FastifyInstance; warnings: unknown[] }> {
  const warnings: unknown[] = [];
  const logger = { warn: (...args: unknown[]) => warnings.push(args) } as unknown as Logger;
  const app = Fastify();
  app.get('/api/core/providers', () => ({ data: [] }));
  app.get('/health', () => ({ status: 'ok' }));
  await serveConsole(app, logger, root);
  app.setNotFoundHandler((req, reply) =>
    reply.status(404).send({ status: 404, code: 'NOT_FOUND', message: `No route for ${req.method} ${req.url}` }),
  );
  await app.ready();
  return { app, warnings };
}

describe('serveConsole', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'console-dist-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  describe('with a built console', () => {
    let app: FastifyInstance;
    beforeEach(async () => {
      mkdirSync(join(dir, 'assets'));
      writeFileSync(join(dir, 'index.html'), INDEX);
      writeFileSync(join(dir, 'assets', 'index-AbC123.js'), 'console.log(1)');
      ({ app } = await gateway(dir));
    });
    afterEach(() => app.close());

    it('sends an asset brotli- or gzip-compressed from the copies beside it when the browser accepts it, plain otherwise', async () => {
      const code = `console.log(${JSON.stringify('x'.repeat(5000))})`;
      writeFileSync(join(dir, 'assets', 'big-Zz9.js'), code);
      writeFileSync(join(dir, 'assets', 'big-Zz9.js.br'), brotliCompressSync(code));
      writeFileSync(join(dir, 'assets', 'big-Zz9.js.gz'), gzipSync(code));

      const br = await app.inject({ method: 'GET', url: '/assets/big-Zz9.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
      expect(br.statusCode).toBe(200);
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/);
      expect(br.headers['cache-control']).toBe(IMMUTABLE);
      expect(br.rawPayload.length).toBeLessThan(code.length / 10);

      const gz = await app.inject({ method: 'GET', url: '/assets/big-Zz9.js', headers: { 'accept-encoding': 'gzip' } });
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gz.rawPayload).toString()).toBe(code);

      const plain = await app.inject({ method: 'GET', url: '/assets/big-Zz9.js' });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body).toBe(code);
    });

    it('serves index.html at / without caching', async () => {
      const res = await app.inject({ method: 'GET', url: '/' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toBe(INDEX);
    });

    it('serves every page with a Content-Security-Policy that forbids framing and foreign scripts', async () => {
      for (const url of ['/', '/files/3f1c5a52-2f7c-4b5e-8d4e-1a2b3c4d5e6f']) {
        const res = await app.inject({ method: 'GET', url, headers: HTML });
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-security-policy']).toBe(CONSOLE_CSP);
        expect(res.headers['x-frame-options']).toBe('DENY');
        expect(res.headers['x-content-type-options']).toBe('nosniff');
      }
      const directives = Object.fromEntries(CONSOLE_CSP.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)]));
      expect(directives['frame-ancestors']).toEqual(["'none'"]);
      // Scripts only from the gateway itself: no inline script, no other origin (eval for Ajv's compiled schemas).
      expect(directives['script-src']).toEqual(["'self'", "'unsafe-eval'"]);
      expect(directives['object-src']).toEqual(["'none'"]);
    });

    it('serves hashed assets as immutable for a year', async () => {
      const res = await app.inject({ method: 'GET', url: '/assets/index-AbC123.js' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/javascript/);
      expect(res.headers['cache-control']).toBe(IMMUTABLE);
      const missing = await app.inject({ method: 'GET', url: '/assets/nope.js', headers: HTML });
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toMatchObject({ code: 'NOT_FOUND' });
    });

    it('answers a deep link asked for as HTML with index.html', async () => {
      for (const url of ['/providers', '/files/3f1c5a52-2f7c-4b5e-8d4e-1a2b3c4d5e6f?tab=ontologies', '/sign-in']) {
        const res = await app.inject({ method: 'GET', url, headers: HTML });
        expect({ url, status: res.statusCode, body: res.body }).toEqual({ url, status: 200, body: INDEX });
        expect(res.headers['cache-control']).toBe('no-cache');
      }
    });

    it('keeps the JSON 404 for API paths, non-HTML clients and other methods', async () => {
      const cases: Array<{ method: 'GET' | 'POST' | 'DELETE'; url: string; headers?: Record<string, string> }> = [
        { method: 'GET', url: '/api/core/no-such-thing', headers: HTML },
        { method: 'GET', url: '/api', headers: HTML },
        { method: 'GET', url: '/v1/rules/nothing', headers: HTML },
        { method: 'GET', url: '/health/nothing', headers: HTML },
        { method: 'GET', url: '/metrics/x', headers: HTML },
        { method: 'GET', url: '/providers' },
        { method: 'GET', url: '/providers', headers: { accept: 'application/json' } },
        { method: 'POST', url: '/providers', headers: HTML },
        { method: 'DELETE', url: '/files/x', headers: HTML },
      ];
      for (const c of cases) {
        const res = await app.inject(c);
        expect({ ...c, status: res.statusCode, type: res.headers['content-type'] }).toMatchObject({
          status: 404,
          type: expect.stringMatching(/json/),
        });
      }
    });

    it('leaves existing routes alone', async () => {
      const res = await app.inject({ method: 'GET', url: '/api/core/providers', headers: HTML });
      expect(res.json()).toEqual({ data: [] });
      expect((await app.inject({ method: 'GET', url: '/health', headers: HTML })).json()).toEqual({ status: 'ok' });
    });
  });

  it('answers / with a plain message, and deep links too, when the console is not built', async () => {
    const { app, warnings } = await gateway(join(dir, 'missing'));
    try {
      expect(warnings).toHaveLength(1);
      for (const url of ['/', '/providers']) {
        const res = await app.inject({ method: 'GET', url, headers: HTML });
        expect(res.statusCode).toBe(404);
        expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
        expect(res.body).toBe(NOT_BUILT);
        expect(res.headers['x-frame-options']).toBe('DENY');
      }
      const api = await app.inject({ method: 'GET', url: '/api/core/nothing', headers: HTML });
      expect(api.json()).toMatchObject({ code: 'NOT_FOUND' });
    } finally {
      await app.close();
    }
  });
});
