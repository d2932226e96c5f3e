export * from './types';
export { AgentTools, type ToolJobAnswer, type ToolOutcome, type ToolPassage } from './agent-tools';
export { AGENT_TOOLS, TOOL_LIMITS, type AgentToolDefinition, type AgentToolName } from './tool-definitions';
export { SourceLedger, type LedgerSource } from './source-ledger';
export { BuiltinAgent, NO_ANSWER } from './builtin-agent';
export { LlmAgent, llmAgentOptions, type LlmAgentOptions } from './llm-agent';
export { compileOutputSchema, type OutputCheck, type SchemaCheck } from './output-schema';
