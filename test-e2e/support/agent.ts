/** What the agent routes answer, as the e2e tests read them. */

export interface AgentJob {
  jobId: string;
  status: string;
  taskType: string;
  name: string;
  errorMessage?: string;
}

export interface AgentOutputs {
  answer: string | Record<string, unknown>;
  explanation: string;
  referenceIds: string[];
  conversationId?: string;
}

export interface AgentAnnotation {
  id: { id: string; entityType: string };
  type: string;
  data: { type: string; content: string; documentId: string; positions: Array<{ type: string; line_number?: number }> };
}

export interface AgentTraceStep {
  attempt: number;
  iteration: number;
  tool: string;
  arguments: Record<string, unknown>;
  result?: unknown;
  error?: string;
  startedAt: string;
  durationMs: number;
}

export interface AgentTrace {
  jobId: string;
  engine: string;
  steps: AgentTraceStep[];
}
