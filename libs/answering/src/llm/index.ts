export { ANSWER_SCHEMA_NAME, answerSchema, type LlmAnswerOutput, type LlmCitationOutput } from './answer-schema';
export * from './create-llm-reader';
export {
  LlmEndpoint,
  LlmError,
  type ChatToolDefinition,
  type ChatTurnOptions,
  type LlmEndpointOptions,
  type LlmErrorCode,
} from './llm-endpoint';
export * from './llm-env';
export * from './llm-reader';
export * from './llm-rows';
