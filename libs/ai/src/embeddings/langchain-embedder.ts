import type { Embeddings } from '@langchain/core/embeddings';
import { OllamaEmbeddings } from '@langchain/ollama';
import { OpenAIEmbeddings } from '@langchain/openai';
import { chunk, EmbeddingError, type Embedder } from './embedder';

export interface RemoteEmbedderOptions {
  baseUrl: string;
  apiKey?: string;
  /** The provider's model name. */
  model: string;
  dimensions: number;
  batchSize: number;
  maxRetries: number;
  timeoutMs: number;
  maxChars: number;
}

/**
 * An embedding endpoint reached through LangChain, which owns the wire format and the retries
 * (exponential back-off with jitter; 4xx answers other than 429 are not retried).
 */
export class LangChainEmbedder implements Embedder {
  readonly model: string;
  readonly dimensions: number;

  constructor(
    private readonly provider: 'openai' | 'ollama',
    private readonly embeddings: Embeddings,
    private readonly options: RemoteEmbedderOptions,
  ) {
    this.model = `${provider}:${options.model}`;
    this.dimensions = options.dimensions;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (const batch of chunk(texts, this.options.batchSize)) {
      let rows: number[][];
      try {
        rows = await this.embeddings.embedDocuments(batch.map((t) => t.slice(0, this.options.maxChars)));
      } catch (err) {
        throw new EmbeddingError(`The ${this.provider} embedding endpoint at ${this.options.baseUrl} failed: ${(err as Error).message}`, {
          cause: err,
        });
      }
      if (rows.length !== batch.length) {
        throw new EmbeddingError(`The ${this.provider} embedding endpoint returned ${rows.length} vectors for ${batch.length} texts`);
      }
      for (const row of rows) {
        if (row.length !== this.dimensions) {
          throw new EmbeddingError(
            `Model ${this.options.model} returned ${row.length}-dimensional vectors but EMBEDDINGS_DIMENSIONS is ${this.dimensions}`,
          );
        }
        out.push(Float32Array.from(row));
      }
    }
    return out;
  }

  async close(): Promise<void> {
    // HTTP clients hold no resources between requests.
  }
}

/** Any OpenAI-compatible POST {baseUrl}/embeddings: OpenAI, vLLM, llama.cpp server, LiteLLM, Ollama's /v1. */
export function openAIEmbedder(options: RemoteEmbedderOptions): LangChainEmbedder {
  const embeddings = new OpenAIEmbeddings({
    model: options.model,
    // The SDK insists on a key; servers without authentication ignore it.
    apiKey: options.apiKey ?? 'unused',
    configuration: { baseURL: options.baseUrl },
    batchSize: options.batchSize,
    maxRetries: options.maxRetries,
    timeout: options.timeoutMs,
    // Plain floats: not every compatible server implements the SDK's default base64 encoding.
    encodingFormat: 'float',
  });
  return new LangChainEmbedder('openai', embeddings, options);
}

/** Ollama's native POST {baseUrl}/api/embed. */
export function ollamaEmbedder(options: RemoteEmbedderOptions): LangChainEmbedder {
  const timed: typeof fetch = (input, init) => fetch(input, { ...init, signal: init?.signal ?? AbortSignal.timeout(options.timeoutMs) });
  const embeddings = new OllamaEmbeddings({
    model: options.model,
    baseUrl: options.baseUrl,
    headers: options.apiKey ? { Authorization: `Bearer ${options.apiKey}` } : undefined,
    maxRetries: options.maxRetries,
    // Ollama cuts inputs longer than the model's context instead of failing the batch.
    truncate: true,
    fetch: timed,
  });
  return new LangChainEmbedder('ollama', embeddings, options);
}
