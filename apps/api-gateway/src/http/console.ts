import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Logger } from '@docintel/observability';

/** apps/console/dist, from apps/api-gateway/{src,dist}/http. */
export const CONSOLE_DIST = resolve(__dirname, '../../../console/dist');

/** Hashed build output: a changed file gets a new name, so a copy never goes stale. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Paths that belong to the API and operations, never to the console, whatever the client accepts. */
const RESERVED = /^\/(api|v1|health|metrics|assets|internal)(\/|$)/;

/**
 * The policy of the console's pages. The built app is same-origin files only: scripts and the
 * pdf.js worker from /assets, API calls to the gateway itself; no inline script and no script
 * from elsewhere. The rules editor checks a filter as it is typed against the trigger's JSON
 * Schema with Ajv, which compiles a schema into a function: that needs 'unsafe-eval' (it allows
 * no script source beyond 'self'). Mantine sets styles inline (style attributes and the <style>
 * elements of its CSS variables), hence 'unsafe-inline' for styles only; images may be data: (the
 * icon) or blob: (rendered pages); pdf.js may hand embedded fonts to the browser as data: URLs. No
 * page may frame the console (clickjacking).
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Headers of every console page: the policy, X-Frame-Options for browsers without frame-ancestors, no MIME sniffing. */
export const CONSOLE_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CONSOLE_CSP,
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
};

export const NOT_BUILT =
  'The docintel web console is not built.\n' +
  'Run `npm run build` (or `npm run build:console`) and reload this page.\n' +
  'The API is served under /api/core and /v1/rules; its documentation is at /api/docs.\n';

/**
 * The web console (apps/console, a single-page app) at `/`, beside the API and outside the bearer
 * guard and the OpenAPI document: plain Fastify routes, as the transfer proxy is.
 *
 * - `/assets/*` are Vite's hashed files: cached for a year as immutable, sent brotli- or
 *   gzip-compressed from the copies the build made beside them when the browser accepts it.
 * - `/` and any other GET that no route answers, asked for as HTML (`Accept: text/html`) and not
 *   under an API or operations prefix, get index.html (`no-cache`), so a deep link or a reload of
 *   `/files/<id>` opens the console there. Everything else that has no route keeps the gateway's
 *   JSON 404, unchanged: the fallback is an onRequest hook that only ever sees unmatched requests.
 * - Without a build, `/` answers a plain message saying how to build it.
 *
 * index.html is read on each request (it is small) so that a rebuild is picked up without a restart.
 * Pages carry CONSOLE_PAGE_HEADERS (Content-Security-Policy, X-Frame-Options: DENY).
 */
export async function serveConsole(fastify: FastifyInstance, logger: Logger, root: string = CONSOLE_DIST): Promise<void> {
  if (!existsSync(join(root, 'index.html'))) {
    logger.warn({ root }, 'web console not built: / answers a message; run npm run build:console');
  }
  await fastify.register(fastifyStatic, {
    root: join(root, 'assets'),
    prefix: '/assets/',
    index: false,
    preCompressed: true,
    cacheControl: false,
    suppressWarning: true,
    setHeaders: (reply) => {
      void reply.header('cache-control', IMMUTABLE);
    },
  });

  const sendIndex = async (reply: FastifyReply): Promise<FastifyReply> => {
    void reply.headers(CONSOLE_PAGE_HEADERS);
    let html: Buffer;
    try {
      html = await readFile(join(root, 'index.html'));
    } catch {
      return reply.status(404).header('content-type', 'text/plain; charset=utf-8').header('cache-control', 'no-cache').send(NOT_BUILT);
    }
    return reply.status(200).header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-cache').send(html);
  };

  fastify.get('/', (_req, reply) => sendIndex(reply));

  fastify.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
    if (isConsolePage(req)) return sendIndex(reply);
  });
}

/** An unmatched GET (or HEAD) a browser makes for a page of the console. */
export function isConsolePage(req: Pick<FastifyRequest, 'is404' | 'method' | 'url' | 'headers'>): boolean {
  if (!req.is404 || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
  if (!String(req.headers.accept ?? '').includes('text/html')) return false;
  return !RESERVED.test(req.url.split('?')[0]);
}
