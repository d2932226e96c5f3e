import { Worker } from 'node:worker_threads';
import { OnnxError } from './onnx-error';

/** An int64 input tensor: row-major data and its shape. */
export interface Int64Feed {
  data: BigInt64Array;
  dims: number[];
}

/** A float32 output tensor: row-major data and its shape. */
export interface Float32Output {
  data: Float32Array;
  dims: number[];
}

export interface OnnxSessionOptions {
  /** Path of model.onnx. */
  modelPath: string;
  /** Threads ONNX Runtime uses inside one run (intra-op). */
  threads: number;
  /** Runs that may wait for the model at once, the one running included; more are refused with QUEUE_FULL. */
  maxQueue: number;
}

/** The graph's names, known once the model has loaded. */
export interface OnnxGraphInfo {
  inputNames: string[];
  outputNames: string[];
}

/**
 * The worker's code, plain CommonJS so that it runs the same from dist/ and under the test runner.
 * It owns the only reference to ONNX Runtime: the native session lives in this thread, runs one
 * request at a time (ONNX Runtime parallelises inside a run, with `threads` threads) and is released
 * before the thread ends.
 */
const WORKER_SOURCE = String.raw`
const { parentPort, workerData } = require('node:worker_threads');
const ort = require(workerData.runtime);
const message = (err) => String((err && err.message) || err);
const loading = ort.InferenceSession.create(workerData.modelPath, {
  intraOpNumThreads: workerData.threads,
  interOpNumThreads: 1,
  executionMode: 'sequential',
  graphOptimizationLevel: 'all',
  logSeverityLevel: 3,
});
loading.then(
  (s) => parentPort.postMessage({ kind: 'ready', inputNames: [...s.inputNames], outputNames: [...s.outputNames] }),
  (err) => parentPort.postMessage({ kind: 'load-failed', error: message(err) }),
);
let queue = Promise.resolve();
parentPort.on('message', (msg) => {
  queue = queue.then(async () => {
    if (msg.kind === 'close') {
      try { await (await loading).release(); } catch {}
      parentPort.postMessage({ kind: 'closed' });
      return;
    }
    try {
      const session = await loading;
      const feeds = {};
      for (const [name, f] of Object.entries(msg.feeds)) feeds[name] = new ort.Tensor('int64', f.data, f.dims);
      const result = await session.run(feeds, msg.outputs);
      const outputs = {};
      const transfer = [];
      for (const name of msg.outputs) {
        const t = result[name];
        if (t.type !== 'float32') throw new Error('output ' + name + ' is ' + t.type + ', not float32');
        const whole = t.data.byteOffset === 0 && t.data.byteLength === t.data.buffer.byteLength;
        const data = whole ? t.data : t.data.slice();
        outputs[name] = { data, dims: [...t.dims] };
        transfer.push(data.buffer);
      }
      parentPort.postMessage({ kind: 'result', id: msg.id, outputs }, transfer);
    } catch (err) {
      parentPort.postMessage({ kind: 'error', id: msg.id, error: message(err) });
    }
  });
});
`;

type Reply =
  | { kind: 'ready'; inputNames: string[]; outputNames: string[] }
  | { kind: 'load-failed'; error: string }
  | { kind: 'result'; id: number; outputs: Record<string, Float32Output> }
  | { kind: 'error'; id: number; error: string }
  | { kind: 'closed' };

interface Pending {
  resolve(outputs: Record<string, Float32Output>): void;
  reject(err: Error): void;
}

interface Running {
  worker: Worker;
  ready: Promise<OnnxGraphInfo>;
  closed?: () => void;
}

const CLOSE_TIMEOUT_MS = 5000;

/**
 * One ONNX Runtime inference session in its own worker thread, so that inference (tens to hundreds of
 * milliseconds per call) never blocks the event loop, and with it RPC and NATS heartbeats. The worker
 * starts on the first call and loads the model; requests are answered in order, and at most `maxQueue`
 * may wait. close() releases the session and ends the thread; a later call starts it again.
 */
export class OnnxSession {
  private running?: Running;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  constructor(private readonly options: OnnxSessionOptions) {}

  /** The graph's input and output names; loads the model if needed. Rejects with MODEL_LOAD_FAILED. */
  info(): Promise<OnnxGraphInfo> {
    return this.start().ready;
  }

  /** Runs the model on int64 inputs and returns the named float32 outputs. */
  async run(feeds: Record<string, Int64Feed>, outputs: string[]): Promise<Record<string, Float32Output>> {
    if (this.pending.size >= this.options.maxQueue) {
      throw new OnnxError(
        'QUEUE_FULL',
        `${this.pending.size} requests already wait for the model ${this.options.modelPath}; try again later or raise ONNX_QUEUE_SIZE`,
      );
    }
    const running = this.start();
    const id = this.nextId++;
    const result = new Promise<Record<string, Float32Output>>((resolve, reject) => this.pending.set(id, { resolve, reject }));
    // Keep the process alive only while work is in flight.
    running.worker.ref();
    running.worker.postMessage({ kind: 'run', id, feeds, outputs });
    return result;
  }

  /** Releases the session and ends its thread; what was waiting is rejected with SESSION_CLOSED. */
  async close(): Promise<void> {
    const running = this.running;
    if (!running) return;
    this.running = undefined;
    this.failAll(new OnnxError('SESSION_CLOSED', `The model ${this.options.modelPath} was closed`));
    const closed = new Promise<void>((resolve) => {
      running.closed = resolve;
      setTimeout(resolve, CLOSE_TIMEOUT_MS).unref();
    });
    running.worker.postMessage({ kind: 'close' });
    await closed;
    await running.worker.terminate();
  }

  /** Whether a worker thread is running (for tests and health reporting). */
  get started(): boolean {
    return this.running !== undefined;
  }

  private start(): Running {
    if (this.running) return this.running;
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { runtime: require.resolve('onnxruntime-node'), modelPath: this.options.modelPath, threads: this.options.threads },
    });
    worker.unref();
    let loaded!: (info: OnnxGraphInfo) => void;
    let failed!: (err: Error) => void;
    const ready = new Promise<OnnxGraphInfo>((resolve, reject) => {
      loaded = resolve;
      failed = reject;
    });
    // A caller that never asks for info() must not see an unhandled rejection.
    ready.catch(() => undefined);
    const running: Running = { worker, ready };
    worker.on('message', (reply: Reply) => {
      switch (reply.kind) {
        case 'ready':
          loaded({ inputNames: reply.inputNames, outputNames: reply.outputNames });
          break;
        case 'load-failed': {
          const err = new OnnxError('MODEL_LOAD_FAILED', `ONNX Runtime could not load ${this.options.modelPath}: ${reply.error}`);
          failed(err);
          this.stop(running, err);
          break;
        }
        case 'result':
          this.settle(reply.id, (p) => p.resolve(reply.outputs));
          break;
        case 'error':
          this.settle(reply.id, (p) =>
            p.reject(new OnnxError('INFERENCE_FAILED', `The model ${this.options.modelPath} failed: ${reply.error}`)),
          );
          break;
        case 'closed':
          running.closed?.();
          break;
      }
    });
    worker.on('error', (err) => {
      const error = new OnnxError('SESSION_CLOSED', `The worker of the model ${this.options.modelPath} crashed: ${err.message}`, {
        cause: err,
      });
      failed(error);
      this.stop(running, error);
    });
    worker.on('exit', (code) => {
      const error = new OnnxError('SESSION_CLOSED', `The worker of the model ${this.options.modelPath} stopped (exit code ${code})`);
      failed(error);
      running.closed?.();
      this.stop(running, error);
    });
    this.running = running;
    return running;
  }

  private settle(id: number, act: (p: Pending) => void): void {
    const waiter = this.pending.get(id);
    if (!waiter) return;
    this.pending.delete(id);
    if (this.pending.size === 0) this.running?.worker.unref();
    act(waiter);
  }

  /** A worker that failed ends what it was doing; the next call starts a new one. */
  private stop(running: Running, err: OnnxError): void {
    if (this.running !== running) return;
    this.running = undefined;
    this.failAll(err);
    void running.worker.terminate();
  }

  private failAll(err: OnnxError): void {
    for (const waiter of this.pending.values()) waiter.reject(err);
    this.pending.clear();
  }
}
