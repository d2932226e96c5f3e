import { Transform, Type } from 'class-transformer';
import { ArrayNotEmpty, ArrayUnique, IsEmail, IsIn, IsNotEmpty, IsNumber, IsOptional, Max, Min } from 'class-validator';
import { IsHttpUrlVar, IsIntegerVar } from '@docintel/config';
import { BuiltinReader } from '@docintel/answering';
import { ServiceEnv } from '@docintel/runtime';

export const ANSWERING_ENGINES = ['builtin', 'llm', 'local-onnx'] as const;
export type AnsweringEngine = (typeof ANSWERING_ENGINES)[number];

/** Remote bibliographic searches find-similar can ask about DOIs and open-access ids not among the caller's files. */
export const FIND_SIMILAR_REMOTES = ['none', 'openalex'] as const;
export type FindSimilarRemote = (typeof FIND_SIMILAR_REMOTES)[number];

/** Who runs agent jobs: the built-in planner (offline, default) or an LLM tool-calling loop (LLM_* variables). */
export const AGENT_ENGINES = ['builtin', 'llm'] as const;
export type AgentEngineName = (typeof AGENT_ENGINES)[number];

/** The work queues a replica can take from: job units (questions, extraction, find-similar) and agent runs. */
export const JOB_QUEUE_NAMES = ['units', 'agent'] as const;
export type JobQueueName = (typeof JOB_QUEUE_NAMES)[number];

/** job-orchestrator configuration. The engines' own variables (LLM_*, *_MODEL_DIR) are read by libs/answering. */
export class JobsEnv extends ServiceEnv {
  /** Who answers: the built-in extractive reader (offline, default), an LLM endpoint, or an ONNX model folder. */
  @IsIn(ANSWERING_ENGINES, { message: `must be one of ${ANSWERING_ENGINES.join(', ')}` })
  ANSWERING_ENGINE: AnsweringEngine = 'builtin';

  /**
   * The built-in engine's confidence below which an answer is reported not found (0..1). Unset: the
   * default calibrated on the real-document evaluation (libs/answering README, DEFAULT_THRESHOLDS).
   */
  @IsOptional()
  @Type(() => Number)
  @IsNumber({}, { message: 'must be a number from 0 to 1' })
  @Min(0, { message: 'must be a number from 0 to 1' })
  @Max(1, { message: 'must be a number from 0 to 1' })
  ANSWER_MIN_CONFIDENCE?: number;

  /** Units (a question, or one file's metas) one replica works on at once. */
  @IsIntegerVar(1, 64, 'must be an integer')
  JOB_CONCURRENCY = 2;

  /** Deliveries of a unit before it is given up (its answers FAILED with the reason). */
  @IsIntegerVar(1, 100, 'must be an integer')
  JOB_MAX_DELIVER = 4;

  /** How often a running unit reports (its heartbeat and the message's ack deadline). */
  @IsIntegerVar(1, 300, 'must be an integer number of seconds')
  JOB_HEARTBEAT_SECONDS = 5;

  /** A RUNNING unit silent for this long is taken over (its worker died); PENDING units not taken up are published again. */
  @IsIntegerVar(2, 86_400, 'must be an integer number of seconds')
  JOB_STALE_SECONDS = 30;

  /** How often the sweeper runs. 0 turns it off. */
  @IsIntegerVar(0, 86_400, 'must be an integer number of seconds')
  JOB_SWEEP_INTERVAL_SECONDS = 10;

  /** Passages retrieved per question (per file for extraction) and given to the reader. */
  @IsIntegerVar(1, 200, 'must be an integer')
  JOB_PASSAGES = 40;

  /** Wall-clock budget of one unit; past it the unit fails with a message. */
  @IsIntegerVar(1000, 3_600_000, 'must be an integer number of milliseconds')
  JOB_UNIT_TIMEOUT_MS = 300_000;

  /** Find-similar: the remote bibliographic search (off by default: it needs the network). */
  @IsIn(FIND_SIMILAR_REMOTES, { message: `must be one of ${FIND_SIMILAR_REMOTES.join(', ')}` })
  FIND_SIMILAR_REMOTE: FindSimilarRemote = 'none';

  /** The OpenAlex API's base URL (GET {base}/works/doi:…). */
  @IsHttpUrlVar('https://api.openalex.org')
  FIND_SIMILAR_OPENALEX_URL = 'https://api.openalex.org';

  /** Sent as mailto= so that OpenAlex puts the requests in its polite pool; recommended. */
  @IsOptional()
  @IsEmail({}, { message: 'must be an e-mail address' })
  FIND_SIMILAR_OPENALEX_MAILTO?: string;

  /** Time limit of one remote request. */
  @IsIntegerVar(100, 120_000, 'must be an integer number of milliseconds')
  FIND_SIMILAR_REMOTE_TIMEOUT_MS = 10_000;

  /** Retries of a remote request that timed out or got 429 or 5xx, with exponential back-off; then the lookup is recorded as failed. */
  @IsIntegerVar(0, 10, 'must be an integer')
  FIND_SIMILAR_REMOTE_RETRIES = 2;

  /** Similar files returned per source at most (besides the source file itself). */
  @IsIntegerVar(1, 50, 'must be an integer from 1 to 50')
  FIND_SIMILAR_MAX_FILES = 10;

  /** Lowest similarity score (0..1) a file needs to be returned. */
  @Type(() => Number)
  @IsNumber({}, { message: 'must be a number from 0 to 1' })
  @Min(0, { message: 'must be a number from 0 to 1' })
  @Max(1, { message: 'must be a number from 0 to 1' })
  FIND_SIMILAR_MIN_SCORE = 0.3;

  /** Who runs agent jobs: the built-in planner (retrieval and the extractive reader, offline) or an LLM tool-calling loop. */
  @IsIn(AGENT_ENGINES, { message: `must be one of ${AGENT_ENGINES.join(', ')}` })
  AGENT_ENGINE: AgentEngineName = 'builtin';

  /** The LLM model names of completion_config.model FAST and BALANCED; both default to LLM_MODEL. */
  @IsOptional()
  @IsNotEmpty({ message: 'must not be empty' })
  AGENT_MODEL_FAST?: string;

  @IsOptional()
  @IsNotEmpty({ message: 'must not be empty' })
  AGENT_MODEL_BALANCED?: string;

  /** Agent jobs one replica runs at once (their own queue, beside JOB_CONCURRENCY units). */
  @IsIntegerVar(1, 64, 'must be an integer')
  AGENT_CONCURRENCY = 2;

  /**
   * The queues this replica consumes, as a comma list. Both by default; a deployment that wants
   * agent runs scaled apart from job units runs one set of replicas with `units` and one with `agent`.
   */
  @Transform(({ value }: { value: unknown }) =>
    typeof value === 'string'
      ? value
          .split(',')
          .map((q) => q.trim())
          .filter(Boolean)
      : value,
  )
  @ArrayNotEmpty({ message: `must name at least one of ${JOB_QUEUE_NAMES.join(', ')}` })
  @ArrayUnique({ message: 'must not name a queue twice' })
  @IsIn(JOB_QUEUE_NAMES, { each: true, message: `must be a comma list of ${JOB_QUEUE_NAMES.join(', ')}` })
  JOB_QUEUES: JobQueueName[] = ['units', 'agent'];

  /** max_iterations of a request that sets none. */
  @IsIntegerVar(1, 50, 'must be an integer from 1 to 50')
  AGENT_MAX_ITERATIONS = 8;

  /** Time limit of one agent run, sub-jobs included; then it is retried or FAILED like any unit. */
  @IsIntegerVar(1000, 3_600_000, 'must be an integer number of milliseconds')
  AGENT_RUN_TIMEOUT_MS = 600_000;

  /**
   * Jobs of one namespace that may be queued or running (PENDING or RUNNING) at once; a create
   * beyond it answers 429 with Retry-After. 100 jobs of up to 100 questions is hours of work on
   * one replica, far more than a tenant needs queued to keep its share of the replicas busy,
   * while the flood (300 jobs) is refused.
   */
  @IsIntegerVar(1, 100_000, 'must be an integer')
  JOB_NAMESPACE_MAX_OPEN_JOBS = 100;

  /**
   * Units (questions, files, sources) of one namespace's open jobs at most, counting the new job's;
   * beyond it, 429. At least 1000, so that the largest single job (1000 files) always fits when the
   * namespace has nothing else open.
   */
  @IsIntegerVar(1000, 10_000_000, 'must be an integer')
  JOB_NAMESPACE_MAX_OPEN_UNITS = 5000;

  /**
   * Units of one namespace handed to the workers at once (on the work queue or running), per queue
   * (job units, agent runs); the rest wait in the database and are handed out, oldest job first,
   * as these end. Every namespace has its own allowance, so another namespace's work never queues
   * behind more than this many of a flooding one's units. Set it near replicas x JOB_CONCURRENCY:
   * lower leaves workers idle when one namespace is alone, higher lets it queue ahead of others.
   */
  @IsIntegerVar(1, 1000, 'must be an integer')
  JOB_NAMESPACE_ACTIVE_UNITS = 4;

  /** The Retry-After of a create refused by a namespace limit. */
  @IsIntegerVar(1, 3600, 'must be an integer number of seconds')
  JOB_LIMIT_RETRY_AFTER_SECONDS = 10;

  /** How long an Idempotency-Key of a job create returns the job it created. */
  @IsIntegerVar(60, 30 * 86_400, 'must be an integer number of seconds')
  JOB_IDEMPOTENCY_TTL_SECONDS = 86_400;
}

/** The built-in reader, with the operator's threshold (ANSWER_MIN_CONFIDENCE) when one is set. */
export function builtinReader(env: JobsEnv): BuiltinReader {
  return new BuiltinReader(env.ANSWER_MIN_CONFIDENCE === undefined ? {} : { minConfidence: env.ANSWER_MIN_CONFIDENCE });
}
