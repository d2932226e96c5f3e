import type { AnswerTypeDto, DocumentStatementDto, OntologyDto, PassageDto } from '@docintel/contracts';

/**
 * The agent: a conversation over the caller's files, worked through typed tools. An AgentEngine
 * (the built-in planner, or an LLM tool-calling loop) is given the conversation and an
 * AgentToolbox the service implements over the caller's files only; it returns an answer with the
 * evidence it was read from, which the service turns into DOCUMENT_STATEMENT annotations.
 */

export type AgentTurnRole = 'system' | 'user' | 'assistant';

export interface AgentTurn {
  role: AgentTurnRole;
  content: string;
}

export interface AgentFile {
  fileId: string;
  name: string;
}

/** A question for the orchestrator's question-answering engine (the ask_questions tool). */
export interface ToolQuestion {
  question: string;
  answerType: AnswerTypeDto;
  guidelines?: string;
}

/** A metadata field for the orchestrator's extraction engine (the extract_metadata tool). */
export interface ToolMeta {
  meta: string;
  description?: string;
  answerType: AnswerTypeDto;
}

/** An answer of a question or extraction job, with the citations the job stored for it. */
export interface JobAnswer {
  question: string;
  /** The file it was read from, for an extraction answer (one per file). */
  fileId?: string;
  found: boolean;
  rawValue: string;
  explanation: string;
  statements: DocumentStatementDto[];
}

/**
 * What the agent's tools can do. The service implements it over the job's files (FilesInput and
 * collections, resolved when the job was created) in the caller's namespace: nothing else can be
 * named, read or searched through it. Every method may throw; the engine records the error in the
 * trace and carries on.
 */
export interface AgentToolbox {
  /** The files the agent may read. */
  readonly files: AgentFile[];
  /** Hybrid retrieval over the files (or some of them), best first. */
  searchPassages(query: string, opts: { fileIds?: string[]; limit: number }, signal?: AbortSignal): Promise<PassageDto[]>;
  /** The passage of a node and its neighbours in reading order. */
  readAround(fileId: string, nodeId: string, opts: { before: number; after: number }, signal?: AbortSignal): Promise<PassageDto[]>;
  /** A file's ontologies (keyphrases, entities, metadata) as indexing computed them. */
  ontologies(fileId: string, signal?: AbortSignal): Promise<OntologyDto[]>;
  /** Runs a QA job of the orchestrator over the files (or some of them) and waits for it. */
  askQuestions(questions: ToolQuestion[], fileIds: string[] | undefined, signal?: AbortSignal): Promise<JobAnswer[]>;
  /** Runs an extraction job over the files (or some of them) and waits for it: one answer per meta and file. */
  extractMetadata(metas: ToolMeta[], fileIds: string[] | undefined, signal?: AbortSignal): Promise<JobAnswer[]>;
}

/** One tool call of a run, as the trace route shows it. */
export interface AgentTraceStep {
  /** 1-based iteration of the loop the call was made in. */
  iteration: number;
  tool: string;
  arguments: unknown;
  /** The tool's result as given to the engine (long results shortened); absent when it failed. */
  result?: unknown;
  /** Why the call failed (invalid arguments, a file the caller may not read, a service error). */
  error?: string;
  startedAt: string;
  durationMs: number;
}

/** Where part of an answer was read: a span of a passage, or a statement a sub-job already cited. */
export type AgentEvidence =
  { kind: 'passage'; passage: PassageDto; start: number; end: number } | { kind: 'statement'; statement: DocumentStatementDto };

export interface AgentRunRequest {
  /** The conversation: earlier turns (loaded or given), ending with the user's new message. */
  messages: AgentTurn[];
  /** A JSON Schema the answer must be valid against; the answer is then an object. */
  outputSchema?: Record<string, unknown>;
  /** Hard cap on the loop's iterations (model calls for the LLM engine, tool rounds for the planner). */
  maxIterations: number;
  completion: { model: 'FAST' | 'BALANCED'; temperature?: number; maxTokens?: number };
}

export interface AgentRunResult {
  answer: string | Record<string, unknown>;
  explanation: string;
  evidence: AgentEvidence[];
  iterations: number;
}

/** A run that cannot give an answer: the message (and schema errors) end the job FAILED. */
export class AgentRunFailed extends Error {
  override readonly name = 'AgentRunFailed';

  constructor(
    message: string,
    readonly details: string[] = [],
  ) {
    super(details.length ? `${message}: ${details.join('; ')}` : message);
  }
}

export interface AgentEngine {
  /** "builtin" or "llm:<model>". */
  readonly name: string;
  run(
    request: AgentRunRequest,
    toolbox: AgentToolbox,
    trace: (step: AgentTraceStep) => void | Promise<void>,
    signal?: AbortSignal,
  ): Promise<AgentRunResult>;
}
