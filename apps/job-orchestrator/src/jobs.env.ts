import { IsIn } from 'class-validator';
import { IsIntegerVar } from '@docintel/config';
import { ServiceEnv } from '@docintel/runtime';

export const ANSWERING_ENGINES = ['builtin', 'llm', 'local-onnx'] as const;
export type AnsweringEngine = (typeof ANSWERING_ENGINES)[number];

/** job-orchestrator configuration. The engines' own variables (LLM_*, *_MODEL_DIR) are read by libs/answering. */
export class JobsEnv extends ServiceEnv {
  /** Who answers: the built-in extractive reader (offline, default), an LLM endpoint, or an ONNX model folder. */
  @IsIn(ANSWERING_ENGINES, { message: `must be one of ${ANSWERING_ENGINES.join(', ')}` })
  ANSWERING_ENGINE: AnsweringEngine = 'builtin';

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
}
