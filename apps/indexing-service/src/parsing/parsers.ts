import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { availableParallelism } from 'node:os';
import { Metrics, type IndexingMetrics } from '@docintel/observability';
import { ParseError, ParsePool, type ParsedDocument, type ParseInput } from '@docintel/parsing';
import { SERVICE_ENV } from '@docintel/runtime';
import type { IndexingEnv } from '../indexing.env';

/** Parser threads of this process: PARSE_POOL_SIZE, or one per core up to 4. */
export function parserThreads(env: IndexingEnv): number {
  return env.PARSE_POOL_SIZE || Math.min(4, availableParallelism());
}

/**
 * The process's one pool of parser threads, created with the service and closed on shutdown
 * (closing fails the documents being parsed, which the pipeline then hands to another replica).
 */
@Injectable()
export class Parsers implements OnApplicationShutdown {
  readonly threads: number;
  private readonly pool: ParsePool;

  private readonly figures: IndexingMetrics;

  constructor(@Inject(SERVICE_ENV) env: IndexingEnv, metrics: Metrics) {
    this.figures = metrics.indexing;
    this.threads = parserThreads(env);
    this.pool = new ParsePool({
      size: this.threads,
      limits: { maxBytes: env.MAX_INDEX_BYTES, timeoutMs: env.PARSE_TIMEOUT_MS, maxMemoryMb: env.PARSE_MAX_MEMORY_MB, ocr: env.PARSE_OCR },
    });
  }

  /** Parses in a thread; docintel_parse_duration_seconds counts it by format (known once parsed) and outcome. */
  async parse(input: ParseInput): Promise<ParsedDocument> {
    const started = process.hrtime.bigint();
    const seconds = () => Number(process.hrtime.bigint() - started) / 1e9;
    let doc: ParsedDocument;
    try {
      doc = await this.pool.parse(input);
    } catch (err) {
      this.figures.parseDuration.observe({ format: 'unknown', outcome: ParseError.isParseError(err) ? 'rejected' : 'error' }, seconds());
      throw err;
    }
    this.figures.parseDuration.observe({ format: doc.format.family, outcome: 'ok' }, seconds());
    return doc;
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pool.close();
  }
}
