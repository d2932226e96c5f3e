import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { createEmbedder, NodeVectorStore, type Embedder, type EmbeddingsEnv } from '@docintel/ai';

export const EMBEDDINGS_ENV = Symbol('EMBEDDINGS_ENV');

/**
 * The process's embedder (EMBEDDINGS_PROVIDER: the built-in model, or an OpenAI-compatible or
 * Ollama endpoint through LangChain) and the vector store of its model. The model loads on the
 * first batch, not at start-up, and is released on shutdown.
 */
@Injectable()
export class Embeddings implements OnApplicationShutdown {
  readonly embedder: Embedder;
  readonly store: NodeVectorStore;
  readonly maxChars: number;

  constructor(@Inject(EMBEDDINGS_ENV) env: EmbeddingsEnv, ds: DataSource) {
    this.embedder = createEmbedder(env);
    this.store = new NodeVectorStore(ds, { model: this.embedder.model, dimensions: this.embedder.dimensions });
    this.maxChars = env.EMBEDDINGS_MAX_CHARS;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.embedder.close();
  }
}
