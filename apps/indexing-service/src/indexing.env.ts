import { IsOptional, IsString } from 'class-validator';
import { DEFAULT_STORAGE_SERVICE_URL, IsBooleanVar, IsByteCountVar, IsIntegerVar, IsStorageServiceUrlVar } from '@docintel/config';
import { ServiceEnv } from '@docintel/runtime';

/** indexing-service configuration. The embedder's variables (EMBEDDINGS_*) are read by libs/ai's EmbeddingsEnv. */
export class IndexingEnv extends ServiceEnv {
  /** Where the storage service's HTTP port is reachable: the pipeline streams file bytes from there, never over NATS. */
  @IsStorageServiceUrlVar()
  STORAGE_SERVICE_URL = DEFAULT_STORAGE_SERVICE_URL;

  /** Largest file indexed, in bytes; a larger one ends FAILED with a message. Also the parsers' input limit. */
  @IsByteCountVar()
  MAX_INDEX_BYTES = 200 * 1024 * 1024;

  /** Parser threads per process; also how many files one replica parses at once. 0: one per core, at most 4. */
  @IsIntegerVar(0, 64, 'must be an integer')
  PARSE_POOL_SIZE = 0;

  /**
   * A file of at least this many bytes is large: large files are parsed one at a time, each in a
   * thread of its own that ends with it (its memory returned), beside the PARSE_POOL_SIZE threads;
   * their requests wait in a lane of their own (corpus_parsing_large) when the size is known.
   */
  @IsByteCountVar()
  PARSE_LARGE_FILE_BYTES = 1024 * 1024;

  /** Wall-clock budget for parsing one document. */
  @IsIntegerVar(1000, 3_600_000, 'must be an integer number of milliseconds')
  PARSE_TIMEOUT_MS = 300_000;

  /** V8 heap of each parser thread. */
  @IsIntegerVar(64, 65_536, 'must be an integer number of MiB')
  PARSE_MAX_MEMORY_MB = 2048;

  /** OCR images and PDF pages without a text layer. */
  @IsBooleanVar()
  PARSE_OCR = true;

  /** Directory for the bytes of files being parsed (one temporary file per parse); the system's temporary directory when unset. */
  @IsOptional()
  @IsString()
  INDEX_TEMP_DIR?: string;

  /** Nodes written (and announced with node.batch.created) per batch. */
  @IsIntegerVar(1, 1000, 'must be an integer')
  NODE_BATCH_SIZE = 500;

  /** Deliveries of a pipeline message before it is given up (the file FAILED, or the step's error recorded) and dead-lettered. */
  @IsIntegerVar(1, 100, 'must be an integer')
  PIPELINE_MAX_DELIVER = 5;

  /**
   * How often a running parse reports (the file's heartbeat and the message's ack deadline). A parse
   * message whose worker stays silent for six heartbeats is redelivered and taken over.
   */
  @IsIntegerVar(1, 300, 'must be an integer number of seconds')
  PIPELINE_HEARTBEAT_SECONDS = 10;

  /**
   * Times a request may be interrupted (its worker's process died under it: a crash, kill -9, OOM)
   * and go back to the queue; the last interruption ends it FAILED, so that a document that brings
   * its worker down every time is not retried for ever.
   */
  @IsIntegerVar(1, 100, 'must be an integer')
  PIPELINE_MAX_INTERRUPTIONS = 3;

  /**
   * A file announced in at least this many batches (of NODE_BATCH_SIZE nodes) is large: the steps
   * after parsing (node_embedding, passage_indexing, formula_augmentation, ontologies) work on it in
   * a lane of their own, so that it never holds up smaller files (pipeline/lanes.ts).
   */
  @IsIntegerVar(1, 1_000_000, 'must be an integer')
  PIPELINE_LARGE_FILE_BATCHES = 10;

  /**
   * Steps of large files (their lanes: parsing, node_embedding, passage_indexing,
   * formula_augmentation, ontologies) one replica runs at once. Each holds hundreds of MiB for a
   * 400-page PDF; two at once took the process past 1 GiB. Small files' lanes never wait for it.
   */
  @IsIntegerVar(1, 16, 'must be an integer')
  PIPELINE_LARGE_FILE_WORK = 1;

  /**
   * How far V8's old space grows past what the last full collection kept before the next one, in
   * percent (50: 1.5x), for the whole process; V8 alone would take up to 4x under a burst. Lower
   * keeps the peak nearer what is in use, at the cost of more collections (heap-growth.ts).
   */
  @IsIntegerVar(10, 300, 'must be an integer percentage')
  HEAP_GROWING_PERCENT = 50;

  /** Embedding batches one replica works on at once, in each lane (pipeline/lanes.ts). */
  @IsIntegerVar(1, 64, 'must be an integer')
  EMBEDDING_CONCURRENCY = 1;

  /** How often the sweeper looks for lost requests and interrupted runs. 0 turns it off. */
  @IsIntegerVar(0, 86_400, 'must be an integer number of seconds')
  SWEEP_INTERVAL_SECONDS = 30;

  /** A request not taken up by a worker after this long, while the queue is idle, is published again. */
  @IsIntegerVar(1, 86_400, 'must be an integer number of seconds')
  SWEEP_PENDING_AFTER_SECONDS = 60;

  /**
   * A RUNNING indexation whose worker has not reported for this long was interrupted (its process
   * died): its request goes back to the queue.
   */
  @IsIntegerVar(10, 86_400, 'must be an integer number of seconds')
  SWEEP_STALE_RUNNING_SECONDS = 120;
}
