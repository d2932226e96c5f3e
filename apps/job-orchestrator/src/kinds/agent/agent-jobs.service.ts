import { createHash, randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  DomainError,
  ErrorCode,
  agentModeProblems,
  type AgentTraceDto,
  type CreateAgentJobRequest,
  type JobDto,
  type ListAgentJobsRequest,
  type Page,
  type RpcContext,
} from '@docintel/contracts';
import { SERVICE_ENV } from '@docintel/runtime';
import { JobCreation, shorten } from '../../jobs/job-creation';
import type { JobFile } from '../../jobs/job-records';
import { toJobDto } from '../../jobs/job-mapper';
import { JobsRepository, ownerOf, type JobOwner } from '../../jobs/jobs.repository';
import { JobsService } from '../../jobs/jobs.service';
import type { JobsEnv } from '../../jobs.env';
import { AGENT_ENGINE_NAME } from './agent-engine.provider';
import type { AgentInputs } from './agent-inputs';
import { AgentRepository } from './agent.repository';
import { IdempotencyKeyTaken, canonicalJson, keyReused } from '../../jobs/job-idempotency';
import { outputSchemaProblems } from './output-schema';

/**
 * The request as hashed for its Idempotency-Key: every field but the key, keys sorted. Without the
 * kind (unlike createRequestHash), as agent keys were hashed before the other kinds took keys, so
 * keys recorded then still match their retries; another kind's hash differs by its kind anyway.
 */
export function requestHash(req: CreateAgentJobRequest): string {
  const { idempotencyKey: _key, ...body } = req;
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}

/** Creating agent jobs (modes, conversations, Idempotency-Keys), listing them and reading their traces. */
@Injectable()
export class AgentJobsService {
  constructor(
    private readonly creation: JobCreation,
    private readonly jobs: JobsService,
    private readonly repo: JobsRepository,
    private readonly agents: AgentRepository,
    @Inject(SERVICE_ENV) private readonly env: JobsEnv,
    @Inject(AGENT_ENGINE_NAME) private readonly engineName: string,
  ) {}

  async create(ctx: RpcContext, req: CreateAgentJobRequest): Promise<JobDto> {
    const owner = ownerOf(ctx);
    const problems = [...agentModeProblems(req), ...outputSchemaProblems(req.output_model_schema)];
    if (problems.length) throw DomainError.invalid(problems);
    const hash = req.idempotencyKey ? requestHash(req) : '';
    if (req.idempotencyKey) {
      const earlier = await this.earlierJob(owner, req.idempotencyKey, hash);
      if (earlier) return earlier;
    }
    const stateful = req.message != null;
    const existing = stateful ? (req.conversation_id ?? undefined) : undefined;
    if (existing && !(await this.agents.ownsConversation(owner, existing))) {
      throw new DomainError(ErrorCode.NOT_FOUND, `Conversation ${existing} was not found`, [
        { field: 'conversation_id', problem: 'names no conversation of yours' },
      ]);
    }
    const filesInput = req.files ?? (existing ? await this.conversationFiles(owner, existing) : undefined);
    const files: JobFile[] = filesInput ? await this.creation.resolveFiles(ctx, filesInput, req.config?.skip_unindexed_files === true) : [];
    const conversationId = stateful ? (existing ?? randomUUID()) : undefined;
    const inputs: AgentInputs = {
      ...(stateful ? { message: req.message } : { messages: req.messages }),
      ...(filesInput ? { files: filesInput } : {}),
      ...(req.output_model_schema ? { outputModelSchema: req.output_model_schema } : {}),
      completionConfig: {
        model: req.completion_config?.model ?? 'BALANCED',
        ...(req.completion_config?.temperature !== undefined ? { temperature: req.completion_config.temperature } : {}),
        ...(req.completion_config?.max_completion_tokens !== undefined
          ? { max_completion_tokens: req.completion_config.max_completion_tokens }
          : {}),
      },
      maxIterations: req.max_iterations ?? this.env.AGENT_MAX_ITERATIONS,
      ...(conversationId ? { conversationId } : {}),
      ...(req.config ? { config: req.config } : {}),
    };
    const lastMessage = stateful ? (req.message as string) : ((req.messages ?? []).at(-1)?.content ?? '');
    const jobId = randomUUID();
    try {
      const job = await this.creation.start(
        owner,
        'agent',
        shorten(lastMessage.replace(/\s+/g, ' ').trim() || 'Agent job'),
        inputs,
        files,
        [{ unit: 0, label: `agent run (${this.engineName})`, fileId: null, dependsOn: [] }],
        {
          id: jobId,
          conversationId,
          within: async (m) => {
            if (conversationId && !existing) await this.agents.createConversation(m, owner, conversationId);
            if (
              req.idempotencyKey &&
              !(await this.repo.claimIdempotencyKey(m, owner, req.idempotencyKey, hash, jobId, this.env.JOB_IDEMPOTENCY_TTL_SECONDS))
            ) {
              throw new IdempotencyKeyTaken();
            }
          },
        },
      );
      return toJobDto(job, await this.repo.counts(job.id));
    } catch (err) {
      if (!(err instanceof IdempotencyKeyTaken)) throw err;
      const earlier = await this.earlierJob(owner, req.idempotencyKey as string, hash);
      if (earlier) return earlier;
      throw err;
    }
  }

  /** The job an earlier request with this key created; 409 when that request differed. */
  private async earlierJob(owner: JobOwner, key: string, hash: string): Promise<JobDto | null> {
    const use = await this.repo.idempotentUse(owner, key, this.env.JOB_IDEMPOTENCY_TTL_SECONDS);
    if (!use) return null;
    if (use.requestHash !== hash) throw keyReused(key, use.jobId);
    const job = await this.repo.load(use.jobId);
    if (!job) return null;
    return toJobDto(job, await this.repo.counts(job.id));
  }

  /** The files of the conversation's latest job, for a turn that names none. */
  private async conversationFiles(owner: JobOwner, conversationId: string) {
    const { jobs } = await this.repo.list<AgentInputs>(owner, 'agent', {
      page: 0,
      pageSize: 1,
      sort: 'createdTime',
      order: 'DESC',
      conversationId,
    });
    return jobs[0]?.inputs.files;
  }

  list(ctx: RpcContext, req: ListAgentJobsRequest): Promise<Page<JobDto>> {
    return this.jobs.list(ctx, 'agent', { page: req.page, pageSize: req.pageSize, conversationId: req.conversationId });
  }

  async trace(ctx: RpcContext, jobId: string): Promise<AgentTraceDto> {
    const job = await this.jobs.job(ctx, 'agent', jobId);
    const [unit] = await this.repo.unitsByNumber(job.id, [0]);
    const engine = /\((.+)\)$/.exec(unit?.label ?? '')?.[1] ?? this.engineName;
    return { jobId: job.id, engine, steps: await this.agents.trace(job.id) };
  }
}
