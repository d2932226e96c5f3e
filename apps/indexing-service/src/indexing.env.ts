import { Transform, Type } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, IsString, IsUrl, Max, Min } from 'class-validator';
import { ServiceEnv } from '@docintel/runtime';

const toBoolean = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? ['1', 'true', 'yes'].includes(value.toLowerCase()) : value;

/** indexing-service configuration. The embedder's variables (EMBEDDINGS_*) are read by libs/ai's EmbeddingsEnv. */
export class IndexingEnv extends ServiceEnv {
  /** Where the storage service's HTTP port is reachable: the pipeline streams file bytes from there, never over NATS. */
  @IsUrl(
    { require_tld: false, require_protocol: true, protocols: ['http', 'https'] },
    { message: 'must be an http(s) URL such as http://127.0.0.1:8081' },
  )
  STORAGE_SERVICE_URL = 'http://127.0.0.1:8081';

  /** Largest file indexed, in bytes; a larger one ends FAILED with a message. Also the parsers' input limit. */
  @Type(() => Number)
  @IsInt({ message: 'must be a whole number of bytes' })
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  MAX_INDEX_BYTES = 200 * 1024 * 1024;

  /** Parser threads per process; also how many files one replica parses at once. 0: one per core, at most 4. */
  @Type(() => Number)
  @IsInt({ message: 'must be an integer' })
  @Min(0)
  @Max(64)
  PARSE_POOL_SIZE = 0;

  /** Wall-clock budget for parsing one document. */
  @Type(() => Number)
  @IsInt({ message: 'must be an integer number of milliseconds' })
  @Min(1000)
  @Max(3_600_000)
  PARSE_TIMEOUT_MS = 300_000;

  /** V8 heap of each parser thread. */
  @Type(() => Number)
  @IsInt({ message: 'must be an integer number of MiB' })
  @Min(64)
  @Max(65_536)
  PARSE_MAX_MEMORY_MB = 2048;

  /** OCR images and PDF pages without a text layer. */
  @Transform(toBoolean)
  @IsBoolean({ message: 'must be true or false' })
  PARSE_OCR = true;

  /** Directory for the bytes of files being parsed (one temporary file per parse); the system's temporary directory when unset. */
  @IsOptional()
  @IsString()
  INDEX_TEMP_DIR?: string;

  /** Nodes written (and announced with node.batch.created) per batch. */
  @Type(() => Number)
  @IsInt({ message: 'must be an integer' })
  @Min(1)
  @Max(1000)
  NODE_BATCH_SIZE = 500;

  /** Deliveries of a pipeline message before it is given up (the file FAILED, or the step's error recorded) and dead-lettered. */
  @Type(() => Number)
  @IsInt({ message: 'must be an integer' })
  @Min(1)
  @Max(100)
  PIPELINE_MAX_DELIVER = 5;

  /**
   * How often a running parse reports (the file's heartbeat and the message's ack deadline). A parse
   * message whose worker stays silent for six heartbeats is redelivered and taken over.
   */
  @Type(() => Number)
  @IsInt({ message: 'must be an integer number of seconds' })
  @Min(1)
  @Max(300)
  PIPELINE_HEARTBEAT_SECONDS = 10;

  /** Embedding batches one replica works on at once. */
  @Type(() => Number)
  @IsInt({ message: 'must be an integer' })
  @Min(1)
  @Max(64)
  EMBEDDING_CONCURRENCY = 1;

  /** How often the sweeper looks for lost requests and interrupted runs. 0 turns it off. */
  @Type(() => Number)
  @IsInt({ message: 'must be an integer number of seconds' })
  @Min(0)
  @Max(86_400)
  SWEEP_INTERVAL_SECONDS = 30;

  /** A request not taken up by a worker after this long, while the queue is idle, is published again. */
  @Type(() => Number)
  @IsInt({ message: 'must be an integer number of seconds' })
  @Min(1)
  @Max(86_400)
  SWEEP_PENDING_AFTER_SECONDS = 60;

  /** A RUNNING indexation whose worker has not reported for this long is failed as interrupted. */
  @Type(() => Number)
  @IsInt({ message: 'must be an integer number of seconds' })
  @Min(10)
  @Max(86_400)
  SWEEP_STALE_RUNNING_SECONDS = 120;
}
