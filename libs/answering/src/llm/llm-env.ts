import { IsIn, IsNotEmpty, IsOptional, ValidateIf } from 'class-validator';
import { IsHttpUrlVar, IsIntegerVar } from '@docintel/config';

export const LLM_PROVIDERS = ['openai', 'ollama'] as const;
export type LlmProvider = (typeof LLM_PROVIDERS)[number];

/**
 * How structured output is asked for. `auto`: what LangChain picks for the model (a JSON Schema
 * response format, or function calling for models that predate it); `json_schema` and
 * `function_calling` force one, for servers that implement only one of them.
 */
export const LLM_STRUCTURED_OUTPUT_METHODS = ['auto', 'json_schema', 'function_calling'] as const;
export type LlmStructuredOutputMethod = (typeof LLM_STRUCTURED_OUTPUT_METHODS)[number];

export const DEFAULT_LLM_BASE_URLS: Record<LlmProvider, string> = { openai: 'https://api.openai.com/v1', ollama: 'http://127.0.0.1:11434' };

/**
 * The LLM variables are required only when the LLM answers: when the class they are read into has
 * no ANSWERING_ENGINE (it is read for the LLM alone) or ANSWERING_ENGINE is llm.
 */
const llmAnswers = (env: object): boolean => {
  const engine = (env as { ANSWERING_ENGINE?: unknown }).ANSWERING_ENGINE;
  return engine === undefined || engine === 'llm';
};
const onOpenAi = (env: LlmEnv): boolean => llmAnswers(env) && env.LLM_PROVIDER === 'openai' && env.LLM_BASE_URL === undefined;

/**
 * The optional LLM answering engine (ANSWERING_ENGINE=llm): a chat model reached through
 * LangChain, either any OpenAI-compatible /v1/chat/completions endpoint (`openai`: OpenAI, vLLM,
 * llama.cpp server, LiteLLM, Ollama's /v1) or Ollama's native /api/chat (`ollama`).
 * ANSWERING_ENGINE itself is read by the service that chooses the engine.
 */
export class LlmEnv {
  @IsIn(LLM_PROVIDERS, { message: `must be one of ${LLM_PROVIDERS.join(', ')}` })
  LLM_PROVIDER: LlmProvider = 'openai';

  /** openai: defaults to https://api.openai.com/v1 (a compatible server's URL usually ends in /v1); ollama: to http://127.0.0.1:11434. */
  @IsOptional()
  @IsHttpUrlVar('http://127.0.0.1:11434 or https://api.openai.com/v1')
  LLM_BASE_URL?: string;

  /** Sent as a bearer token. Required for api.openai.com; servers without authentication ignore it. */
  @ValidateIf(onOpenAi)
  @IsNotEmpty({ message: 'is required when LLM_PROVIDER is openai and LLM_BASE_URL is unset (api.openai.com)' })
  LLM_API_KEY?: string;

  /** The provider's model name, for example gpt-4o-mini or llama3.1:8b. */
  @ValidateIf(llmAnswers)
  @IsNotEmpty({ message: 'is required when ANSWERING_ENGINE is llm: the model name, for example gpt-4o-mini or llama3.1:8b' })
  LLM_MODEL?: string;

  /** Time limit of one request, including reading the whole answer. */
  @IsIntegerVar(100, 600_000, 'must be an integer number of milliseconds')
  LLM_TIMEOUT_MS = 60_000;

  /** Retries of a failed request (timeout, 408, 429, 5xx, unreachable, output that is not valid JSON for the schema), with exponential back-off. */
  @IsIntegerVar(0, 10, 'must be an integer')
  LLM_MAX_RETRIES = 2;

  @IsIn(LLM_STRUCTURED_OUTPUT_METHODS, { message: `must be one of ${LLM_STRUCTURED_OUTPUT_METHODS.join(', ')}` })
  LLM_STRUCTURED_OUTPUT: LlmStructuredOutputMethod = 'auto';
}
