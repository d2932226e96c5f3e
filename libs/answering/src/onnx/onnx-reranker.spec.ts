import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeTinyBertModel } from '@docintel/testing';
import { OnnxReranker } from './onnx-reranker';

// A tiny cross-encoder generated here: tokens "paris" and "capital" add to the relevance logit.

const WORDS = ['the', 'capital', 'of', 'france', 'is', 'paris', 'weather', 'sunny', 'today', 'invoice', 'due', '.', '?'];

describe('OnnxReranker (cross-encoder on a tiny generated graph)', () => {
  const root = mkdtempSync(join(tmpdir(), 'onnx-reranker-'));
  const dir = writeTinyBertModel(join(root, 'ms-marco-tiny'), {
    head: 'cross-encoder',
    vocab: WORDS,
    plantedRelevance: { paris: 6, capital: 3 },
  });
  const reranker = new OnnxReranker({ modelDir: dir, threads: 1, maxQueue: 8, batchSize: 2 });
  afterAll(async () => {
    await reranker.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('scores each (query, passage) pair, in the order given, relevant passages higher', async () => {
    expect(reranker.name).toBe('local-onnx:ms-marco-tiny');
    const passages = ['The weather is sunny today.', 'The capital of France is Paris.', 'The invoice is due.', 'Paris.'];
    const scores = await reranker.rerank('What is the capital of France?', passages);
    expect(scores).toHaveLength(4);
    const order = passages.map((p, i) => ({ p, s: scores[i] })).sort((a, b) => b.s - a.s);
    expect(order[0].p).toBe('The capital of France is Paris.');
    expect(order[1].p).toBe('Paris.');
    // Batches are padded to their longest pair; a passage scores the same alone.
    const [alone] = await reranker.rerank('What is the capital of France?', ['Paris.']);
    expect(alone).toBeCloseTo(scores[3], 4);
  });

  it('cuts a passage longer than the model input instead of failing', async () => {
    const short = new OnnxReranker({ modelDir: dir, threads: 1, maxQueue: 8, maxSeqLength: 16 });
    try {
      const [score] = await short.rerank('capital?', ['the weather is sunny today. '.repeat(50)]);
      expect(Number.isFinite(score)).toBe(true);
    } finally {
      await short.close();
    }
  });

  it('answers no scores for no passages', async () => {
    expect(await reranker.rerank('anything', [])).toEqual([]);
  });
});
