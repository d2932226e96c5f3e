import type { Provider } from '@nestjs/common';
import { SERVICE_ENV } from '@docintel/runtime';
import type { JobsEnv } from '../../jobs.env';
import { BIBLIOGRAPHIC_SOURCE, type BibliographicSource } from './bibliographic-source';
import { OpenAlexSource } from './openalex';

/** The remote bibliographic search FIND_SIMILAR_REMOTE names, or null (none: sources not among the caller's files stay unmatched). */
export function createBibliographicSource(env: JobsEnv): BibliographicSource | null {
  switch (env.FIND_SIMILAR_REMOTE) {
    case 'openalex':
      return new OpenAlexSource({
        baseUrl: env.FIND_SIMILAR_OPENALEX_URL,
        mailto: env.FIND_SIMILAR_OPENALEX_MAILTO,
        timeoutMs: env.FIND_SIMILAR_REMOTE_TIMEOUT_MS,
        retries: env.FIND_SIMILAR_REMOTE_RETRIES,
      });
    case 'none':
      return null;
  }
}

export const bibliographicSourceProvider: Provider = {
  provide: BIBLIOGRAPHIC_SOURCE,
  useFactory: (env: JobsEnv) => createBibliographicSource(env),
  inject: [SERVICE_ENV],
};
