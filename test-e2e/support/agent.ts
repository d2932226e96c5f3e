/** What the agent routes answer, as the generated client (@docintel/api-client) types them. */
import type { AgentJobOutputs, AgentTrace as ApiAgentTrace, Annotation, Job, Schemas } from '@docintel/api-client';

export type AgentJob = Job;
export type AgentOutputs = AgentJobOutputs;
export type AgentAnnotation = Annotation;
export type AgentTraceStep = Schemas['AgentTraceStepDto'];
export type AgentTrace = ApiAgentTrace;
