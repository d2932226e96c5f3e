import { BUILTIN_CALL_DEFAULTS, BuiltinEmbedder } from './builtin-embedder';
import type { Embedder } from './embedder';
import type { EmbeddingsEnv } from './embeddings-env';
import { ollamaEmbedder, openAIEmbedder, type RemoteEmbedderOptions } from './langchain-embedder';
import { OnnxEmbedder } from './onnx-embedder';

const DEFAULT_BASE_URLS = { openai: 'https://api.openai.com/v1', ollama: 'http://127.0.0.1:11434' } as const;
/** Texts per request of the remote and ONNX providers when EMBEDDINGS_BATCH_SIZE is unset (builtin: BUILTIN_CALL_DEFAULTS). */
const DEFAULT_BATCH_SIZE = 32;

/** The embedder the configuration names. Nothing is loaded or contacted until the first embed(). */
export function createEmbedder(env: EmbeddingsEnv): Embedder {
  const provider = env.EMBEDDINGS_PROVIDER;
  if (provider === 'builtin') {
    return new BuiltinEmbedder({
      batchSize: env.EMBEDDINGS_BATCH_SIZE ?? BUILTIN_CALL_DEFAULTS.batchSize,
      maxChars: env.EMBEDDINGS_MAX_CHARS,
      maxBatchChars: env.EMBEDDINGS_MAX_BATCH_CHARS,
      maxWorkerMemoryMib: env.EMBEDDINGS_WORKER_MAX_MEMORY_MIB,
    });
  }
  if (provider === 'local-onnx') {
    // EmbeddingsEnv has checked the folder; the dimensions come from its config.json.
    return new OnnxEmbedder({
      modelDir: env.EMBEDDINGS_MODEL_DIR as string,
      pooling: env.EMBEDDINGS_POOLING,
      batchSize: env.EMBEDDINGS_BATCH_SIZE ?? DEFAULT_BATCH_SIZE,
      maxChars: env.EMBEDDINGS_MAX_CHARS,
      threads: env.ONNX_THREADS,
      maxQueue: env.ONNX_QUEUE_SIZE,
    });
  }
  // EmbeddingsEnv requires both for remote providers.
  const options: RemoteEmbedderOptions = {
    baseUrl: env.EMBEDDINGS_BASE_URL ?? DEFAULT_BASE_URLS[provider],
    apiKey: env.EMBEDDINGS_API_KEY,
    model: env.EMBEDDINGS_MODEL as string,
    dimensions: env.EMBEDDINGS_DIMENSIONS as number,
    batchSize: env.EMBEDDINGS_BATCH_SIZE ?? DEFAULT_BATCH_SIZE,
    maxRetries: env.EMBEDDINGS_MAX_RETRIES,
    timeoutMs: env.EMBEDDINGS_TIMEOUT_MS,
    maxChars: env.EMBEDDINGS_MAX_CHARS,
  };
  return provider === 'openai' ? openAIEmbedder(options) : ollamaEmbedder(options);
}
