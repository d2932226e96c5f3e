import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { paths } from './schema';

/** A fetch as openapi-fetch calls it: one Request in, one Response out. */
export type FetchLike = (request: Request) => Promise<Response>;

type Lazy<T> = T | (() => T | Promise<T>);

export interface DocintelClientOptions {
  /** The gateway, e.g. `http://127.0.0.1:8080`; `''` in a browser page served by the gateway itself. */
  baseUrl: string;
  /** A personal access token, or a function that returns the current one (read before each request). */
  token: Lazy<string | undefined>;
  /** The namespace to act in (`X-Namespace`), for a user who belongs to several. */
  namespace?: Lazy<string | undefined>;
  /** Another fetch (tests, instrumentation); the global one otherwise. */
  fetch?: FetchLike;
}

/** An openapi-fetch client typed with the gateway's paths: `api.GET('/api/core/providers')`. */
export type DocintelClient = Client<paths>;

// The fetch a client was made with, for the requests that must not go through it: the PUT of a
// presigned upload goes straight to the storage backend, without the bearer token.
const fetchOf = new WeakMap<object, FetchLike>();

/** The fetch the client was created with (the global fetch for clients made elsewhere). */
export function clientFetch(api: DocintelClient): FetchLike {
  return fetchOf.get(api) ?? ((request) => globalThis.fetch(request));
}

const read = async <T>(value: Lazy<T>): Promise<T> => (typeof value === 'function' ? (value as () => T | Promise<T>)() : value);

/**
 * A typed client of the docintel API. Every request carries `Authorization: Bearer <token>` and,
 * when a namespace is given, `X-Namespace`; a header set on the request itself wins. Calls resolve
 * to openapi-fetch's `{ data, error, response }`; `unwrap()` turns that into data or a
 * DocintelApiError.
 */
export function createDocintelClient(options: DocintelClientOptions): DocintelClient {
  const fetch: FetchLike = options.fetch ?? ((request) => globalThis.fetch(request));
  const api = createClient<paths>({ baseUrl: options.baseUrl, fetch });
  const identity: Middleware = {
    async onRequest({ request }) {
      const token = await read(options.token);
      if (token && !request.headers.has('authorization')) request.headers.set('authorization', `Bearer ${token}`);
      const namespace = options.namespace === undefined ? undefined : await read(options.namespace);
      if (namespace && !request.headers.has('x-namespace')) request.headers.set('x-namespace', namespace);
      return request;
    },
  };
  api.use(identity);
  fetchOf.set(api, fetch);
  return api;
}
