import { STATUS_CODES } from 'node:http';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, HumanMessage, SystemMessage, type BaseMessage } from '@langchain/core/messages';
import type { Runnable } from '@langchain/core/runnables';
import { ChatOllama } from '@langchain/ollama';
import { ChatOpenAI } from '@langchain/openai';
import type { ValidateFunction } from 'ajv';
import { ANSWER_SCHEMA_NAME, describeSchemaErrors, type JsonSchema } from './answer-schema';
import type { LlmProvider, LlmStructuredOutputMethod } from './llm-env';
import { malformedMessage, type PromptMessage } from './prompt';

export interface LlmEndpointOptions {
  provider: LlmProvider;
  /** openai: the base URL of the /v1 API (https://api.openai.com/v1); ollama: the server (http://127.0.0.1:11434). */
  baseUrl: string;
  apiKey?: string;
  model: string;
  /** Time limit of one request, including reading the whole answer. */
  timeoutMs: number;
  /** Retries after the first attempt. */
  maxRetries: number;
  structuredOutput: LlmStructuredOutputMethod;
  /** The first back-off delay; it doubles per retry, with jitter. Default 1 s. */
  retryBaseDelayMs?: number;
  /** The longest wait between attempts. A Retry-After beyond it ends the retries. Default 30 s. */
  maxRetryDelayMs?: number;
}

/** A tool the model may call, in the OpenAI function format both providers accept. */
export interface ChatToolDefinition {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/** One turn of a tool-calling conversation (LlmEndpoint.chat). */
export interface ChatTurnOptions {
  tools: ChatToolDefinition[];
  /** Makes the model call this tool (OpenAI's tool_choice; Ollama may ignore it). */
  forceTool?: string;
  /** Default 0. Reasoning models get their own default whatever is asked. */
  temperature?: number;
  maxTokens?: number;
}

/** Sampling settings of one call; the structured answers of `ask` use the defaults. */
interface Sampling {
  temperature?: number;
  maxTokens?: number;
}

type AttemptResult<T> = { ok: true; output: T } | { ok: false; failure: Failure };

/** Why the LLM endpoint gave no usable reply. */
export type LlmErrorCode =
  'RATE_LIMITED' | 'UNAVAILABLE' | 'TIMEOUT' | 'UNREACHABLE' | 'MALFORMED_OUTPUT' | 'UNAUTHORIZED' | 'NOT_FOUND' | 'REJECTED' | 'FAILED';

/** A failure of the LLM endpoint, with a message an operator can act on. The last cause is kept for the log. */
export class LlmError extends Error {
  override readonly name = 'LlmError';

  constructor(
    readonly code: LlmErrorCode,
    message: string,
    readonly attempts: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

interface Failure {
  code: LlmErrorCode;
  retryable: boolean;
  /** What happened, as the end of "The LLM endpoint at <url> ...": "answered 429 Too Many Requests". */
  what: string;
  /** What the server or the parser said, if anything worth repeating. */
  detail?: string;
  retryAfterMs?: number;
  cause: unknown;
}

const HINTS: Record<LlmErrorCode, string> = {
  RATE_LIMITED: 'it limits how fast this service may call it: run the job again later, run fewer jobs at once, or raise LLM_MAX_RETRIES',
  UNAVAILABLE: "the server or the model behind it is failing: check the server's logs and that LLM_MODEL is loaded",
  TIMEOUT: 'raise LLM_TIMEOUT_MS, or use a faster model or server',
  UNREACHABLE: 'check LLM_BASE_URL, and that the server is running and reachable from this service',
  MALFORMED_OUTPUT:
    'the model does not follow the JSON schema it is given: use a model that supports structured output, or set LLM_STRUCTURED_OUTPUT to json_schema or function_calling',
  UNAUTHORIZED: 'check LLM_API_KEY',
  NOT_FOUND:
    'check LLM_MODEL (is the model served, or pulled into Ollama?) and LLM_BASE_URL (an OpenAI-compatible URL usually ends in /v1)',
  REJECTED:
    'the server refused the request; if it does not support this kind of structured output, set LLM_STRUCTURED_OUTPUT to function_calling or json_schema',
  FAILED: 'see the cause in the log',
};

const TIMES = ['never', 'once', 'twice', 'three times', 'four times', 'five times'];
const times = (n: number) => TIMES[n] ?? `${n} times`;

/** What the fetch of one attempt saw: the last HTTP status and Retry-After, or the network error. */
interface HttpTrace {
  status?: number;
  retryAfterMs?: number;
  networkError?: unknown;
}

class TimeoutReason extends Error {
  override readonly name = 'LlmTimeout';
}

/** A reply that is not JSON for the schema; `problem` ends "Your previous reply could not be used: ...". */
class MalformedOutput extends Error {
  override readonly name = 'MalformedOutput';
}

const MALFORMED_ERROR_NAMES = new Set([
  'SyntaxError',
  'OutputParserException',
  'LengthFinishReasonError',
  'ContentFilterFinishReasonError',
]);

/**
 * One chat model behind an HTTP endpoint, reached through LangChain, asked for replies that match
 * a JSON Schema. LangChain's and the SDK's own retries are off: this class retries, so that it
 * can honour Retry-After, bound every attempt by a timeout, stop at once when the caller aborts,
 * and say in the end what went wrong in words an operator can act on.
 */
export class LlmEndpoint {
  private readonly retryBaseDelayMs: number;
  private readonly maxRetryDelayMs: number;

  constructor(readonly options: LlmEndpointOptions) {
    this.retryBaseDelayMs = options.retryBaseDelayMs ?? 1000;
    this.maxRetryDelayMs = options.maxRetryDelayMs ?? 30_000;
  }

  get model(): string {
    return this.options.model;
  }

  /**
   * A reply to `messages` that `validate` accepts. Timeouts, 408, 429, 5xx, an unreachable server
   * and replies that are not JSON for the schema are retried with exponential back-off (after a
   * malformed reply, with a message saying what was wrong); other failures end at once.
   * Throws LlmError, or the signal's reason when the caller aborts.
   */
  async ask<T>(messages: PromptMessage[], schema: JsonSchema, validate: ValidateFunction<T>, signal?: AbortSignal): Promise<T> {
    return this.withRetries((failures) => {
      const last = failures[failures.length - 1];
      const sent =
        last?.code === 'MALFORMED_OUTPUT'
          ? [...messages, { role: 'user' as const, content: malformedMessage(last.detail ?? 'it was not valid JSON') }]
          : messages;
      return this.attempt(async (chatModel, attemptSignal) => {
        const structured = chatModel({}).withStructuredOutput(schema, {
          name: ANSWER_SCHEMA_NAME,
          includeRaw: true,
          ...(this.method() ? { method: this.method() } : {}),
          // OpenAI enforces a strict schema while decoding; the answer schema keeps to what strict mode accepts.
          ...(this.options.provider === 'openai' ? { strict: true } : {}),
        });
        const output = structuredOutput(await structured.invoke(toLangChain(sent), { signal: attemptSignal }));
        if (!validate(output)) throw new MalformedOutput(`it does not match the schema: ${describeSchemaErrors(validate.errors)}`);
        return output;
      }, signal);
    }, signal);
  }

  /**
   * One turn of a tool-calling conversation: the model's reply, with the tool calls it makes.
   * Endpoint failures are retried and end as `ask`'s do; what the model says (a call to an unknown
   * tool, arguments that are not JSON) is the caller's to judge. Throws LlmError, or the signal's
   * reason when the caller aborts.
   */
  async chat(messages: BaseMessage[], options: ChatTurnOptions, signal?: AbortSignal): Promise<AIMessage> {
    return this.withRetries(
      () =>
        this.attempt(async (chatModel, attemptSignal) => {
          const model = chatModel({ temperature: options.temperature, maxTokens: options.maxTokens });
          if (!model.bindTools) throw new Error(`The ${this.options.provider} chat model cannot call tools`);
          const bound = model.bindTools(options.tools, options.forceTool ? { tool_choice: options.forceTool } : {}) as Runnable<
            BaseMessage[],
            AIMessage
          >;
          return bound.invoke(messages, { signal: attemptSignal });
        }, signal),
      signal,
    );
  }

  /** Runs attempts until one succeeds, a failure is not retryable, or the retries are spent. */
  private async withRetries<T>(attempt: (failures: Failure[]) => Promise<AttemptResult<T>>, signal?: AbortSignal): Promise<T> {
    const failures: Failure[] = [];
    const attempts = this.options.maxRetries + 1;
    for (let n = 1; ; n++) {
      signal?.throwIfAborted();
      const result = await attempt(failures);
      if (result.ok) return result.output;
      const failure = result.failure;
      failures.push(failure);
      if (!failure.retryable || n >= attempts) throw this.error(failures);
      const delay = failure.retryAfterMs ?? this.backoff(n);
      if (delay > this.maxRetryDelayMs) throw this.error(failures, delay);
      await sleep(delay, signal);
    }
  }

  private backoff(attempt: number): number {
    const ceiling = Math.min(this.maxRetryDelayMs, this.retryBaseDelayMs * 2 ** (attempt - 1));
    // Half fixed, half random: replicas that failed together do not retry together.
    return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
  }

  /** One attempt, bounded by the timeout and the caller's signal, its failure classified. */
  private async attempt<T>(
    run: (chatModel: (sampling: Sampling) => BaseChatModel, signal: AbortSignal) => Promise<T>,
    signal: AbortSignal | undefined,
  ): Promise<AttemptResult<T>> {
    const controller = new AbortController();
    const timer = setTimeout(
      () => controller.abort(new TimeoutReason(`no answer within ${this.options.timeoutMs} ms`)),
      this.options.timeoutMs,
    );
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    const http: HttpTrace = {};
    try {
      const chatModel = (sampling: Sampling) => this.chatModel(tracedFetch(http, controller.signal), sampling);
      const output = await untilAborted(run(chatModel, controller.signal), controller.signal);
      return { ok: true, output };
    } catch (err) {
      if (signal?.aborted) throw signal.reason;
      return { ok: false, failure: this.classify(err, http, controller.signal) };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  private method(): 'jsonSchema' | 'functionCalling' | undefined {
    switch (this.options.structuredOutput) {
      case 'json_schema':
        return 'jsonSchema';
      case 'function_calling':
        return 'functionCalling';
      case 'auto':
        return undefined;
    }
  }

  /** A new client per attempt, so that its fetch can report the HTTP status of this attempt alone. */
  private chatModel(fetchFn: typeof fetch, sampling: Sampling): BaseChatModel {
    const { provider, model, baseUrl, apiKey, timeoutMs } = this.options;
    const temperature = sampling.temperature ?? 0;
    if (provider === 'openai') {
      return new ChatOpenAI({
        model,
        // The SDK insists on a key; servers without authentication ignore it.
        apiKey: apiKey ?? 'unused',
        configuration: { baseURL: baseUrl, fetch: fetchFn },
        maxRetries: 0,
        timeout: timeoutMs,
        // Reasoning models accept only their default temperature.
        temperature: isReasoningModel(model) ? undefined : temperature,
        maxTokens: sampling.maxTokens,
      });
    }
    return new ChatOllama({
      model,
      baseUrl,
      headers: apiKey ? { Authorization: `Bearer ${apiKey}` } : undefined,
      maxRetries: 0,
      temperature,
      numPredict: sampling.maxTokens,
      fetch: fetchFn,
    });
  }

  private classify(err: unknown, http: HttpTrace, attemptSignal: AbortSignal): Failure {
    const e = err as { name?: string; message?: string; status?: unknown; status_code?: unknown };
    const message = typeof e?.message === 'string' ? e.message : String(err);
    if (attemptSignal.reason instanceof TimeoutReason || e?.name === 'TimeoutError') {
      return { code: 'TIMEOUT', retryable: true, what: `did not answer within ${this.options.timeoutMs} ms (LLM_TIMEOUT_MS)`, cause: err };
    }
    const status = http.status && http.status >= 400 ? http.status : (numeric(e?.status) ?? numeric(e?.status_code));
    if (status && status >= 400) {
      const what = `answered ${status} ${STATUS_CODES[status] ?? 'Error'}`;
      const detail = serverMessage(message, status);
      const base = { what, detail, cause: err, retryAfterMs: http.retryAfterMs };
      if (status === 429) return { ...base, code: 'RATE_LIMITED', retryable: true };
      if (status === 408) return { ...base, code: 'TIMEOUT', retryable: true };
      if (status === 409 || status === 425 || status >= 500) return { ...base, code: 'UNAVAILABLE', retryable: true };
      if (status === 401 || status === 403) return { ...base, code: 'UNAUTHORIZED', retryable: false };
      if (status === 404) return { ...base, code: 'NOT_FOUND', retryable: false };
      return { ...base, code: 'REJECTED', retryable: false };
    }
    if (err instanceof MalformedOutput || MALFORMED_ERROR_NAMES.has(e?.name ?? '')) {
      const detail = err instanceof MalformedOutput ? message : `it is not valid JSON (${message})`;
      return {
        code: 'MALFORMED_OUTPUT',
        retryable: true,
        what: 'replied with output that is not an answer in the requested JSON schema',
        detail,
        cause: err,
      };
    }
    if (
      http.networkError ||
      e?.name === 'APIConnectionError' ||
      /fetch failed|ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|socket hang up/i.test(message)
    ) {
      const cause = http.networkError as { cause?: { code?: string; message?: string } } | undefined;
      const detail = cause?.cause?.message ?? cause?.cause?.code ?? message;
      return { code: 'UNREACHABLE', retryable: true, what: 'could not be reached', detail, cause: err };
    }
    return { code: 'FAILED', retryable: false, what: 'failed', detail: message, cause: err };
  }

  private error(failures: Failure[], waitMs?: number): LlmError {
    const last = failures[failures.length - 1];
    const where = `The LLM endpoint at ${this.options.baseUrl} (model ${this.options.model})`;
    const same = failures.every((f) => f.what === last.what);
    let what: string;
    if (waitMs !== undefined) {
      what = `${last.what} and asked to wait ${Math.ceil(waitMs / 1000)} s before retrying, longer than this service waits (${Math.ceil(this.maxRetryDelayMs / 1000)} s)`;
    } else if (failures.length === 1) {
      what = last.retryable ? `${last.what} (no retries: LLM_MAX_RETRIES is 0)` : last.what;
    } else if (same) {
      what = `${last.what} ${times(failures.length)}`;
    } else {
      what = `failed ${times(failures.length)}: ${failures.map((f) => f.what).join('; then ')}`;
    }
    const detail = last.detail ? ` (last: ${truncate(last.detail, 300)})` : '';
    return new LlmError(last.code, `${where} ${what}${detail}; ${HINTS[last.code]}.`, failures.length, { cause: last.cause });
  }
}

/** The object the model replied, or MalformedOutput saying why there is none. */
function structuredOutput(reply: { raw: BaseMessage; parsed: unknown }): unknown {
  const { raw, parsed } = reply;
  if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed;
  if (parsed !== null && parsed !== undefined)
    throw new MalformedOutput(`it is ${JSON.stringify(parsed).slice(0, 100)}, not a JSON object`);
  const ai = raw as AIMessage;
  const invalid = ai.invalid_tool_calls?.[0];
  if (invalid) throw new MalformedOutput(`the arguments of the function call are not valid JSON: ${truncate(invalid.args ?? '', 100)}`);
  const text = typeof raw.content === 'string' ? raw.content : JSON.stringify(raw.content);
  if (!text.trim()) return failEmpty(ai);
  throw new MalformedOutput(`it is not valid JSON: ${truncate(text, 100)}`);
}

function failEmpty(ai: AIMessage): never {
  const finish = (ai.response_metadata as { finish_reason?: string; done_reason?: string } | undefined) ?? {};
  const reason = finish.finish_reason ?? finish.done_reason;
  throw new MalformedOutput(reason === 'length' ? 'it was cut off at the output token limit' : 'it is empty');
}

function toLangChain(messages: PromptMessage[]): BaseMessage[] {
  return messages.map((m) => {
    switch (m.role) {
      case 'system':
        return new SystemMessage(m.content);
      case 'user':
        return new HumanMessage(m.content);
      case 'assistant':
        return new AIMessage(m.content);
    }
  });
}

/** A fetch bounded by the attempt's signal that notes the status and Retry-After of each response. */
function tracedFetch(http: HttpTrace, signal: AbortSignal): typeof fetch {
  return async (input, init) => {
    try {
      const response = await fetch(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, signal]) : signal });
      http.status = response.status;
      http.retryAfterMs = retryAfterMs(response.headers);
      return response;
    } catch (err) {
      if (!signal.aborted) http.networkError = err;
      throw err;
    }
  };
}

/** Retry-After in milliseconds: OpenAI's retry-after-ms, or Retry-After in seconds or as an HTTP date. */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const ms = Number(headers.get('retry-after-ms'));
  if (headers.get('retry-after-ms') && Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers.get('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Rejects when the signal aborts, even if the call ignores it: no attempt outlives its timeout. */
function untilAborted<T>(call: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    call.catch(() => undefined);
    return Promise.reject(signal.reason as Error);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    call.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err as Error);
      },
    );
  });
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

const numeric = (v: unknown): number | undefined => (typeof v === 'number' && Number.isInteger(v) ? v : undefined);

/** The server's own words, without the status the SDK puts in front ("429 Rate limit reached" → "Rate limit reached"). */
function serverMessage(message: string, status: number): string | undefined {
  const text = message
    .replace(/\s*Troubleshooting URL: \S+/g, '')
    .replace(new RegExp(`^${status}\\s*`), '')
    .trim();
  return text && text !== STATUS_CODES[status] && !/status code \(no body\)/i.test(text) ? text : undefined;
}

const truncate = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}…` : s);

const isReasoningModel = (model: string) => /^o\d/.test(model) || (model.startsWith('gpt-5') && !model.startsWith('gpt-5-chat'));
