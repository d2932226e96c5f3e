import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { createEmbedder, NodeVectorStore, type Embedder, type EmbeddingsEnv } from '@docintel/ai';

export const EMBEDDINGS_ENV = Symbol('EMBEDDINGS_ENV');

/**
 * The process's embedder (EMBEDDINGS_PROVIDER: the built-in model, or an OpenAI-compatible or
 * Ollama endpoint through LangChain) and the vector store of its model. The model loads on the
 * first batch, not at start-up, and is released on shutdown. The vector storage (VECTOR_STORAGE)
 * is settled at start-up: a conversion of stored vectors, or a missing pgvector, happens (or stops
 * the process) before the service takes work.
 */
@Injectable()
export class Embeddings implements OnModuleInit, OnApplicationShutdown {
  readonly embedder: Embedder;
  readonly store: NodeVectorStore;
  readonly maxChars: number;

  constructor(@Inject(EMBEDDINGS_ENV) env: EmbeddingsEnv, ds: DataSource) {
    this.embedder = createEmbedder(env);
    this.store = new NodeVectorStore(ds, {
      model: this.embedder.model,
      dimensions: this.embedder.dimensions,
      storage: env.VECTOR_STORAGE,
    });
    this.maxChars = env.EMBEDDINGS_MAX_CHARS;
  }

  async onModuleInit(): Promise<void> {
    await this.store.prepare();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.embedder.close();
  }
}
