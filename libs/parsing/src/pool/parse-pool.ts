import { availableParallelism } from 'node:os';
import { extname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { ParseError } from '../errors';
import { ParseLimits, resolveLimits } from '../limits';
import type { ParsedDocument } from '../model';
import type { ParseInput } from '../parser';
import { timeoutError } from '../registry';
import { DEFAULT_OCR_IDLE_MS, type WorkerData, type WorkerReply, type WorkerRequest } from './protocol';

export interface ParsePoolOptions {
  /** Parsing threads; defaults to the number of cores. */
  size?: number;
  /** Defaults for every document; `maxMemoryMb` applies to the threads and cannot change per document. */
  limits?: Partial<ParseLimits>;
  /**
   * How long a thread keeps its OCR engine (hundreds of MiB) after the last document that used it:
   * 15 s by default, so that a run of scans reuses it; 0 for a thread that parses one document.
   */
  ocrIdleMs?: number;
}

interface Task {
  request: Omit<WorkerRequest, 'id'>;
  transfer: ArrayBuffer[];
  resolve: (doc: ParsedDocument) => void;
  reject: (e: ParseError) => void;
}

interface Slot {
  worker: Worker;
  task?: Task & { id: number; timer: NodeJS.Timeout };
}

/** Grace after the cooperative deadline before the thread is terminated. */
const HARD_TIMEOUT_GRACE_MS = 2_000;

/**
 * Runs parsers in a small pool of worker threads so a service stays responsive. Each document gets
 * a hard wall-clock limit (the thread is terminated past it) and each thread a V8 heap limit; a
 * document over a limit, or one that crashes its thread, fails with a ParseError and the thread is
 * replaced.
 */
export class ParsePool {
  private readonly size: number;
  private readonly defaults: ParseLimits;
  private readonly workerData: WorkerData;
  private readonly slots: Slot[] = [];
  private readonly queue: Task[] = [];
  private nextId = 1;
  private closed = false;

  constructor(options: ParsePoolOptions = {}) {
    this.size = Math.max(1, options.size ?? availableParallelism());
    this.defaults = resolveLimits(options.limits);
    this.workerData = { ocrIdleMs: options.ocrIdleMs ?? DEFAULT_OCR_IDLE_MS };
  }

  parse(input: ParseInput, limits?: Partial<ParseLimits>): Promise<ParsedDocument> {
    if (this.closed) return Promise.reject(new ParseError('INTERNAL', 'The parser pool is closed.'));
    const merged = { ...this.defaults, ...(limits ?? {}), maxMemoryMb: this.defaults.maxMemoryMb };
    let source: WorkerRequest['source'];
    const transfer: ArrayBuffer[] = [];
    if (Buffer.isBuffer(input.source)) {
      const copy = new Uint8Array(input.source.length);
      copy.set(input.source);
      source = { bytes: copy.buffer };
      transfer.push(copy.buffer);
    } else source = { path: input.source.path };
    return new Promise<ParsedDocument>((resolve, reject) => {
      this.queue.push({
        request: { source, fileName: input.fileName, mediaType: input.mediaType, limits: merged },
        transfer,
        resolve,
        reject,
      });
      this.dispatch();
    });
  }

  /** Stops all threads; queued documents fail. */
  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.queue.splice(0)) t.reject(new ParseError('INTERNAL', 'The parser pool was closed.'));
    await Promise.all(
      this.slots.splice(0).map(async (s) => {
        if (s.task) {
          clearTimeout(s.task.timer);
          s.task.reject(new ParseError('INTERNAL', 'The parser pool was closed.'));
        }
        await s.worker.terminate();
      }),
    );
  }

  private dispatch(): void {
    while (this.queue.length) {
      let slot = this.slots.find((s) => !s.task);
      if (!slot) {
        if (this.slots.length >= this.size) return;
        slot = this.spawn();
      }
      const task = this.queue.shift()!;
      const id = this.nextId++;
      const timer = setTimeout(
        () => this.fail(slot!, timeoutError(task.request.limits.timeoutMs)),
        task.request.limits.timeoutMs + HARD_TIMEOUT_GRACE_MS,
      );
      slot.task = { ...task, id, timer };
      slot.worker.postMessage({ ...task.request, id } satisfies WorkerRequest, task.transfer);
    }
  }

  private spawn(): Slot {
    const { script, isEval } = workerScript();
    const worker = new Worker(script, {
      eval: isEval,
      workerData: this.workerData,
      resourceLimits: { maxOldGenerationSizeMb: this.defaults.maxMemoryMb, maxYoungGenerationSizeMb: 64, stackSizeMb: 8 },
      // Parser libraries print diagnostics of their own (OCR resolution guesses, font warnings); they
      // are not the service's log lines, so the thread's output is read and dropped.
      stdout: true,
      stderr: true,
    });
    worker.stdout.resume();
    worker.stderr.resume();
    const slot: Slot = { worker };
    this.slots.push(slot);
    worker.on('message', (reply: WorkerReply) => {
      const task = slot.task;
      if (!task || task.id !== reply.id) return;
      clearTimeout(task.timer);
      slot.task = undefined;
      if (reply.ok) task.resolve(reply.doc);
      else task.reject(new ParseError(reply.error.code, reply.error.message));
      if (reply.retire) this.replace(slot);
      this.dispatch();
    });
    worker.on('error', (err: Error & { code?: string }) => {
      const oom = err.code === 'ERR_WORKER_OUT_OF_MEMORY' || /out of memory|heap/i.test(err.message);
      this.fail(
        slot,
        oom
          ? new ParseError(
              'OUT_OF_MEMORY',
              `Reading the document needed more than ${this.defaults.maxMemoryMb} MiB of memory and was stopped.`,
            )
          : new ParseError('INTERNAL', `The document could not be read because the parser stopped unexpectedly (${err.message}).`),
      );
    });
    worker.on('exit', () => {
      if (this.slots.includes(slot))
        this.fail(slot, new ParseError('INTERNAL', 'The document could not be read because the parser stopped unexpectedly.'));
    });
    return slot;
  }

  /** Fails the slot's document, discards its thread and lets the queue move on. */
  private fail(slot: Slot, error: ParseError): void {
    const task = slot.task;
    slot.task = undefined;
    if (task) {
      clearTimeout(task.timer);
      task.reject(error);
    }
    this.replace(slot);
    this.dispatch();
  }

  private replace(slot: Slot): void {
    const i = this.slots.indexOf(slot);
    if (i >= 0) this.slots.splice(i, 1);
    void slot.worker.terminate().catch(() => undefined);
  }
}

/**
 * The worker entry: the compiled parse-worker.js, or — when this file runs from TypeScript sources
 * (tests) — the .ts entry behind a require hook that compiles TypeScript with @swc/core.
 */
function workerScript(): { script: string; isEval: boolean } {
  const ext = extname(__filename);
  const entry = join(__dirname, `parse-worker${ext}`);
  if (ext !== '.ts') return { script: entry, isEval: false };
  const swc = require.resolve('@swc/core');
  const script = `
    const fs = require('node:fs');
    const { transformSync } = require(${JSON.stringify(swc)});
    require.extensions['.ts'] = (module, filename) => {
      const { code } = transformSync(fs.readFileSync(filename, 'utf8'), {
        filename, sourceMaps: 'inline',
        jsc: { parser: { syntax: 'typescript' }, target: 'es2022', keepClassNames: true },
        module: { type: 'commonjs' },
      });
      module._compile(code, filename);
    };
    require(${JSON.stringify(entry)});
  `;
  return { script, isEval: true };
}
