import { IsNumber, IsOptional, Max, Min, ValidateIf } from 'class-validator';
import { Type } from 'class-transformer';
import { IsIntegerVar } from '@docintel/config';
import { DEFAULT_ONNX_QUEUE_SIZE, DEFAULT_ONNX_THREADS, IsModelDirVar, IsOnnxQueueSizeVar, IsOnnxThreadsVar } from '@docintel/ai';
import { OnnxReader } from './onnx-reader';
import { OnnxReranker } from './onnx-reranker';

/**
 * The reader's model is required only when it answers: when the class it is read into has no
 * ANSWERING_ENGINE (it is read for the local model alone) or ANSWERING_ENGINE is local-onnx.
 */
const onnxAnswers = (env: object): boolean => {
  const engine = (env as { ANSWERING_ENGINE?: unknown }).ANSWERING_ENGINE;
  return engine === undefined || engine === 'local-onnx';
};

/**
 * The local-onnx answering engine (ANSWERING_ENGINE=local-onnx): an extractive QA model and,
 * optionally, a cross-encoder to rerank retrieved passages, each from a folder the operator mounts.
 * ANSWERING_ENGINE itself is read by the service that chooses the engine.
 */
export class OnnxAnsweringEnv {
  /** The reader's folder (tokenizer.json, config.json, model.onnx), checked at start-up. Required when the local model answers. */
  @ValidateIf((env: OnnxAnsweringEnv) => onnxAnswers(env) || env.READER_MODEL_DIR !== undefined)
  @IsModelDirVar()
  READER_MODEL_DIR?: string;

  /** A cross-encoder's folder; unset: passages keep the retrieval order. Usable with any ANSWERING_ENGINE. */
  @IsOptional()
  @IsModelDirVar()
  RERANKER_MODEL_DIR?: string;

  /** Tokens of one model input (question, passage window, special tokens); at most the model's positions. */
  @IsIntegerVar(32, 4096, 'must be an integer number of tokens')
  READER_MAX_TOKENS = 384;

  /** Tokens consecutive windows of a long passage share. */
  @IsIntegerVar(0, 2048, 'must be an integer number of tokens')
  READER_DOC_STRIDE = 128;

  /** Longest answer, in tokens. */
  @IsIntegerVar(1, 512, 'must be an integer number of tokens')
  READER_MAX_ANSWER_TOKENS = 30;

  /** Below this confidence (0..1, the model's P(start) x P(end)) the reader says it found nothing. */
  @Type(() => Number)
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'must be a number from 0 to 1' })
  @Min(0, { message: 'must be a number from 0 to 1' })
  @Max(1, { message: 'must be a number from 0 to 1' })
  READER_MIN_CONFIDENCE = 0.1;

  @IsOnnxThreadsVar()
  ONNX_THREADS = DEFAULT_ONNX_THREADS;

  @IsOnnxQueueSizeVar()
  ONNX_QUEUE_SIZE = DEFAULT_ONNX_QUEUE_SIZE;
}

/** The reader the configuration names (load OnnxAnsweringEnv with loadConfig first). The model loads on the first answer. */
export function createOnnxReader(env: OnnxAnsweringEnv): OnnxReader {
  if (!env.READER_MODEL_DIR) throw new Error('READER_MODEL_DIR is required when ANSWERING_ENGINE is local-onnx');
  return new OnnxReader({
    modelDir: env.READER_MODEL_DIR,
    threads: env.ONNX_THREADS,
    maxQueue: env.ONNX_QUEUE_SIZE,
    maxSeqLength: env.READER_MAX_TOKENS,
    docStride: env.READER_DOC_STRIDE,
    maxAnswerTokens: env.READER_MAX_ANSWER_TOKENS,
    minConfidence: env.READER_MIN_CONFIDENCE,
  });
}

/** The reranker RERANKER_MODEL_DIR names, or undefined when it is unset. */
export function createOnnxReranker(env: OnnxAnsweringEnv): OnnxReranker | undefined {
  if (!env.RERANKER_MODEL_DIR) return undefined;
  return new OnnxReranker({ modelDir: env.RERANKER_MODEL_DIR, threads: env.ONNX_THREADS, maxQueue: env.ONNX_QUEUE_SIZE });
}
