import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { AgentRunFailed, type AgentEngine, type AgentEvidence, type AgentTraceStep, type AgentTurn } from '@docintel/answering';
import type { AgentJobOutputsDto } from '@docintel/contracts';
import { RpcClient } from '@docintel/messaging';
import { SERVICE_ENV } from '@docintel/runtime';
import { citationsToAnnotations, type CitedAnnotation } from '../../reading/citations';
import { PassageRanking } from '../../reading/passage-ranking';
import { jobContext } from '../../reading/unit-context';
import type { JobKindRunner } from '../../jobs/job-kind';
import type { JobRecord, UnitRecord } from '../../jobs/job-records';
import { JobsRepository, type UnitOutcome } from '../../jobs/jobs.repository';
import type { JobsEnv } from '../../jobs.env';
import { ExtractionJobs } from '../extraction/extraction-jobs';
import { QaJobs } from '../qa/qa-jobs';
import { AGENT_ENGINE } from './agent-engine.provider';
import type { AgentInputs } from './agent-inputs';
import { AgentRepository } from './agent.repository';
import { JobToolbox } from './job-toolbox';

/** Earlier turns of a conversation given to the engine at most (the latest ones). */
const HISTORY_TURNS = 40;

type AgentJob = JobRecord<AgentInputs>;

/** The result of an agent job that could not answer, with the reason where the answer would be. */
function failedAgentResult(job: AgentJob, reason: string): AgentJobOutputsDto {
  const conversationId = job.inputs.conversationId;
  return {
    answer: '',
    explanation: `The agent could not answer: ${reason}`,
    referenceIds: [],
    ...(conversationId ? { conversationId } : {}),
  };
}

/**
 * Runs an agent job: loads the conversation, gives the engine a toolbox over the job's files,
 * records every tool call in the trace as it happens, and turns the evidence of the answer into
 * DOCUMENT_STATEMENT annotations. A stateful run's message and answer join the conversation with
 * the result, in one transaction.
 */
@Injectable()
export class AgentUnitRunner implements JobKindRunner<AgentInputs, AgentJobOutputsDto> {
  constructor(
    private readonly rpc: RpcClient,
    private readonly repo: JobsRepository,
    private readonly questions: QaJobs,
    private readonly extractions: ExtractionJobs,
    private readonly ranking: PassageRanking,
    private readonly agents: AgentRepository,
    @Inject(AGENT_ENGINE) private readonly engine: AgentEngine,
    @Inject(SERVICE_ENV) private readonly env: JobsEnv,
  ) {}

  async run(
    job: AgentJob,
    unit: UnitRecord<AgentJobOutputsDto>,
    requestId: string,
    signal: AbortSignal,
  ): Promise<UnitOutcome<AgentJobOutputsDto>> {
    const { inputs } = job;
    const messages = await this.conversation(inputs);
    const toolbox = new JobToolbox(job, jobContext(job, requestId), {
      rpc: this.rpc,
      repo: this.repo,
      questions: this.questions,
      extractions: this.extractions,
      ranking: this.ranking,
      candidates: this.env.JOB_PASSAGES,
    });
    await this.agents.labelRun(job.id, this.engine.name);
    const trace = await this.traceWriter(job.id, unit.attempts);
    let outcome: UnitOutcome<AgentJobOutputsDto>;
    try {
      const result = await this.engine.run(
        {
          messages,
          outputSchema: inputs.outputModelSchema,
          maxIterations: inputs.maxIterations ?? this.env.AGENT_MAX_ITERATIONS,
          completion: {
            model: inputs.completionConfig?.model ?? 'BALANCED',
            temperature: inputs.completionConfig?.temperature,
            maxTokens: inputs.completionConfig?.max_completion_tokens,
          },
        },
        toolbox,
        trace.write,
        signal,
      );
      const annotations = toAnnotations(result.evidence);
      const output: AgentJobOutputsDto = {
        answer: result.answer,
        explanation: result.explanation,
        referenceIds: annotations.map((a) => a.id),
        ...(inputs.conversationId ? { conversationId: inputs.conversationId } : {}),
      };
      outcome = { status: 'DONE', results: [output], answered: 1, annotations };
      if (inputs.conversationId && inputs.message !== undefined) {
        const answer = typeof result.answer === 'string' ? result.answer : JSON.stringify(result.answer);
        outcome.conversation = {
          id: inputs.conversationId,
          turns: [
            { role: 'user', content: inputs.message },
            { role: 'assistant', content: answer },
          ],
        };
      }
    } catch (err) {
      if (!(err instanceof AgentRunFailed)) throw err;
      outcome = { status: 'FAILED', results: [failedAgentResult(job, err.message)], answered: 0, annotations: [], error: err.message };
    }
    await trace.flushed();
    return outcome;
  }
  failedResults(job: AgentJob, _unit: UnitRecord<AgentJobOutputsDto>, reason: string): AgentJobOutputsDto[] {
    return [failedAgentResult(job, reason)];
  }

  /** The turns the engine reads: the conversation's so far and the new message, or the stateless messages. */
  private async conversation(inputs: AgentInputs): Promise<AgentTurn[]> {
    if (inputs.messages) return inputs.messages.map((m) => ({ role: m.role, content: m.content }));
    const earlier = inputs.conversationId ? await this.agents.turns(inputs.conversationId, HISTORY_TURNS) : [];
    return [...earlier, { role: 'user', content: inputs.message ?? '' }];
  }

  /** Writes trace steps in order, after the ones of earlier attempts, without holding up the run. */
  private async traceWriter(jobId: string, attempt: number) {
    let step = await this.agents.traceLength(jobId);
    let chain = Promise.resolve();
    return {
      write: (s: AgentTraceStep): void => {
        const n = ++step;
        chain = chain.then(() => this.agents.addTraceStep(jobId, n, { attempt, ...s })).catch(() => undefined);
      },
      flushed: () => chain,
    };
  }
}

/** Passage spans become annotations with positions from the tree; a sub-job's statements are kept as they are. */
function toAnnotations(evidence: AgentEvidence[]): CitedAnnotation[] {
  const out: CitedAnnotation[] = [];
  const seen = new Set<string>();
  for (const e of evidence) {
    const cited =
      e.kind === 'passage'
        ? citationsToAnnotations([{ passageId: e.passage.id, start: e.start, end: e.end }], [e.passage])
        : [{ id: randomUUID(), data: e.statement }];
    for (const a of cited) {
      const key = JSON.stringify([a.data.documentId, a.data.content, a.data.positions]);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(a);
    }
  }
  return out;
}
