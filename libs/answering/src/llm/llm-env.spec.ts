import 'reflect-metadata';
import { ConfigError, loadConfig } from '@docintel/config';
import { createLlmReader } from './create-llm-reader';
import { LlmEnv } from './llm-env';

describe('LlmEnv', () => {
  const problems = (env: Record<string, string>): string[] => {
    try {
      loadConfig(LlmEnv, env);
      return [];
    } catch (e) {
      return (e as ConfigError).problems;
    }
  };

  it('has defaults for everything but the model', () => {
    const env = loadConfig(LlmEnv, { LLM_MODEL: 'llama3.1', LLM_PROVIDER: 'ollama' });
    expect(env).toMatchObject({ LLM_PROVIDER: 'ollama', LLM_TIMEOUT_MS: 60_000, LLM_MAX_RETRIES: 2, LLM_STRUCTURED_OUTPUT: 'auto' });
    expect(env.LLM_BASE_URL).toBeUndefined();
  });

  it('names each bad variable', () => {
    expect(problems({})).toEqual([
      expect.stringMatching(/^LLM_API_KEY \(unset\): is required when LLM_PROVIDER is openai and LLM_BASE_URL is unset/),
      expect.stringMatching(/^LLM_MODEL \(unset\): is required when ANSWERING_ENGINE is llm/),
    ]);
    expect(
      problems({
        LLM_MODEL: 'm',
        LLM_PROVIDER: 'anthropic',
        LLM_BASE_URL: 'localhost:8000',
        LLM_TIMEOUT_MS: 'soon',
        LLM_MAX_RETRIES: '50',
        LLM_STRUCTURED_OUTPUT: 'xml',
      }),
    ).toEqual([
      'LLM_PROVIDER ("anthropic"): must be one of openai, ollama',
      'LLM_BASE_URL ("localhost:8000"): must be an http(s) URL such as http://127.0.0.1:11434 or https://api.openai.com/v1',
      expect.stringMatching(/^LLM_TIMEOUT_MS \("soon"\): .*must be an integer number of milliseconds/),
      'LLM_MAX_RETRIES ("50"): must not be greater than 10',
      'LLM_STRUCTURED_OUTPUT ("xml"): must be one of auto, json_schema, function_calling',
    ]);
  });

  it('needs no key for a self-hosted OpenAI-compatible server', () => {
    expect(problems({ LLM_MODEL: 'm', LLM_BASE_URL: 'http://vllm:8000/v1' })).toEqual([]);
  });

  it('requires nothing when another engine answers', () => {
    expect(problems({ ANSWERING_ENGINE: 'builtin' })).toEqual([]);
  });

  it('makes a reader named after the model, contacting nothing', () => {
    expect(createLlmReader(loadConfig(LlmEnv, { LLM_MODEL: 'gpt-4o-mini', LLM_API_KEY: 'sk' })).name).toBe('llm:gpt-4o-mini');
    expect(() => createLlmReader(loadConfig(LlmEnv, { ANSWERING_ENGINE: 'builtin' }))).toThrow('LLM_MODEL is required');
  });
});
