import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { AgentRole, AgentTraceStepDto } from '@docintel/contracts';
import type { JobOwner } from '../../jobs/jobs.repository';

export interface ConversationTurn {
  role: AgentRole;
  content: string;
}

/** Conversations, Idempotency-Keys and run traces of agent jobs (tables of the jobs schema). */
@Injectable()
export class AgentRepository {
  constructor(private readonly ds: DataSource) {}

  /** True when the conversation exists and is the owner's (another user's is false, as if it did not exist). */
  async ownsConversation(owner: JobOwner, conversationId: string): Promise<boolean> {
    const rows = (await this.ds.query('SELECT 1 FROM agent_conversations WHERE id = $1 AND namespace_id = $2 AND user_id = $3', [
      conversationId,
      owner.namespaceId,
      owner.userId,
    ])) as unknown[];
    return rows.length > 0;
  }

  async createConversation(m: EntityManager, owner: JobOwner, conversationId: string): Promise<void> {
    await m.query('INSERT INTO agent_conversations (id, namespace_id, user_id) VALUES ($1, $2, $3)', [
      conversationId,
      owner.namespaceId,
      owner.userId,
    ]);
  }

  /** The conversation's turns, oldest first; the last `limit` of them. */
  async turns(conversationId: string, limit: number): Promise<ConversationTurn[]> {
    const rows = (await this.ds.query(
      `SELECT role, content FROM (
         SELECT role, content, ordinal FROM agent_turns WHERE conversation_id = $1 ORDER BY ordinal DESC LIMIT $2
       ) t ORDER BY ordinal`,
      [conversationId, limit],
    )) as ConversationTurn[];
    return rows;
  }

  /** Forgets keys older than ttlSeconds; returns how many. */
  async purgeKeys(ttlSeconds: number): Promise<number> {
    const rows = (await this.ds.query(
      'DELETE FROM job_idempotency_keys WHERE created_at <= now() - make_interval(secs => $1::int) RETURNING key',
      [ttlSeconds],
    )) as [unknown[], number];
    return rows[1];
  }

  /** Names the engine that runs the job in its unit's label, which the trace shows (replicas may be configured differently). */
  async labelRun(jobId: string, engine: string): Promise<void> {
    await this.ds.query('UPDATE job_units SET label = $2 WHERE job_id = $1 AND unit = 0', [jobId, `agent run (${engine})`]);
  }

  /** Writes step number `step` of the job's trace (a redelivered run continues after the last). */
  async addTraceStep(jobId: string, step: number, data: AgentTraceStepDto): Promise<void> {
    await this.ds.query('INSERT INTO job_trace_steps (job_id, step, data) VALUES ($1, $2, $3::jsonb) ON CONFLICT DO NOTHING', [
      jobId,
      step,
      JSON.stringify(data),
    ]);
  }

  async traceLength(jobId: string): Promise<number> {
    const [{ last }] = (await this.ds.query('SELECT coalesce(max(step), 0)::int AS last FROM job_trace_steps WHERE job_id = $1', [
      jobId,
    ])) as Array<{
      last: number;
    }>;
    return last;
  }

  async trace(jobId: string, limit = 1000): Promise<AgentTraceStepDto[]> {
    const rows = (await this.ds.query('SELECT data FROM job_trace_steps WHERE job_id = $1 ORDER BY step LIMIT $2', [
      jobId,
      limit,
    ])) as Array<{
      data: AgentTraceStepDto;
    }>;
    return rows.map((r) => r.data);
  }
}
