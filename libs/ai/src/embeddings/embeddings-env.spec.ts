import 'reflect-metadata';
import { ConfigError, loadConfig } from '@docintel/config';
import { BuiltinEmbedder } from './builtin-embedder';
import { createEmbedder } from './create-embedder';
import { EmbeddingsEnv } from './embeddings-env';

describe('EmbeddingsEnv', () => {
  const problems = (env: Record<string, string>): string[] => {
    try {
      loadConfig(EmbeddingsEnv, env);
      return [];
    } catch (e) {
      return (e as ConfigError).problems;
    }
  };

  it('defaults to the built-in offline embedder without further settings', () => {
    const env = loadConfig(EmbeddingsEnv, {});
    expect(env).toMatchObject({
      EMBEDDINGS_PROVIDER: 'builtin',
      EMBEDDINGS_MAX_RETRIES: 3,
      EMBEDDINGS_MAX_CHARS: 2000,
      EMBEDDINGS_MAX_BATCH_CHARS: 8_000,
      EMBEDDINGS_WORKER_MAX_MEMORY_MIB: 256,
    });
    // Unset: each provider's own default (16 texts per call for builtin, 32 per request for the others).
    expect(env.EMBEDDINGS_BATCH_SIZE).toBeUndefined();
    expect(createEmbedder(env)).toBeInstanceOf(BuiltinEmbedder);
  });

  it('requires a model and its dimensions for remote providers, naming the variables', () => {
    const found = problems({ EMBEDDINGS_PROVIDER: 'ollama' });
    expect(found).toEqual([
      'EMBEDDINGS_MODEL (unset): is required when EMBEDDINGS_PROVIDER is openai or ollama',
      "EMBEDDINGS_DIMENSIONS (unset): is required when EMBEDDINGS_PROVIDER is openai or ollama: the length of the model's vectors, an integer from 1 to 16384",
    ]);
  });

  it('rejects an unknown provider, a base URL that is not http(s), zero dimensions and a batch size of 0', () => {
    const found = problems({
      EMBEDDINGS_PROVIDER: 'cohere',
      EMBEDDINGS_BASE_URL: 'ftp://example',
      EMBEDDINGS_MODEL: 'm',
      EMBEDDINGS_DIMENSIONS: '0',
      EMBEDDINGS_BATCH_SIZE: '0',
    });
    expect(found).toEqual([
      'EMBEDDINGS_PROVIDER ("cohere"): must be one of builtin, openai, ollama, local-onnx',
      'EMBEDDINGS_BASE_URL ("ftp://example"): must be an http(s) URL',
      expect.stringMatching(/^EMBEDDINGS_DIMENSIONS \("0"\): is required/),
      expect.stringMatching(/^EMBEDDINGS_BATCH_SIZE \("0"\): must not be less than 1/),
    ]);
  });

  it('uses the provider’s usual address when no base URL is given', () => {
    const remote = { EMBEDDINGS_MODEL: 'm', EMBEDDINGS_DIMENSIONS: '3' };
    expect(createEmbedder(loadConfig(EmbeddingsEnv, { ...remote, EMBEDDINGS_PROVIDER: 'openai' })).model).toBe('openai:m');
    expect(createEmbedder(loadConfig(EmbeddingsEnv, { ...remote, EMBEDDINGS_PROVIDER: 'ollama' })).dimensions).toBe(3);
  });

  it('stores vectors as auto by default and names VECTOR_STORAGE when its value is unknown', () => {
    expect(loadConfig(EmbeddingsEnv, {}).VECTOR_STORAGE).toBe('auto');
    expect(loadConfig(EmbeddingsEnv, { VECTOR_STORAGE: 'bytea' }).VECTOR_STORAGE).toBe('bytea');
    expect(problems({ VECTOR_STORAGE: 'faiss' })).toEqual(['VECTOR_STORAGE ("faiss"): must be one of auto, pgvector, bytea']);
  });

  it('turns the worker memory limit and the characters per call off with 0, and names them when invalid', () => {
    expect(loadConfig(EmbeddingsEnv, { EMBEDDINGS_WORKER_MAX_MEMORY_MIB: '0', EMBEDDINGS_MAX_BATCH_CHARS: '0' })).toMatchObject({
      EMBEDDINGS_WORKER_MAX_MEMORY_MIB: 0,
      EMBEDDINGS_MAX_BATCH_CHARS: 0,
    });
    expect(problems({ EMBEDDINGS_WORKER_MAX_MEMORY_MIB: 'lots', EMBEDDINGS_MAX_BATCH_CHARS: '-1' })).toEqual([
      expect.stringMatching(/^EMBEDDINGS_MAX_BATCH_CHARS \("-1"\): must not be less than 0/),
      expect.stringMatching(/^EMBEDDINGS_WORKER_MAX_MEMORY_MIB \("lots"\): .*must be an integer number of MiB$/),
    ]);
  });
});
