export * from './types';
export { AgentTools, type ToolJobAnswer, type ToolOutcome, type ToolPassage } from './agent-tools';
export { AGENT_TOOLS, TOOL_LIMITS, type AgentToolDefinition, type AgentToolName } from './tool-definitions';
export { SourceLedger, type LedgerSource } from './source-ledger';
export { BuiltinAgent, NO_ANSWER } from './builtin-agent';
export { LlmAgent, llmAgentOptions, type LlmAgentOptions } from './llm-agent';
export { compileOutputSchema, type OutputCheck, type SchemaCheck } from './output-schema';
export { OUTPUT_SCHEMA_MAX_FIELDS, expandedFieldCount, expandedSizeProblem } from './schema-fields';
export {
  SCHEMA_PATTERN_MAX_LENGTH,
  SCHEMA_PATTERN_MAX_PROGRAM_SIZE,
  compileSchemaPattern,
  schemaPatternProblems,
  type SchemaPatternProblem,
} from './schema-patterns';
export {
  bibliographicField,
  bibliographicQuestion,
  namesDocument,
  sectionCue,
  cuedQuery,
  cuedQuestion,
  preferSection,
  type BibliographicField,
  type BibliographicQuestion,
  type SectionCue,
} from './question-cues';
export {
  answerFromMetadata,
  bibliographicTarget,
  locateValue,
  metadataValues,
  metadataExplanation,
  DOCUMENT_METADATA,
  type LocatablePassage,
  type LocatedValue,
  type MetadataAnswer,
  type MetadataSource,
  type ValueSearch,
  type ValueSpan,
} from './document-metadata';
