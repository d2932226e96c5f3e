import { HumanMessage, ToolMessage, type AIMessage, type BaseMessage } from '@langchain/core/messages';
import { LlmEndpoint } from '../llm/llm-endpoint';
import { DEFAULT_LLM_BASE_URLS, type LlmEnv, type LlmProvider } from '../llm/llm-env';
import { AgentTools } from './agent-tools';
import { NO_ANSWER } from './builtin-agent';
import { userQuestion } from './conversation';
import {
  chatTools,
  conversation,
  FINAL_ANSWER,
  finalAnswerTool,
  repairRequest,
  systemPrompt,
  type FinalAnswerArgs,
} from './llm-agent-prompt';
import { compileOutputSchema, isSchema, type OutputCheck } from './output-schema';
import { SourceLedger } from './source-ledger';
import {
  AgentRunFailed,
  type AgentEngine,
  type AgentRunRequest,
  type AgentRunResult,
  type AgentToolbox,
  type AgentTraceStep,
} from './types';

type Preset = AgentRunRequest['completion']['model'];

export interface LlmAgentOptions {
  provider: LlmProvider;
  /** openai: the /v1 base URL; ollama: the server. */
  baseUrl: string;
  apiKey?: string;
  /** Time limit of one model call. */
  timeoutMs: number;
  /** Retries of a failed model call (timeout, 429, 5xx, unreachable). */
  maxRetries: number;
  /** The model each preset of completion_config.model names. */
  models: Record<Preset, string>;
  /** For tests: the first back-off delay (default 1 s) and the longest wait (default 30 s). */
  retryBaseDelayMs?: number;
  maxRetryDelayMs?: number;
}

/** The agent's connection as the LLM variables configure it (LlmEnv, loaded with loadConfig), with a model per preset. */
export function llmAgentOptions(env: LlmEnv, models: Record<Preset, string>): LlmAgentOptions {
  return {
    provider: env.LLM_PROVIDER,
    baseUrl: (env.LLM_BASE_URL ?? DEFAULT_LLM_BASE_URLS[env.LLM_PROVIDER]).replace(/\/+$/, ''),
    apiKey: env.LLM_API_KEY,
    timeoutMs: env.LLM_TIMEOUT_MS,
    maxRetries: env.LLM_MAX_RETRIES,
    models,
  };
}

type Verdict =
  | { ok: true; result: Omit<AgentRunResult, 'iterations'> }
  /** `uncited`: a text answer that names no source the run read; asked again, then "not found". */
  | { ok: false; problems: string[]; uncited?: boolean };

/**
 * The agent as a tool-calling loop of a chat model (LangChain, OpenAI-compatible or Ollama). Each
 * iteration is one model call; the tools it calls run (validated, traced; their errors go back
 * to the model as tool results) until it calls final_answer, or replies in plain text (the text
 * is then the answer, and "[S3]" markers in it are its citations).
 *
 * max_iterations: the last allowed call offers final_answer alone and forces it (tool_choice),
 * so a run always ends with an answer from what the model has read; a model that still calls
 * something else ends the run with AgentRunFailed. An answer the output schema refuses (or an
 * empty reply) is sent back once with the problems, even after the last iteration: that one
 * repair call is the only call beyond max_iterations. A second invalid answer is AgentRunFailed
 * with the schema errors. Endpoint failures are retried by LlmEndpoint and end in an LlmError.
 */
export class LlmAgent implements AgentEngine {
  readonly name: string;
  private readonly endpoints: Record<Preset, LlmEndpoint>;

  constructor(options: LlmAgentOptions) {
    const { models, ...connection } = options;
    const endpoint = (model: string) => new LlmEndpoint({ ...connection, model, structuredOutput: 'auto' });
    this.endpoints = { FAST: endpoint(models.FAST), BALANCED: endpoint(models.BALANCED) };
    this.name = `llm:${models.FAST === models.BALANCED ? models.BALANCED : `${models.FAST},${models.BALANCED}`}`;
  }

  async run(
    request: AgentRunRequest,
    toolbox: AgentToolbox,
    trace: (step: AgentTraceStep) => void | Promise<void>,
    signal?: AbortSignal,
  ): Promise<AgentRunResult> {
    userQuestion(request.messages);
    const endpoint = this.endpoints[request.completion.model];
    const check = request.outputSchema ? compileOutputSchema(request.outputSchema) : undefined;
    const tools = new AgentTools(toolbox, trace, signal);
    const finalOnly = [finalAnswerTool(request.outputSchema)];
    const all = [...chatTools(tools.definitions), ...finalOnly];
    const messages: BaseMessage[] = conversation(systemPrompt(toolbox.files, request.maxIterations, !!check), request.messages);
    const sampling = { temperature: request.completion.temperature, maxTokens: request.completion.maxTokens };
    let repaired = false;
    // A follow-up may be answered from what earlier turns read and cited (their handles are gone):
    // only a first turn's answer must cite a source of this run.
    const followUp = request.messages.some((m) => m.role === 'assistant');

    for (let iteration = 1; ; iteration++) {
      const last = iteration >= request.maxIterations;
      const reply = await endpoint.chat(
        messages,
        { tools: last ? finalOnly : all, forceTool: last ? FINAL_ANSWER : undefined, ...sampling },
        signal,
      );
      messages.push(reply);
      const calls = (reply.tool_calls ?? []).map((c, i) => ({ ...c, id: c.id ?? `call_${iteration}_${i}` }));
      const invalid = (reply.invalid_tool_calls ?? []).map((c, i) => ({ ...c, id: c.id ?? `invalid_${iteration}_${i}` }));
      const final = calls.find((c) => c.name === FINAL_ANSWER);
      const badFinal = invalid.find((c) => c.name === FINAL_ANSWER);

      let verdict: Verdict | undefined;
      if (final) verdict = judgeFinal(final.args as FinalAnswerArgs, check, tools.ledger, endpoint.model, followUp);
      else if (badFinal) verdict = { ok: false, problems: [`the arguments of ${FINAL_ANSWER} are not valid JSON`] };
      else if (!calls.length && !invalid.length) verdict = judgeText(textOf(reply), check, tools.ledger, endpoint.model, followUp);

      const answered = final ?? badFinal;
      if (answered && verdict) {
        await tools.note(
          FINAL_ANSWER,
          answered.args,
          verdict.ok
            ? { ok: true, result: { answer: verdict.result.answer, citations: verdict.result.evidence.length } }
            : { ok: false, error: verdict.problems.join('; ') },
          iteration,
        );
      }
      if (verdict?.ok) return { ...verdict.result, iterations: iteration };
      if (verdict) {
        if (repaired && verdict.uncited) return { ...notFoundResult(verdict.problems, endpoint.model), iterations: iteration };
        if (repaired) {
          throw new AgentRunFailed(
            check
              ? "The model's answer does not match the output schema, also after it was asked to correct it"
              : 'The model gave no usable answer',
            verdict.problems,
          );
        }
        repaired = true;
        for (const c of [...calls, ...invalid]) {
          const content = c === answered ? repairRequest(verdict.problems) : `Not run: ${FINAL_ANSWER} was called in the same turn.`;
          messages.push(new ToolMessage({ tool_call_id: c.id, content }));
        }
        if (!answered) messages.push(new HumanMessage(repairRequest(verdict.problems)));
        continue;
      }
      if (last) {
        throw new AgentRunFailed(
          `The model gave no final answer within max_iterations (${request.maxIterations}): offered only ${FINAL_ANSWER}, it called ${calls.map((c) => c.name).join(', ')}`,
        );
      }
      for (const c of calls) {
        const outcome = await tools.call(c.name, c.args, iteration);
        messages.push(
          new ToolMessage({ tool_call_id: c.id, content: JSON.stringify(outcome.ok ? outcome.result : { error: outcome.error }) }),
        );
      }
      for (const c of invalid) {
        const error = `The arguments are not valid JSON (${c.error ?? 'parse error'}); call ${c.name ?? 'the tool'} again with a JSON object.`;
        await tools.refuse(c.name ?? '(unnamed)', c.args, error, iteration);
        messages.push(new ToolMessage({ tool_call_id: c.id, content: JSON.stringify({ error }) }));
      }
    }
  }
}

/** final_answer's arguments: the answer (checked against the output schema), the explanation, the cited handles. */
function judgeFinal(
  args: FinalAnswerArgs,
  check: OutputCheck | undefined,
  ledger: SourceLedger,
  model: string,
  followUp: boolean,
): Verdict {
  if (!isSchema(args)) return { ok: false, problems: [`the arguments of ${FINAL_ANSWER} must be an object`] };
  const sources = Array.isArray(args.sources) ? args.sources.filter((s): s is string => typeof s === 'string') : [];
  const explanation = typeof args.explanation === 'string' && args.explanation.trim() ? args.explanation.trim() : undefined;
  if (args.found === false && !check) {
    return {
      ok: true,
      result: {
        answer: NO_ANSWER,
        explanation: explanation ?? `The language model ${model} found no answer in the documents.`,
        evidence: [],
      },
    };
  }
  const verdict = judgeAnswer(args.answer, sources, explanation, check, ledger, model, followUp);
  // Found nothing, with an output schema: the object (its fields left empty) stands, citing nothing.
  return verdict.ok && args.found === false ? { ok: true, result: { ...verdict.result, evidence: [] } } : verdict;
}

/** A reply in plain text: the answer, citing handles as "[S3]"; with an output schema, the JSON object in it. */
function judgeText(text: string, check: OutputCheck | undefined, ledger: SourceLedger, model: string, followUp: boolean): Verdict {
  if (!text.trim()) return { ok: false, problems: [`the reply was empty; call ${FINAL_ANSWER} with the answer`] };
  const answer = check ? parseJson(text) : text.trim();
  return judgeAnswer(answer, SourceLedger.handlesIn(text), undefined, check, ledger, model, followUp);
}

function judgeAnswer(
  raw: unknown,
  sources: string[],
  explanation: string | undefined,
  check: OutputCheck | undefined,
  ledger: SourceLedger,
  model: string,
  followUp: boolean,
): Verdict {
  let answer: string | Record<string, unknown>;
  if (check) {
    // Some models send the object as a JSON string.
    const value = typeof raw === 'string' ? parseJson(raw) : raw;
    const { problems } = check(value);
    if (problems.length) return { ok: false, problems };
    if (!isSchema(value)) return { ok: false, problems: ['(the answer) must be an object'] };
    answer = value;
  } else {
    if (raw === undefined || raw === null || (typeof raw === 'string' && !raw.trim()))
      return { ok: false, problems: ['the answer is empty'] };
    answer = typeof raw === 'string' ? raw.trim() : JSON.stringify(raw);
  }
  const evidence = ledger.evidence(sources, quotesOf(answer));
  if (!check && !evidence.length && !followUp) {
    const named = sources.length ? `its sources (${sources.join(', ')}) are not handles this run gave out` : 'it cites no source';
    return {
      ok: false,
      uncited: true,
      problems: [
        `${named}: give the handles (S1, …) of the passages or statements the answer was read from, ` +
          `or call ${FINAL_ANSWER} with found set to false if the documents do not give the answer`,
      ],
    };
  }
  return {
    ok: true,
    result: { answer, explanation: explanation ?? `Answered by the language model ${model} from the documents it searched.`, evidence },
  };
}

/** The values of an answer, to narrow a cited passage to where one of them is written. */
function quotesOf(answer: string | Record<string, unknown>): string[] {
  if (typeof answer === 'string') return [answer];
  const quotes: string[] = [];
  const walk = (v: unknown) => {
    if (typeof v === 'string') quotes.push(v);
    else if (typeof v === 'number') quotes.push(String(v));
    else if (Array.isArray(v)) v.forEach(walk);
    else if (isSchema(v)) Object.values(v).forEach(walk);
  };
  walk(answer);
  return quotes;
}

/** A text answer the model could not cite after being asked again: not an answer from the documents. */
function notFoundResult(problems: string[], model: string): Omit<AgentRunResult, 'iterations'> {
  return {
    answer: NO_ANSWER,
    explanation: `The answer of the language model ${model} was not used because it could not be checked against the documents: ${problems.join('; ')}.`,
    evidence: [],
  };
}

function parseJson(text: string): unknown {
  const body = text
    .trim()
    .replace(/^```(?:json)?\s*/i, '')
    .replace(/```$/, '')
    .trim();
  try {
    return JSON.parse(body);
  } catch {
    return text;
  }
}

function textOf(message: AIMessage): string {
  const content = message.content;
  if (typeof content === 'string') return content;
  return content
    .map((part) => (typeof part === 'string' ? part : part.type === 'text' && typeof part.text === 'string' ? part.text : ''))
    .join('');
}
