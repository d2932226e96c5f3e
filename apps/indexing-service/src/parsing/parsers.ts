import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { availableParallelism } from 'node:os';
import { ParsePool, type ParsedDocument, type ParseInput } from '@docintel/parsing';
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

  constructor(@Inject(SERVICE_ENV) env: IndexingEnv) {
    this.threads = parserThreads(env);
    this.pool = new ParsePool({
      size: this.threads,
      limits: { maxBytes: env.MAX_INDEX_BYTES, timeoutMs: env.PARSE_TIMEOUT_MS, maxMemoryMb: env.PARSE_MAX_MEMORY_MB, ocr: env.PARSE_OCR },
    });
  }

  parse(input: ParseInput): Promise<ParsedDocument> {
    return this.pool.parse(input);
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pool.close();
  }
}
