import { Inject, Injectable, type OnApplicationShutdown, type Provider } from '@nestjs/common';
import {
  LlmEnv,
  OnnxAnsweringEnv,
  createLlmReader,
  createOnnxReader,
  createOnnxReranker,
  type PassageReranker,
  type Reader,
} from '@docintel/answering';
import { loadConfig } from '@docintel/config';
import { builtinReader, type JobsEnv } from '../jobs.env';
import { READER, RERANKER } from './reader.token';

/**
 * The engine ANSWERING_ENGINE names, built at start-up so that its variables (LLM_*, READER_MODEL_DIR,
 * ...) are validated then and a bad one stops the process with a message naming it.
 */
export function createReader(env: JobsEnv): Reader {
  switch (env.ANSWERING_ENGINE) {
    case 'builtin':
      return builtinReader(env);
    case 'llm':
      return createLlmReader(loadConfig(LlmEnv));
    case 'local-onnx':
      return createOnnxReader(onnxEnv(env));
  }
}

/** The ONNX variables, read knowing which engine answers (READER_MODEL_DIR is required only for local-onnx). */
const onnxEnv = (env: JobsEnv) => loadConfig(OnnxAnsweringEnv, { ...process.env, ANSWERING_ENGINE: env.ANSWERING_ENGINE });

/** The cross-encoder RERANKER_MODEL_DIR names (any engine), or null. */
export function createReranker(env: JobsEnv): PassageReranker | null {
  return createOnnxReranker(onnxEnv(env)) ?? null;
}

/** Closes an engine that holds resources (an ONNX session's worker thread) when the service stops. */
@Injectable()
export class ReaderLifecycle implements OnApplicationShutdown {
  constructor(
    @Inject(READER) private readonly reader: Reader,
    @Inject(RERANKER) private readonly reranker: PassageReranker | null,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    const closable = this.reader as Reader & { close?: () => Promise<void> };
    await closable.close?.();
    await this.reranker?.close();
  }
}

export function readerProviders(env: JobsEnv): Provider[] {
  return [
    { provide: READER, useFactory: () => createReader(env) },
    { provide: RERANKER, useFactory: () => createReranker(env) },
  ];
}
