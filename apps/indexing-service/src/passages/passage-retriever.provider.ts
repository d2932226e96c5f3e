import type { Provider } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { PostgresBm25Retriever, type PassageRetriever } from '@docintel/retrieval';
import { RetrievalEnv } from './retrieval.env';

/**
 * The lexical engine behind passage search and passage indexing: BM25 in the service's own
 * PostgreSQL schema. The rest of the feature depends on the PassageRetriever interface only, so a
 * distributed engine (OpenSearch) would be configured here.
 */
export const PASSAGE_RETRIEVER = Symbol('PASSAGE_RETRIEVER');
export const RETRIEVAL_ENV = Symbol('RETRIEVAL_ENV');

export const passageRetrieverProvider: Provider = {
  provide: PASSAGE_RETRIEVER,
  inject: [DataSource, RETRIEVAL_ENV],
  useFactory: (ds: DataSource, env: RetrievalEnv): PassageRetriever =>
    new PostgresBm25Retriever(ds, { k1: env.RETRIEVAL_BM25_K1, b: env.RETRIEVAL_BM25_B }),
};
