import 'reflect-metadata';
import { loadConfig } from '@docintel/config';
import { BuiltinEmbedder } from './builtin-embedder';
import { createEmbedder } from './create-embedder';
import { EmbeddingsEnv } from './embeddings-env';
import { dot, normalize } from '../vectors/vector-math';

// The real model, from node_modules. Its worker shuts the network off before loading, so these
// tests would fail if anything tried to download.

const cosine = (a: Float32Array, b: Float32Array) => dot(normalize(a), normalize(b));

describe('BuiltinEmbedder', () => {
  const embedder = new BuiltinEmbedder({ batchSize: 2, maxChars: 2000 });
  afterAll(() => embedder.close());

  it('names the model and its version, 512 dimensions', () => {
    expect(embedder.model).toMatch(/^builtin:universal-sentence-encoder-lite@\d+\.\d+\.\d+$/);
    expect(embedder.dimensions).toBe(512);
  });

  it('places paraphrases closer than unrelated sentences', async () => {
    const [age, age2, weather, invoice, bill] = await embedder.embed([
      'How old are you?',
      'What is your age?',
      'The weather is sunny and warm today.',
      'The invoice is due at the end of the month.',
      'Payment of the bill is expected within thirty days.',
    ]);
    expect(age).toHaveLength(512);
    expect(cosine(age, age2)).toBeGreaterThan(cosine(age, weather) + 0.3);
    expect(cosine(invoice, bill)).toBeGreaterThan(cosine(invoice, weather) + 0.2);
  });

  it('keeps the order of the texts across batches; the same text gives the same vector', async () => {
    const texts = ['alpha particle', 'quarterly revenue', 'alpha particle', 'mitochondria', 'quarterly revenue'];
    const vectors = await embedder.embed(texts);
    expect(vectors).toHaveLength(5);
    // Equal up to float rounding, which depends on the batch a text is computed in.
    expect(cosine(vectors[2], vectors[0])).toBeCloseTo(1, 5);
    expect(cosine(vectors[4], vectors[1])).toBeCloseTo(1, 5);
    expect(cosine(vectors[0], vectors[1])).toBeLessThan(0.9);
    const [single] = await embedder.embed(['mitochondria']);
    expect(cosine(single, vectors[3])).toBeCloseTo(1, 4);
  });

  it('embeds empty and very long texts without failing the batch', async () => {
    const long = 'The parties agree to the terms below. '.repeat(2000);
    const vectors = await embedder.embed(['', '   ', long]);
    expect(vectors.map((v) => v.length)).toEqual([512, 512, 512]);
    expect(vectors.every((v) => v.every(Number.isFinite))).toBe(true);
  });

  it('answers nothing for nothing, and starts again after close()', async () => {
    expect(await embedder.embed([])).toEqual([]);
    await embedder.close();
    const [v] = await embedder.embed(['back again']);
    expect(v).toHaveLength(512);
  });
});

describe('BuiltinEmbedder past its worker memory limit', () => {
  // Any model call leaves more than 1 MiB of WebAssembly memory, so every call retires its worker.
  const recycling = new BuiltinEmbedder({ batchSize: 2, maxChars: 2000, maxWorkerMemoryMib: 1 });
  const keeping = new BuiltinEmbedder({ batchSize: 2, maxChars: 2000, maxWorkerMemoryMib: 0 });
  afterAll(() => Promise.all([recycling.close(), keeping.close()]));
  const texts = ['The invoice is due at the end of the month.', 'Mitochondria are the powerhouse of the cell.'];

  it('replaces its worker after a call and answers the same vectors from the new one', async () => {
    const first = await recycling.embed(texts);
    expect(recycling.workerStats).toMatchObject({ started: 1, wasmBytes: 0 });
    const second = await recycling.embed(texts);
    expect(recycling.workerStats.started).toBe(2);
    expect(second).toEqual(first);
    expect(await keeping.embed(texts)).toEqual(first);
  });

  it('keeps one worker, whatever its size, when the limit is 0', async () => {
    await keeping.embed(texts);
    await keeping.embed(['a third call']);
    expect(keeping.workerStats.started).toBe(1);
    expect(keeping.workerStats.wasmBytes).toBeGreaterThan(1048576);
  });
});

describe('BuiltinEmbedder with a character budget per model call', () => {
  const unbounded = new BuiltinEmbedder({ batchSize: 32, maxChars: 2000, maxBatchChars: 0, maxWorkerMemoryMib: 0 });
  const bounded = new BuiltinEmbedder({ batchSize: 32, maxChars: 2000, maxBatchChars: 4000, maxWorkerMemoryMib: 0 });
  afterAll(() => Promise.all([unbounded.close(), bounded.close()]));

  it('embeds long texts in smaller calls, with less memory and the same vectors', async () => {
    const texts = Array.from({ length: 16 }, (_, i) => `Clause ${i}: the parties agree to the terms below. `.repeat(40));
    const whole = await unbounded.embed(texts);
    const split = await bounded.embed(texts);
    expect(split).toHaveLength(16);
    split.forEach((v, i) => expect(cosine(v, whole[i])).toBeCloseTo(1, 4));
    // One call of 16 texts of 2,000 characters grows the heap by tens of MiB; calls of two, by a few.
    expect(unbounded.workerStats.wasmBytes - bounded.workerStats.wasmBytes).toBeGreaterThan(16 * 1048576);
  }, 120_000);
});

describe('BuiltinEmbedder as EMBEDDINGS_* configure it', () => {
  const made: BuiltinEmbedder[] = [];
  const builtin = (vars: Record<string, string> = {}): BuiltinEmbedder => {
    const embedder = createEmbedder(loadConfig(EmbeddingsEnv, vars)) as BuiltinEmbedder;
    made.push(embedder);
    return embedder;
  };
  afterAll(() => Promise.all(made.map((e) => e.close())));
  const short = Array.from({ length: 40 }, (_, i) => `Invoice line ${i}`);
  // Cut to EMBEDDINGS_MAX_CHARS (2,000): four of them make 8,000 characters.
  const long = Array.from({ length: 10 }, (_, i) => `Clause ${i}: the parties agree to the terms below. `.repeat(60));

  it('by default makes model calls of at most 16 texts and 8,000 characters', async () => {
    const embedder = builtin();
    expect(await embedder.embed(short)).toHaveLength(40);
    expect(embedder.workerStats.calls).toBe(3); // 16 + 16 + 8
    expect(await embedder.embed(long)).toHaveLength(10);
    expect(embedder.workerStats.calls).toBe(3 + 3); // 4 + 4 + 2
  }, 120_000);

  it('takes EMBEDDINGS_BATCH_SIZE and EMBEDDINGS_MAX_BATCH_CHARS instead when they are set', async () => {
    const embedder = builtin({ EMBEDDINGS_BATCH_SIZE: '40', EMBEDDINGS_MAX_BATCH_CHARS: '0' });
    await embedder.embed(short);
    await embedder.embed(long);
    expect(embedder.workerStats.calls).toBe(2);
  }, 120_000);
});
