import 'reflect-metadata';
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '@docintel/config';
import { writeTinyBertModel } from '@docintel/testing';
import { dot } from '../vectors/vector-math';
import { createEmbedder } from './create-embedder';
import { EmbeddingError } from './embedder';
import { EmbeddingsEnv } from './embeddings-env';
import { OnnxEmbedder } from './onnx-embedder';

// A tiny random-weight encoder generated here, run by ONNX Runtime for real.

const WORDS = ['the', 'invoice', 'is', 'due', 'payment', 'bill', 'weather', 'sunny', 'today', 'in', 'thirty', 'days', '.'];

describe('OnnxEmbedder', () => {
  const root = mkdtempSync(join(tmpdir(), 'onnx-embedder-'));
  const dir = writeTinyBertModel(join(root, 'mini-encoder'), { head: 'encoder', vocab: WORDS, hidden: 12 });
  const options = { modelDir: dir, batchSize: 2, maxChars: 2000, threads: 1, maxQueue: 16 };
  const embedders: OnnxEmbedder[] = [];
  const open = (extra: Partial<typeof options> & { pooling?: 'mean' | 'cls' } = {}) => {
    const e = new OnnxEmbedder({ ...options, ...extra });
    embedders.push(e);
    return e;
  };
  afterAll(async () => {
    await Promise.all(embedders.map((e) => e.close()));
    rmSync(root, { recursive: true, force: true });
  });

  it('takes its dimensions from config.json and names the folder and a fingerprint of the weights', () => {
    const embedder = open();
    expect(embedder.dimensions).toBe(12);
    expect(embedder.model).toMatch(/^local-onnx:mini-encoder@[0-9a-f]{12}$/);
    expect(embedder.pooling).toBe('mean');
  });

  it('returns one unit vector per text, in order, the same whatever the batch and its padding', async () => {
    const embedder = open();
    const texts = ['the invoice is due in thirty days.', 'payment', 'sunny weather today', 'the invoice is due in thirty days.', ''];
    const vectors = await embedder.embed(texts);
    expect(vectors).toHaveLength(5);
    for (const v of vectors) {
      expect(v).toHaveLength(12);
      expect(dot(v, v)).toBeCloseTo(1, 5);
    }
    expect(dot(vectors[0], vectors[3])).toBeCloseTo(1, 5);
    expect(dot(vectors[0], vectors[1])).toBeLessThan(0.999);
    // "payment" was padded to the length of the first text in its batch; alone it is not padded.
    const [alone] = await embedder.embed(['payment']);
    expect(dot(alone, vectors[1])).toBeCloseTo(1, 5);
  });

  it('pools the [CLS] vector when asked, or when 1_Pooling/config.json says so', async () => {
    const cls = open({ pooling: 'cls' });
    const mean = open();
    const [a] = await cls.embed(['the weather today']);
    const [b] = await mean.embed(['the weather today']);
    expect(dot(a, b)).toBeLessThan(0.999);
    const bge = writeTinyBertModel(join(root, 'bge-like'), { head: 'encoder', vocab: WORDS, hidden: 12 });
    mkdirSync(join(bge, '1_Pooling'));
    writeFileSync(join(bge, '1_Pooling/config.json'), JSON.stringify({ word_embedding_dimension: 12, pooling_mode_cls_token: true }));
    expect(open({ modelDir: bge }).pooling).toBe('cls');
  });

  it('rejects with EmbeddingError when the graph is not a sentence encoder', async () => {
    const qa = writeTinyBertModel(join(root, 'qa'), { head: 'qa', vocab: WORDS });
    const error = await open({ modelDir: qa })
      .embed(['the invoice'])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmbeddingError);
    expect((error as Error).message).toMatch(
      /is not a sentence encoder: .*it has inputs input_ids, attention_mask, token_type_ids and outputs start_logits, end_logits/,
    );
  });

  it('is chosen with EMBEDDINGS_PROVIDER=local-onnx; a missing or incomplete folder stops start-up naming the variable and the file', () => {
    const env = loadConfig(EmbeddingsEnv, { EMBEDDINGS_PROVIDER: 'local-onnx', EMBEDDINGS_MODEL_DIR: dir, ONNX_THREADS: '2' });
    expect(env.ONNX_THREADS).toBe(2);
    const embedder = createEmbedder(env);
    expect(embedder).toBeInstanceOf(OnnxEmbedder);
    embedders.push(embedder as OnnxEmbedder);

    const problems = (vars: Record<string, string>): string[] => {
      try {
        loadConfig(EmbeddingsEnv, vars);
        return [];
      } catch (e) {
        return (e as ConfigError).problems;
      }
    };
    expect(problems({ EMBEDDINGS_PROVIDER: 'local-onnx' })).toEqual([
      'EMBEDDINGS_MODEL_DIR (unset): must be an absolute path to a model folder with tokenizer.json, config.json, model.onnx: the variable is not set',
    ]);
    const partial = writeTinyBertModel(join(root, 'partial'), { head: 'encoder', vocab: WORDS });
    unlinkSync(join(partial, 'model.onnx'));
    expect(
      problems({ EMBEDDINGS_PROVIDER: 'local-onnx', EMBEDDINGS_MODEL_DIR: partial, EMBEDDINGS_POOLING: 'max', ONNX_THREADS: '0' }),
    ).toEqual([
      `EMBEDDINGS_MODEL_DIR ("${partial}"): must be an absolute path to a model folder with tokenizer.json, config.json, model.onnx: model.onnx is missing from ${partial}`,
      'EMBEDDINGS_POOLING ("max"): must be one of mean, cls',
      expect.stringMatching(/^ONNX_THREADS \("0"\): must not be less than 1/),
    ]);
    // Remote settings are not required for a local model.
    expect(problems({ EMBEDDINGS_PROVIDER: 'local-onnx', EMBEDDINGS_MODEL_DIR: 'models/encoder' })).toEqual([
      expect.stringContaining('models/encoder is not an absolute path'),
    ]);
  });
});
