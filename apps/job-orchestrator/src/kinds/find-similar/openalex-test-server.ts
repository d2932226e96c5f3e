import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OpenAlexWork } from './openalex';

/**
 * A local HTTP server speaking the part of the OpenAlex works API find-similar uses:
 * GET /works/{doi:…|pmcid:…} answers the Work object the test registered for that id (ids are
 * case-insensitive, as at OpenAlex), 404 with OpenAlex's error body for unknown ones. A test can
 * make it fail: a queue of statuses to answer first (500, 429 with Retry-After), or hang (never
 * answer). Every request is recorded. Tests only: it knows the works it is given, nothing else.
 */
export interface TestOpenAlexServer {
  baseUrl: string;
  /** Paths and query strings received, in order. */
  requests: string[];
  /** Registers a work under its external ids (`doi:10.1/x`, `pmcid:PMC1`). */
  addWork(ids: string[], work: OpenAlexWork): void;
  /** The next requests answer these statuses (then the work as usual). */
  failNext(...replies: Array<{ status: number; retryAfter?: number } | 'hang'>): void;
  /** Every request fails with this status, or hangs, until reset. */
  failAlways(reply: { status: number } | 'hang' | null): void;
  reset(): void;
  stop(): Promise<void>;
}

export async function startOpenAlexServer(): Promise<TestOpenAlexServer> {
  const works = new Map<string, OpenAlexWork>();
  const queue: Array<{ status: number; retryAfter?: number } | 'hang'> = [];
  let always: { status: number } | 'hang' | null = null;
  const requests: string[] = [];
  const hanging = new Set<ServerResponse>();

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    requests.push(req.url ?? '');
    const reply = queue.shift() ?? always;
    if (reply === 'hang') {
      hanging.add(res);
      res.on('close', () => hanging.delete(res));
      return;
    }
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    if (reply) {
      send(
        reply.status,
        { error: 'scripted failure', message: `status ${reply.status}` },
        'retryAfter' in reply && reply.retryAfter !== undefined ? { 'retry-after': String(reply.retryAfter) } : {},
      );
      return;
    }
    const url = new URL(req.url ?? '/', 'http://localhost');
    const match = /^\/works\/(.+)$/.exec(decodeURIComponent(url.pathname));
    if (req.method !== 'GET' || !match) return send(404, { error: 'Not found', message: 'not a works path' });
    const work = works.get(match[1].toLowerCase());
    if (!work) return send(404, { error: 'Not found', message: `${match[1]} is not a valid ID or not in OpenAlex` });
    send(200, work);
  };

  const server: Server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    addWork: (ids, work) => ids.forEach((id) => works.set(id.toLowerCase(), work)),
    failNext: (...replies) => queue.push(...replies),
    failAlways: (reply) => (always = reply),
    reset: () => {
      queue.length = 0;
      always = null;
      requests.length = 0;
    },
    stop: async () => {
      for (const res of hanging) res.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A Work object as OpenAlex returns it (trimmed to the fields find-similar reads, plus a few it ignores). */
export function openAlexWork(fields: {
  id: string;
  doi?: string;
  title: string;
  authors: string[];
  year?: number;
  abstract?: string;
  keywords?: string[];
}): OpenAlexWork & Record<string, unknown> {
  const inverted: Record<string, number[]> = {};
  (fields.abstract ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .forEach((w, i) => (inverted[w] ??= []).push(i));
  return {
    id: fields.id,
    doi: fields.doi ? `https://doi.org/${fields.doi}` : null,
    title: fields.title,
    display_name: fields.title,
    publication_year: fields.year ?? null,
    type: 'article',
    cited_by_count: 12,
    authorships: fields.authors.map((name, i) => ({
      author_position: i ? 'middle' : 'first',
      author: { id: `https://openalex.org/A${i}`, display_name: name },
      raw_author_name: name,
    })),
    abstract_inverted_index: fields.abstract ? inverted : null,
    keywords: (fields.keywords ?? []).map((k, i) => ({ id: `https://openalex.org/keywords/${i}`, display_name: k, score: 0.9 - i * 0.1 })),
    concepts: [
      {
        id: 'https://openalex.org/C86803240',
        wikidata: 'https://www.wikidata.org/wiki/Q420',
        display_name: 'Biology',
        level: 0,
        score: 0.9,
      },
    ],
  };
}
