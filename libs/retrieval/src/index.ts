export * from './passage-retriever';
export * from './analysis/analyzer';
export * from './analysis/porter-stemmer';
export * from './fusion/rrf';
export * from './postgres/postgres-bm25-retriever';
export * from './postgres/retrieval.migration';
