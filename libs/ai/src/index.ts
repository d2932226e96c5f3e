export * from './embeddings/embedder';
export * from './embeddings/embeddings-env';
export * from './embeddings/builtin-embedder';
export * from './embeddings/langchain-embedder';
export * from './embeddings/create-embedder';
export * from './vectors/vector-math';
export * from './vectors/node-vector-store';
export * from './vectors/node-embeddings.migration';
