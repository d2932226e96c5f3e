import { LlmEndpoint, type LlmEndpointOptions } from './llm-endpoint';
import { DEFAULT_LLM_BASE_URLS, type LlmEnv } from './llm-env';
import { LlmReader } from './llm-reader';

/**
 * The LLM reader the configuration names (load LlmEnv with loadConfig first). Nothing is contacted
 * until the first answer. `overrides` are for tests (short back-off delays).
 */
export function createLlmReader(env: LlmEnv, overrides: Partial<LlmEndpointOptions> = {}): LlmReader {
  if (!env.LLM_MODEL) throw new Error('LLM_MODEL is required when ANSWERING_ENGINE is llm');
  const endpoint = new LlmEndpoint({
    provider: env.LLM_PROVIDER,
    baseUrl: (env.LLM_BASE_URL ?? DEFAULT_LLM_BASE_URLS[env.LLM_PROVIDER]).replace(/\/+$/, ''),
    apiKey: env.LLM_API_KEY,
    model: env.LLM_MODEL,
    timeoutMs: env.LLM_TIMEOUT_MS,
    maxRetries: env.LLM_MAX_RETRIES,
    structuredOutput: env.LLM_STRUCTURED_OUTPUT,
    ...overrides,
  });
  return new LlmReader(endpoint);
}
