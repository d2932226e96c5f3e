import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A test double for a paid chat-completions API (OpenAI, or any server speaking its wire protocol:
 * vLLM, llama.cpp, LiteLLM, Ollama's /v1). No such service can be reached from tests, so this
 * small HTTP server, started on a random local port, speaks the protocol and answers from a script
 * the test supplies: a queue of canned replies or a function of the request. It records every
 * request, so that tests can assert what the client sent.
 *
 * What it understands of POST /v1/chat/completions:
 * - structured output as `response_format: {type: "json_schema", json_schema: {name, schema, strict}}`
 *   (what LangChain's ChatOpenAI.withStructuredOutput sends by default, method "jsonSchema") and
 *   `{type: "json_object"}` (method "jsonMode"): the scripted output is the message content;
 * - function calling as `tools: [{type: "function", function: {name, parameters}}]` with
 *   `tool_choice: {type: "function", function: {name}}` (method "functionCalling"): the scripted
 *   output is the arguments of a tool call to the chosen function;
 * - tool calls the script names (`openAiReply.toolCalls`), for tool-calling loops that offer many
 *   tools and let the model choose;
 * - `stream: true`, answered as server-sent events.
 *
 * It checks nothing about the model's reasoning: it says what the script says. It is not a
 * model, and a reply passing here says nothing about how a real model would answer.
 */

/** A chat message as the wire protocol carries it (only the fields tests look at are typed). */
export interface OpenAiChatMessage {
  role: 'system' | 'developer' | 'user' | 'assistant' | 'tool' | 'function';
  content: string | null | Array<{ type: string; text?: string }>;
  tool_calls?: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
  [key: string]: unknown;
}

export interface OpenAiFunctionTool {
  type: 'function';
  function: { name: string; description?: string; parameters?: Record<string, unknown>; strict?: boolean };
}

/** The body of POST /v1/chat/completions (only the fields tests look at are typed). */
export interface ChatCompletionRequest {
  model: string;
  messages: OpenAiChatMessage[];
  response_format?:
    | { type: 'text' }
    | { type: 'json_object' }
    | {
        type: 'json_schema';
        json_schema: { name: string; description?: string; schema?: Record<string, unknown>; strict?: boolean | null };
      };
  tools?: OpenAiFunctionTool[];
  tool_choice?: 'none' | 'auto' | 'required' | { type: 'function'; function: { name: string } };
  stream?: boolean;
  temperature?: number;
  [key: string]: unknown;
}

/** One request the server received, as received. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | undefined>;
  /** The raw body text. */
  rawBody: string;
  /** The parsed body of a chat-completions request; undefined when the body was not JSON. */
  body?: ChatCompletionRequest;
  /** How the request asked for structured output, and with which JSON Schema. */
  structuredOutput: StructuredOutputRequest;
}

export type StructuredOutputRequest =
  | { method: 'json_schema'; name: string; schema: Record<string, unknown>; strict: boolean }
  | { method: 'function_calling'; name: string; schema: Record<string, unknown> }
  | { method: 'json_object' }
  | { method: 'none' };

/** What the server does with one request. */
export type ScriptedReply =
  /**
   * The model's output, placed where the request asked for it: the message content (json_schema,
   * json_object, plain text) or the arguments of a call to the function tool_choice names. A value
   * that is not a string is sent as JSON; a string is sent as it is (use this for malformed output).
   */
  | { kind: 'output'; output: unknown; finishReason?: string; delayMs?: number }
  /**
   * An assistant message calling these tools (whatever tool_choice says): arguments that are not
   * a string are sent as JSON, a string as it is (use this for arguments that are not JSON).
   */
  | { kind: 'tool_calls'; calls: ScriptedToolCall[]; content?: string; delayMs?: number }
  /** An error status with an OpenAI-style error body, e.g. 429 with a Retry-After header. */
  | { kind: 'error'; status: number; message?: string; headers?: Record<string, string>; delayMs?: number }
  /** Any status, headers and body, sent as given (e.g. a 200 whose body is not JSON). */
  | { kind: 'raw'; status: number; body: string; headers?: Record<string, string>; delayMs?: number }
  /** Accept the request and never answer: the client's timeout or abort must end it. */
  | { kind: 'hang' };

export interface ScriptedToolCall {
  name: string;
  arguments: unknown;
  /** Default: call_<n>, unique within the server's life. */
  id?: string;
}

/** Builders of scripted replies. */
export const openAiReply = {
  /** A structured answer (sent as JSON) or raw output text (sent as it is). */
  output: (output: unknown, options: { delayMs?: number; finishReason?: string } = {}): ScriptedReply => ({
    kind: 'output',
    output,
    ...options,
  }),
  /** An error status; `retryAfter` (seconds, or an HTTP date) sets the Retry-After header. */
  error: (
    status: number,
    options: { message?: string; retryAfter?: string | number; headers?: Record<string, string> } = {},
  ): ScriptedReply => ({
    kind: 'error',
    status,
    message: options.message,
    headers: { ...(options.retryAfter !== undefined ? { 'retry-after': String(options.retryAfter) } : {}), ...options.headers },
  }),
  /** 429 Too Many Requests, with a Retry-After header when `retryAfter` is given. */
  rateLimited: (retryAfter?: string | number): ScriptedReply =>
    openAiReply.error(429, { message: 'Rate limit reached for requests', retryAfter }),
  /** Output that is not JSON at all. */
  malformed: (text = 'Sure! The answer is {"found": true, "value": '): ScriptedReply => ({ kind: 'output', output: text }),
  /** Any reply, sent after `delayMs` (the connection stays open meanwhile). */
  slow: (delayMs: number, reply: ScriptedReply = openAiReply.output({})): ScriptedReply =>
    reply.kind === 'hang' ? reply : { ...reply, delayMs },
  raw: (status: number, body: string, headers?: Record<string, string>): ScriptedReply => ({ kind: 'raw', status, body, headers }),
  /** The model calls these tools, e.g. `toolCalls({ name: 'search', arguments: { query: 'rent' } })`. */
  toolCalls: (...calls: ScriptedToolCall[]): ScriptedReply => ({ kind: 'tool_calls', calls }),
  hang: (): ScriptedReply => ({ kind: 'hang' }),
};

/** Decides the reply to a request; `index` counts chat-completions requests from 0. */
export type ReplyScript = (request: RecordedRequest, index: number) => ScriptedReply | Promise<ScriptedReply>;

export interface TestOpenAiServer {
  /** The base URL to give an OpenAI client, ending in /v1. */
  readonly baseUrl: string;
  /** Every chat-completions request received, in order. */
  readonly requests: RecordedRequest[];
  /** Replies to use, first in first out, before `script` is asked. */
  enqueue(...replies: ScriptedReply[]): void;
  /** Asked when the queue is empty; without one an unscripted request gets a 500 that says so. */
  script?: ReplyScript;
  /** Forgets recorded requests, queued replies and the script. */
  reset(): void;
  stop(): Promise<void>;
}

const STATUS_TEXT: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'invalid_api_key',
  404: 'not_found',
  429: 'rate_limit_exceeded',
};

/** Starts a server on 127.0.0.1 and a free port. Stop it in afterAll. */
export async function startOpenAiServer(options: { model?: string } = {}): Promise<TestOpenAiServer> {
  const model = options.model ?? 'test-model';
  const requests: RecordedRequest[] = [];
  const queue: ScriptedReply[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let chatIndex = 0;

  const api: TestOpenAiServer = {
    baseUrl: '',
    requests,
    enqueue: (...replies) => void queue.push(...replies),
    script: undefined,
    reset() {
      requests.length = 0;
      queue.length = 0;
      chatIndex = 0;
      api.script = undefined;
    },
    stop: () => stop(),
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const rawBody = await readBody(req);
    const path = (req.url ?? '/').split('?')[0];
    if (req.method === 'GET' && path === '/v1/models') {
      return sendJson(res, 200, { object: 'list', data: [{ id: model, object: 'model', created: 0, owned_by: 'test' }] });
    }
    if (req.method !== 'POST' || path !== '/v1/chat/completions') {
      return sendJson(res, 404, errorBody(404, `No route ${req.method} ${path} on this test server`));
    }
    let body: ChatCompletionRequest | undefined;
    try {
      body = JSON.parse(rawBody) as ChatCompletionRequest;
    } catch {
      body = undefined;
    }
    const recorded: RecordedRequest = {
      method: req.method,
      path,
      headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : v])),
      rawBody,
      body,
      structuredOutput: body ? structuredOutputOf(body) : { method: 'none' },
    };
    requests.push(recorded);
    if (!body || !Array.isArray(body.messages)) {
      return sendJson(res, 400, errorBody(400, 'The body must be a JSON object with a messages array'));
    }
    const index = chatIndex++;
    const reply = queue.shift() ?? (api.script ? await api.script(recorded, index) : undefined);
    if (!reply) {
      return sendJson(res, 500, errorBody(500, `The test server has no scripted reply for request ${index + 1}`));
    }
    if (reply.kind === 'hang') return;
    if (reply.delayMs) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          timers.delete(timer);
          resolve();
        }, reply.delayMs);
        timers.add(timer);
        // The client gave up: nothing left to answer.
        res.on('close', () => {
          clearTimeout(timer);
          timers.delete(timer);
          resolve();
        });
      });
      if (res.destroyed || res.writableEnded) return;
    }
    switch (reply.kind) {
      case 'error':
        return sendJson(res, reply.status, errorBody(reply.status, reply.message), reply.headers);
      case 'raw':
        res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
        res.end(reply.body);
        return;
      case 'output':
      case 'tool_calls':
        return sendCompletion(res, body, model, reply);
    }
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, errorBody(500, `The test server failed: ${(err as Error).message}`));
      else res.destroy();
    });
  });

  const stop = (): Promise<void> =>
    new Promise((resolve) => {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      server.close(() => resolve());
      // Hanging and keep-alive connections would hold close() open.
      server.closeAllConnections();
    });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  (api as { baseUrl: string }).baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return api;
}

/** How a chat-completions request asks for structured output. */
export function structuredOutputOf(body: ChatCompletionRequest): StructuredOutputRequest {
  const format = body.response_format;
  if (format?.type === 'json_schema') {
    return {
      method: 'json_schema',
      name: format.json_schema.name,
      schema: format.json_schema.schema ?? {},
      strict: format.json_schema.strict === true,
    };
  }
  const forced = forcedFunction(body);
  if (forced) return { method: 'function_calling', name: forced.name, schema: forced.parameters ?? {} };
  if (format?.type === 'json_object') return { method: 'json_object' };
  return { method: 'none' };
}

/** The function a request makes the model call: the one tool_choice names, or the only tool when calls are required. */
function forcedFunction(body: ChatCompletionRequest): OpenAiFunctionTool['function'] | undefined {
  const tools = (body.tools ?? []).filter((t) => t.type === 'function');
  const choice = body.tool_choice;
  if (choice && typeof choice === 'object') return tools.find((t) => t.function.name === choice.function.name)?.function;
  if ((choice === 'required' || choice === undefined) && tools.length === 1) return tools[0].function;
  return undefined;
}

let toolCallCount = 0;

function sendCompletion(
  res: ServerResponse,
  body: ChatCompletionRequest,
  model: string,
  reply: Extract<ScriptedReply, { kind: 'output' | 'tool_calls' }>,
): void {
  const id = `chatcmpl-test-${Date.now().toString(36)}`;
  const created = Math.floor(Date.now() / 1000);
  const asText = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));
  const call = (name: string, args: unknown, callId?: string) => ({
    id: callId ?? `call_${++toolCallCount}`,
    type: 'function' as const,
    function: { name, arguments: asText(args) },
  });
  let text: string | null;
  let toolCalls: ReturnType<typeof call>[];
  if (reply.kind === 'tool_calls') {
    text = reply.content ?? null;
    toolCalls = reply.calls.map((c) => call(c.name, c.arguments, c.id));
  } else {
    const fn = forcedFunction(body);
    text = fn ? null : asText(reply.output);
    toolCalls = fn ? [call(fn.name, reply.output)] : [];
  }
  const finishReason = (reply.kind === 'output' ? reply.finishReason : undefined) ?? (toolCalls.length ? 'tool_calls' : 'stop');
  const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };

  if (body.stream) {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const chunk = (delta: unknown, finish: string | null) =>
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    res.write(chunk({ role: 'assistant', content: '' }, null));
    if (text !== null) res.write(chunk({ content: text }, null));
    if (toolCalls.length) res.write(chunk({ tool_calls: toolCalls.map((c, index) => ({ index, ...c })) }, null));
    res.write(chunk({}, finishReason));
    res.end('data: [DONE]\n\n');
    return;
  }
  const message = toolCalls.length
    ? { role: 'assistant', content: text, tool_calls: toolCalls, refusal: null }
    : { role: 'assistant', content: text, refusal: null };
  sendJson(res, 200, {
    id,
    object: 'chat.completion',
    created,
    model,
    choices: [{ index: 0, message, finish_reason: finishReason, logprobs: null }],
    usage,
  });
}

function errorBody(status: number, message?: string) {
  return {
    error: {
      message: message ?? `Test server error ${status}`,
      type: status >= 500 ? 'server_error' : 'invalid_request_error',
      param: null,
      code: STATUS_TEXT[status] ?? null,
    },
  };
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
