import type { Provider } from '@nestjs/common';
import { notFound, type Reader } from '@docintel/answering';
import type { JobsEnv } from '../jobs.env';
import { READER } from './reader.token';

/** The engine ANSWERING_ENGINE names. */
export function readerProvider(env: JobsEnv): Provider {
  return {
    provide: READER,
    useFactory: (): Reader => ({
      name: env.ANSWERING_ENGINE,
      answer: () => Promise.resolve(notFound('not wired yet')),
    }),
  };
}
