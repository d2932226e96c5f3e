import type { Provider } from '@nestjs/common';
import { BuiltinAgent, LlmAgent, LlmEnv, llmAgentOptions, type AgentEngine } from '@docintel/answering';
import { loadConfig } from '@docintel/config';
import { SERVICE_ENV } from '@docintel/runtime';
import { builtinReader, type JobsEnv } from '../../jobs.env';

export const AGENT_ENGINE = Symbol('AGENT_ENGINE');
/** "builtin" or "llm:<model>": shown in the trace and in the job's unit label. */
export const AGENT_ENGINE_NAME = Symbol('AGENT_ENGINE_NAME');

/**
 * The engine AGENT_ENGINE names, built at start-up so that a bad LLM_* variable stops the process
 * with a message naming it. The built-in planner needs nothing; the LLM loop reads LLM_* like the
 * LLM reader, with AGENT_MODEL_FAST / AGENT_MODEL_BALANCED for completion_config.model.
 */
export function createAgentEngine(env: JobsEnv): AgentEngine {
  if (env.AGENT_ENGINE !== 'llm') return new BuiltinAgent(builtinReader(env));
  const llm = loadConfig(LlmEnv, { ...process.env, ANSWERING_ENGINE: 'llm' });
  const model = llm.LLM_MODEL as string;
  return new LlmAgent(llmAgentOptions(llm, { FAST: env.AGENT_MODEL_FAST ?? model, BALANCED: env.AGENT_MODEL_BALANCED ?? model }));
}

export function agentEngineProviders(): Provider[] {
  return [
    { provide: AGENT_ENGINE, useFactory: (env: JobsEnv) => createAgentEngine(env), inject: [SERVICE_ENV] },
    { provide: AGENT_ENGINE_NAME, useFactory: (engine: AgentEngine) => engine.name, inject: [AGENT_ENGINE] },
  ];
}
