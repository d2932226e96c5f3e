import { Type } from 'class-transformer';
import { IsIn, IsNotEmpty, IsOptional, IsString, ValidateBy, ValidateIf } from 'class-validator';
import { IsHttpUrlVar, IsIntegerVar } from '@docintel/config';
import { DEFAULT_ONNX_QUEUE_SIZE, DEFAULT_ONNX_THREADS, IsModelDirVar, IsOnnxQueueSizeVar, IsOnnxThreadsVar } from '../onnx/onnx-env';
import { BUILTIN_CALL_DEFAULTS } from './builtin-embedder';
import { ONNX_POOLING_MODES, type OnnxPooling } from './onnx-embedder';
import { VECTOR_STORAGES, type VectorStorage } from '../vectors/node-vector-store';

export const EMBEDDINGS_PROVIDERS = ['builtin', 'openai', 'ollama', 'local-onnx'] as const;
export type EmbeddingsProvider = (typeof EMBEDDINGS_PROVIDERS)[number];

const remote = (env: EmbeddingsEnv) => env.EMBEDDINGS_PROVIDER !== 'builtin' && env.EMBEDDINGS_PROVIDER !== 'local-onnx';
const localOnnx = (env: EmbeddingsEnv) => env.EMBEDDINGS_PROVIDER === 'local-onnx';
const REQUIRED = 'is required when EMBEDDINGS_PROVIDER is openai or ollama';
const MAX_DIMENSIONS = 16_384;

/** One constraint, so that an unset variable gets one message rather than three. */
function IsDimensionCount(): PropertyDecorator {
  return ValidateBy({
    name: 'isDimensionCount',
    validator: {
      validate: (value: unknown) => Number.isInteger(value) && (value as number) >= 1 && (value as number) <= MAX_DIMENSIONS,
      defaultMessage: () => `${REQUIRED}: the length of the model's vectors, an integer from 1 to ${MAX_DIMENSIONS}`,
    },
  });
}

/**
 * Which embedder a service uses. `builtin` runs offline from a model shipped in an npm package;
 * `openai` talks to any OpenAI-compatible /v1/embeddings endpoint (OpenAI, vLLM, llama.cpp, LiteLLM,
 * Ollama's /v1) and `ollama` to Ollama's native /api/embed, both through LangChain. `local-onnx` runs a
 * sentence encoder exported to ONNX from a folder the operator mounts (EMBEDDINGS_MODEL_DIR).
 */
export class EmbeddingsEnv {
  @IsIn(EMBEDDINGS_PROVIDERS, { message: `must be one of ${EMBEDDINGS_PROVIDERS.join(', ')}` })
  EMBEDDINGS_PROVIDER: EmbeddingsProvider = 'builtin';

  /** openai: defaults to https://api.openai.com/v1; ollama: defaults to http://127.0.0.1:11434. */
  @IsOptional()
  @IsHttpUrlVar()
  EMBEDDINGS_BASE_URL?: string;

  @IsOptional()
  @IsString()
  EMBEDDINGS_API_KEY?: string;

  /** The provider's model name, for example text-embedding-3-small or nomic-embed-text. Ignored by builtin. */
  @ValidateIf(remote)
  @IsNotEmpty({ message: REQUIRED })
  EMBEDDINGS_MODEL?: string;

  /** The length of the model's vectors; every answer is checked against it. Required for remote providers. */
  @ValidateIf(remote)
  @Type(() => Number)
  @IsDimensionCount()
  EMBEDDINGS_DIMENSIONS?: number;

  /**
   * Texts per request (remote, local-onnx: 32 when unset) or per model call (builtin: 16 when unset,
   * see BUILTIN_CALL_DEFAULTS).
   */
  @IsOptional()
  @IsIntegerVar(1, 2048, 'must be an integer')
  EMBEDDINGS_BATCH_SIZE?: number;

  /** Retries of a failed request, with LangChain's exponential back-off. Remote providers only. */
  @IsIntegerVar(0, 10, 'must be an integer')
  EMBEDDINGS_MAX_RETRIES = 3;

  /** Time limit of one request to a remote provider. */
  @IsIntegerVar(100, 600_000, 'must be an integer number of milliseconds')
  EMBEDDINGS_TIMEOUT_MS = 30_000;

  /**
   * Texts are cut to this many characters before embedding: the built-in model's cost grows with the
   * length of the text, and remote models reject inputs above their context.
   */
  @IsIntegerVar(16, 1_000_000, 'must be an integer')
  EMBEDDINGS_MAX_CHARS = 2000;

  /**
   * builtin: a model call takes no more texts than make this many characters together, so that one
   * call of long texts cannot grow the worker's memory by hundreds of MiB. 0: EMBEDDINGS_BATCH_SIZE alone.
   */
  @IsIntegerVar(0, 10_000_000, 'must be an integer number of characters')
  EMBEDDINGS_MAX_BATCH_CHARS: number = BUILTIN_CALL_DEFAULTS.maxBatchChars;

  /**
   * builtin: the model's worker is replaced, once idle, when its WebAssembly memory has grown past
   * this many MiB (that memory only grows, to fit the largest call it served). 0 never replaces it.
   */
  @IsIntegerVar(0, 65_536, 'must be an integer number of MiB')
  EMBEDDINGS_WORKER_MAX_MEMORY_MIB = 256;

  /** local-onnx: the model folder (tokenizer.json, config.json, model.onnx), checked at start-up. */
  @ValidateIf(localOnnx)
  @IsModelDirVar()
  EMBEDDINGS_MODEL_DIR?: string;

  /** local-onnx: mean or cls; by default what the folder's 1_Pooling/config.json says, else mean. */
  @IsOptional()
  @IsIn(ONNX_POOLING_MODES, { message: `must be one of ${ONNX_POOLING_MODES.join(', ')}` })
  EMBEDDINGS_POOLING?: OnnxPooling;

  /** local-onnx: ONNX Runtime threads per run. */
  @IsOnnxThreadsVar()
  ONNX_THREADS = DEFAULT_ONNX_THREADS;

  /** local-onnx: calls that may wait for the model before more are refused. */
  @IsOnnxQueueSizeVar()
  ONNX_QUEUE_SIZE = DEFAULT_ONNX_QUEUE_SIZE;

  /**
   * Where node vectors live: pgvector (HNSW search; start-up fails without the extension), bytea
   * (any PostgreSQL, scanned in Node) or auto (pgvector when CREATE EXTENSION vector works). The
   * stored vectors are converted at start-up when the table holds the other kind.
   */
  @IsIn(VECTOR_STORAGES, { message: `must be one of ${VECTOR_STORAGES.join(', ')}` })
  VECTOR_STORAGE: VectorStorage = 'auto';
}
