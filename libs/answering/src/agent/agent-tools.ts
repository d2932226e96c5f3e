import Ajv, { type ValidateFunction } from 'ajv';
import type { AnswerTypeDto, OntologyDto, PassageDto } from '@docintel/contracts';
import { schemaProblems } from './output-schema';
import { SourceLedger } from './source-ledger';
import {
  AGENT_TOOLS,
  type AgentToolDefinition,
  type AgentToolName,
  type AskQuestionsArgs,
  type ExtractMetadataArgs,
  type ReadNodeArgs,
  type SearchPassagesArgs,
  type ToolArgs,
} from './tool-definitions';
import type { AgentToolbox, AgentTraceStep, JobAnswer } from './types';

/** A passage as a tool gives it to the engine: its handle to cite, where it is, and its text. */
export interface ToolPassage {
  handle: string;
  fileId: string;
  fileName: string;
  nodeId: string;
  headings: string[];
  text: string;
}

/** An answer of a sub-job as a tool gives it: its statements as handles. */
export interface ToolJobAnswer {
  question: string;
  fileId?: string;
  found: boolean;
  answer: string;
  explanation: string;
  sources: string[];
}

export type ToolOutcome = { ok: true; result: unknown } | { ok: false; error: string };

export type TraceFn = (step: AgentTraceStep) => void | Promise<void>;

/** What the engine sees of a passage text; a node longer than this is rare and cut. */
const MAX_PASSAGE_CHARS = 4000;
/** What the trace keeps of any text in a result or arguments. */
const TRACE_TEXT_CHARS = 200;
const TRACE_LIST_ITEMS = 20;
const LIST_FILES = { listed: 200, withOntologies: 20, ontologiesPerFile: 15, valueChars: 200 } as const;

/** Argument validators, compiled once: they fill in the schemas' defaults. */
const ajv = new Ajv({ allErrors: true, useDefaults: true, strict: false });
const validators = new Map<AgentToolName, ValidateFunction>(AGENT_TOOLS.map((t) => [t.name, ajv.compile(t.parameters)]));

/**
 * The agent's tools over one run's toolbox. Every call is validated against its schema (unknown
 * arguments, wrong types, limits out of range are refused), refused when it names a file the
 * toolbox does not offer (the toolbox checks too: defence in depth), run, and recorded in the
 * trace with its outcome. Failures come back as the outcome rather than thrown, so that an engine
 * can carry on (a model reads the error); only the caller's abort is thrown.
 */
export class AgentTools {
  readonly ledger = new SourceLedger();
  /** The ontologies list_files read, whole (the engine is given a summary): the built-in planner answers bibliographic questions from them. */
  readonly ontologies = new Map<string, OntologyDto[]>();
  private readonly fileIds: Set<string>;

  constructor(
    private readonly toolbox: AgentToolbox,
    private readonly trace: TraceFn,
    private readonly signal?: AbortSignal,
  ) {
    this.fileIds = new Set(toolbox.files.map((f) => f.fileId));
  }

  get definitions(): readonly AgentToolDefinition[] {
    return AGENT_TOOLS;
  }

  /** Runs a tool for the engine. `iteration` is the round of the engine's loop, for the trace. */
  async call(tool: string, args: unknown, iteration: number): Promise<ToolOutcome> {
    const startedAt = new Date();
    let outcome: ToolOutcome;
    try {
      outcome = { ok: true, result: await this.run(tool, args) };
    } catch (err) {
      if (this.signal?.aborted) throw this.signal.reason;
      outcome = { ok: false, error: err instanceof Error ? err.message : String(err) };
    }
    await this.record(tool, args, outcome, iteration, startedAt);
    return outcome;
  }

  /** Records a call that could not be made at all (a model's arguments that are not JSON). */
  async refuse(tool: string, args: unknown, error: string, iteration: number): Promise<ToolOutcome> {
    const outcome: ToolOutcome = { ok: false, error };
    await this.record(tool, args, outcome, iteration, new Date());
    return outcome;
  }

  /** Records a call the engine handled itself (final_answer): accepted with its result, or refused with the problems. */
  async note(tool: string, args: unknown, outcome: ToolOutcome, iteration: number): Promise<void> {
    await this.record(tool, args, outcome, iteration, new Date());
  }

  private async record(tool: string, args: unknown, outcome: ToolOutcome, iteration: number, startedAt: Date): Promise<void> {
    await this.trace({
      iteration,
      tool,
      arguments: shorten(args),
      ...(outcome.ok ? { result: shorten(outcome.result) } : { error: outcome.error }),
      startedAt: startedAt.toISOString(),
      durationMs: Date.now() - startedAt.getTime(),
    });
  }

  private async run(tool: string, raw: unknown): Promise<unknown> {
    if (!isToolName(tool)) throw new Error(`There is no tool "${tool}"; the tools are ${AGENT_TOOLS.map((t) => t.name).join(', ')}`);
    const validate = validators.get(tool)!;
    // Validation fills in defaults: on a copy, so that the trace shows what was asked.
    const args: unknown = raw === undefined || raw === null ? {} : structuredClone(raw);
    if (!validate(args)) throw new Error(`Invalid arguments for ${tool}: ${schemaProblems(validate.errors, '(the arguments)').join('; ')}`);
    const typed = args as ToolArgs[typeof tool];
    this.checkFiles(tool, typed);
    switch (tool) {
      case 'search_passages':
        return this.searchPassages(typed as SearchPassagesArgs);
      case 'read_node':
        return this.readNode(typed as ReadNodeArgs);
      case 'list_files':
        return this.listFiles();
      case 'ask_questions':
        return this.askQuestions(typed as AskQuestionsArgs);
      case 'extract_metadata':
        return this.extractMetadata(typed as ExtractMetadataArgs);
    }
  }

  private checkFiles(tool: string, args: { fileIds?: string[]; fileId?: string }): void {
    const named = [...(args.fileIds ?? []), ...(args.fileId === undefined ? [] : [args.fileId])];
    const unknown = named.filter((id) => !this.fileIds.has(id));
    if (unknown.length) {
      throw new Error(
        `${tool} refused: ${unknown.map((id) => `"${id}"`).join(', ')} ${unknown.length === 1 ? 'is not one of the files' : 'are not among the files'} ` +
          'this agent may read (list_files names them)',
      );
    }
  }

  private async searchPassages(args: SearchPassagesArgs): Promise<{ passages: ToolPassage[] }> {
    const found = await this.toolbox.searchPassages(args.query, { fileIds: args.fileIds, limit: args.limit }, this.signal);
    return { passages: found.slice(0, args.limit).map((p) => this.toolPassage(p)) };
  }

  private async readNode(args: ReadNodeArgs): Promise<{ passages: ToolPassage[] }> {
    const found = await this.toolbox.readAround(args.fileId, args.nodeId, { before: args.before, after: args.after }, this.signal);
    return { passages: found.map((p) => this.toolPassage(p)) };
  }

  private async listFiles(): Promise<unknown> {
    const files = this.toolbox.files.slice(0, LIST_FILES.listed);
    const listed = await Promise.all(
      files.map(async (f, i) => {
        if (i >= LIST_FILES.withOntologies) return { fileId: f.fileId, name: f.name };
        try {
          const ontologies = await this.toolbox.ontologies(f.fileId, this.signal);
          this.ontologies.set(f.fileId, ontologies);
          return { fileId: f.fileId, name: f.name, ontologies: summariseOntologies(ontologies) };
        } catch (err) {
          if (this.signal?.aborted) throw this.signal.reason;
          return { fileId: f.fileId, name: f.name, ontologiesError: (err as Error).message };
        }
      }),
    );
    const more = this.toolbox.files.length - files.length;
    return { files: listed, ...(more > 0 ? { more: `${more} more files are not listed` } : {}) };
  }

  private async askQuestions(args: AskQuestionsArgs): Promise<{ answers: ToolJobAnswer[] }> {
    const questions = args.questions.map((q) => ({ question: q.question, answerType: answerType(q) }));
    const answers = await this.toolbox.askQuestions(questions, args.fileIds, this.signal);
    return { answers: answers.map((a) => this.toolAnswer(a)) };
  }

  private async extractMetadata(args: ExtractMetadataArgs): Promise<{ answers: ToolJobAnswer[] }> {
    const metas = args.metas.map((m) => ({ meta: m.meta, description: m.description, answerType: answerType(m) }));
    const answers = await this.toolbox.extractMetadata(metas, args.fileIds, this.signal);
    return { answers: answers.map((a) => this.toolAnswer(a)) };
  }

  private toolPassage(p: PassageDto): ToolPassage {
    return {
      handle: this.ledger.addPassage(p),
      fileId: p.fileId,
      fileName: p.fileName,
      nodeId: p.id,
      headings: p.headings,
      text: cut(p.text, MAX_PASSAGE_CHARS),
    };
  }

  private toolAnswer(a: JobAnswer): ToolJobAnswer {
    return {
      question: a.question,
      ...(a.fileId ? { fileId: a.fileId } : {}),
      found: a.found,
      answer: a.rawValue,
      explanation: a.explanation,
      sources: a.statements.map((s) => this.ledger.addStatement(s)),
    };
  }
}

const isToolName = (name: string): name is AgentToolName => validators.has(name as AgentToolName);

const answerType = (q: { dataType: AnswerTypeDto['dataType']; multiValued: boolean }): AnswerTypeDto => ({
  dataType: q.dataType,
  multiValued: q.multiValued,
});

/** A file's ontologies in a few lines: the concepts and their metas' values, capped. */
function summariseOntologies(ontologies: OntologyDto[]): unknown[] {
  return ontologies.slice(0, LIST_FILES.ontologiesPerFile).map((o) => ({
    name: o.name,
    ...(o.metas
      ? {
          metas: Object.fromEntries(
            Object.entries(o.metas).map(([k, m]) => [k, cut(JSON.stringify(m.metaValue) ?? 'null', LIST_FILES.valueChars)]),
          ),
        }
      : {}),
  }));
}

const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}…` : s);

/** A copy for the trace: long texts cut, long lists cut with a count of what was left out. */
export function shorten(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return cut(value, TRACE_TEXT_CHARS);
  if (value === null || typeof value !== 'object' || depth > 8) return value;
  if (Array.isArray(value)) {
    const kept = value.slice(0, TRACE_LIST_ITEMS).map((v) => shorten(v, depth + 1));
    return value.length > TRACE_LIST_ITEMS ? [...kept, `… ${value.length - TRACE_LIST_ITEMS} more`] : kept;
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shorten(v, depth + 1)]));
}
