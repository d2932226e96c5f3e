import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { availableParallelism } from 'node:os';
import { Metrics, type IndexingMetrics } from '@docintel/observability';
import { ParseError, ParsePool, type ParsedDocument, type ParseInput, type ParseLimits } from '@docintel/parsing';
import { SERVICE_ENV } from '@docintel/runtime';
import type { IndexingEnv } from '../indexing.env';

/** Parser threads of this process for files that are not large: PARSE_POOL_SIZE, or one per core up to 4. */
export function parserThreads(env: IndexingEnv): number {
  return env.PARSE_POOL_SIZE || Math.min(4, availableParallelism());
}

/**
 * The process's parser threads, created with the service and closed on shutdown (closing fails the
 * documents being parsed, which the pipeline then hands to another replica).
 *
 * A large file (PARSE_LARGE_FILE_BYTES or more) is parsed apart: one at a time, in a thread of its
 * own that is ended once the document is read. A 400-page PDF takes its thread to about 600 MiB,
 * which a pooled thread would keep; two of them at once, beside the other threads, took the service
 * past 1.5 GiB. Small files keep the pool's threads to themselves meanwhile. A pooled thread ends
 * its OCR engine (a thread of its own, hundreds of MiB) once no document has used it for 15 s.
 */
@Injectable()
export class Parsers implements OnApplicationShutdown {
  readonly threads: number;
  private readonly pool: ParsePool;
  private readonly limits: Partial<ParseLimits>;
  private readonly largeBytes: number;
  /** The thread of the large document being parsed, if any. */
  private large: ParsePool | undefined;
  /** Settles when the large documents asked for so far are done: the next one waits for it. */
  private largeTurn: Promise<void> = Promise.resolve();
  private closed = false;

  private readonly figures: IndexingMetrics;

  constructor(@Inject(SERVICE_ENV) env: IndexingEnv, metrics: Metrics) {
    this.figures = metrics.indexing;
    this.threads = parserThreads(env);
    this.largeBytes = env.PARSE_LARGE_FILE_BYTES;
    this.limits = {
      maxBytes: env.MAX_INDEX_BYTES,
      timeoutMs: env.PARSE_TIMEOUT_MS,
      maxMemoryMb: env.PARSE_MAX_MEMORY_MB,
      ocr: env.PARSE_OCR,
    };
    this.pool = new ParsePool({ size: this.threads, limits: this.limits });
  }

  /**
   * Parses in a thread; `size` (bytes) decides whether the file is large. docintel_parse_duration_seconds
   * counts it by format (known once parsed) and outcome.
   */
  async parse(input: ParseInput, size: number | null = null): Promise<ParsedDocument> {
    const started = process.hrtime.bigint();
    const seconds = () => Number(process.hrtime.bigint() - started) / 1e9;
    let doc: ParsedDocument;
    try {
      doc = size !== null && size >= this.largeBytes ? await this.parseLarge(input) : await this.pool.parse(input);
    } catch (err) {
      this.figures.parseDuration.observe({ format: 'unknown', outcome: ParseError.isParseError(err) ? 'rejected' : 'error' }, seconds());
      throw err;
    }
    this.figures.parseDuration.observe({ format: doc.format.family, outcome: 'ok' }, seconds());
    return doc;
  }

  private parseLarge(input: ParseInput): Promise<ParsedDocument> {
    const turn = this.largeTurn.then(async () => {
      if (this.closed) throw new ParseError('INTERNAL', 'The parser pool was closed.');
      // Its OCR engine, if the document needed one, ends with the document rather than idling.
      const thread = new ParsePool({ size: 1, limits: this.limits, ocrIdleMs: 0 });
      this.large = thread;
      try {
        return await thread.parse(input);
      } finally {
        this.large = undefined;
        await thread.close(); // the thread's memory goes with it
      }
    });
    this.largeTurn = turn.then(
      () => undefined,
      () => undefined,
    );
    return turn;
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([this.pool.close(), this.large?.close()]);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.close();
  }
}
