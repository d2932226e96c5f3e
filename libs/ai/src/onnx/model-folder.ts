import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { basename, isAbsolute, join, resolve } from 'node:path';
import { createHash } from 'node:crypto';
import { OnnxError } from './onnx-error';

/** The files every model folder holds: the graph, its tokenizer and its Hugging Face configuration. */
export const MODEL_FOLDER_FILES = ['tokenizer.json', 'config.json', 'model.onnx'] as const;

/** The fields of a Hugging Face config.json that the engines read; the rest is kept as given. */
export interface ModelConfig {
  model_type?: string;
  hidden_size?: number;
  /** DistilBERT names it `dim`. */
  dim?: number;
  max_position_embeddings?: number;
  [key: string]: unknown;
}

/** A validated model folder: paths, the parsed configuration and tokenizer, and a fingerprint of the weights. */
export interface ModelFolder {
  /** Absolute path of the folder. */
  dir: string;
  /** The folder's name, used in model ids and messages ("reader", "all-MiniLM-L6-v2"). */
  name: string;
  modelPath: string;
  tokenizerPath: string;
  config: ModelConfig;
  /** tokenizer.json, parsed; WordPieceTokenizer checks its content. */
  tokenizerJson: Record<string, unknown>;
  /** The hidden size from config.json, when it names one. */
  hiddenSize?: number;
  /** The longest input the model accepts, from config.json (position embeddings), when it names it. */
  maxPositions?: number;
  /**
   * 12 hex digits that change when the model changes: a hash of config.json, tokenizer.json, the size of
   * model.onnx and its first and last MiB. Hashing gigabytes of weights at start-up would be slow, and a
   * fine-tuned model differs from its base in all of these.
   */
  fingerprint: string;
}

/** The problems of a folder, one sentence each naming the file; empty when the folder is usable. Synchronous, for config validation. */
export function modelFolderProblems(dir: string): string[] {
  if (!isAbsolute(dir)) return [`${dir} is not an absolute path`];
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    return [`${dir} does not exist or cannot be read`];
  }
  if (!isDir) return [`${dir} is not a folder`];
  const problems: string[] = [];
  for (const file of MODEL_FOLDER_FILES) {
    const path = join(dir, file);
    try {
      const stat = statSync(path);
      if (!stat.isFile()) problems.push(`${file} in ${dir} is not a file`);
      else if (stat.size === 0) problems.push(`${file} in ${dir} is empty`);
    } catch {
      problems.push(`${file} is missing from ${dir}`);
    }
  }
  return problems;
}

function readJson(dir: string, file: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  } catch (err) {
    throw new OnnxError('MODEL_FOLDER_INVALID', `${file} in ${dir} is not valid JSON: ${(err as Error).message}`, { cause: err });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new OnnxError('MODEL_FOLDER_INVALID', `${file} in ${dir} must hold a JSON object`);
  }
  return value as Record<string, unknown>;
}

const positiveInt = (v: unknown): number | undefined => (Number.isInteger(v) && (v as number) > 0 ? (v as number) : undefined);

function fingerprint(dir: string, modelPath: string): string {
  const hash = createHash('sha256');
  hash.update(readFileSync(join(dir, 'config.json')));
  hash.update(readFileSync(join(dir, 'tokenizer.json')));
  const size = statSync(modelPath).size;
  hash.update(String(size));
  const MiB = 1 << 20;
  const fd = openSync(modelPath, 'r');
  try {
    const buf = Buffer.alloc(Math.min(size, MiB));
    readSync(fd, buf, 0, buf.length, 0);
    hash.update(buf);
    if (size > MiB) {
      const tail = Buffer.alloc(Math.min(size - MiB, MiB));
      readSync(fd, tail, 0, tail.length, size - tail.length);
      hash.update(tail);
    }
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex').slice(0, 12);
}

/**
 * Reads and checks a model folder (tokenizer.json, config.json, model.onnx). Throws OnnxError
 * MODEL_FOLDER_INVALID naming the missing or bad file. Synchronous: it runs once, at start-up or on
 * the first call, and reads a few MiB.
 */
export function readModelFolder(dirGiven: string): ModelFolder {
  const dir = resolve(dirGiven);
  const problems = modelFolderProblems(dir);
  if (problems.length) throw new OnnxError('MODEL_FOLDER_INVALID', `The model folder cannot be used: ${problems.join('; ')}`);
  const config = readJson(dir, 'config.json') as ModelConfig;
  const tokenizerJson = readJson(dir, 'tokenizer.json');
  const modelPath = join(dir, 'model.onnx');
  return {
    dir,
    name: basename(dir),
    modelPath,
    tokenizerPath: join(dir, 'tokenizer.json'),
    config,
    tokenizerJson,
    hiddenSize: positiveInt(config.hidden_size) ?? positiveInt(config.dim),
    maxPositions: positiveInt(config.max_position_embeddings),
    fingerprint: fingerprint(dir, modelPath),
  };
}

/** An optional JSON file of the folder (sentence-transformers' 1_Pooling/config.json and the like); undefined when absent. */
export function readOptionalJson(dir: string, file: string): Record<string, unknown> | undefined {
  try {
    statSync(join(dir, file));
  } catch {
    return undefined;
  }
  return readJson(dir, file);
}
