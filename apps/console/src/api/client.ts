/**
 * The console's one door to the API: the client generated from the gateway's OpenAPI document
 * (libs/api-client, imported from its source), and how a failed call becomes a sentence for a person.
 */
import { createDocintelClient, DocintelApiError, type DocintelClient } from '@docintel/api-client';

export { DocintelApiError, unwrap } from '@docintel/api-client';
export type { IndexationStatus, IndexedFile, Ontology, Provider, ProviderItem } from '@docintel/api-client';

export type Api = DocintelClient;

export interface Credentials {
  token: string;
  /** X-Namespace, for a user in several namespaces; null uses the token's own. */
  namespace: string | null;
}

/** A client for the gateway that serves the page; `onUnauthorized` hears of every 401. */
export function createApi(credentials: Credentials, onUnauthorized: () => void): Api {
  return createDocintelClient({
    baseUrl: '',
    token: credentials.token,
    ...(credentials.namespace ? { namespace: credentials.namespace } : {}),
    fetch: async (request) => {
      const res = await window.fetch(request);
      if (res.status === 401) onUnauthorized();
      return res;
    },
  });
}

/** A sentence for a failed call: the server's message, the fields it named, the status. */
export function describeError(err: unknown): string {
  if (err instanceof DocintelApiError) {
    const details = err.details.map((d) => `${d.field}: ${d.problem}`).filter((d) => !err.message.includes(d));
    return `${err.message}${details.length ? ` (${details.join('; ')})` : ''} [${err.status}]`;
  }
  if (err instanceof TypeError) return `The gateway could not be reached (${err.message})`;
  if (err instanceof Error) return err.message;
  return String(err);
}

export const statusOf = (err: unknown): number | null => (err instanceof DocintelApiError ? err.status : null);
