import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Agent jobs. An agent job is a job of kind 'agent' with one unit, run from its own queue.
 *
 * - agent_conversations / agent_turns: a stateful conversation, owned by one user of one
 *   namespace; a job that ends in SUCCESS appends its user message and its answer, in the same
 *   transaction that writes its result, so a redelivered run never appends twice.
 * - jobs.conversation_id: the conversation a job belongs to, for GET /agent/jobs?conversationId=.
 * - job_idempotency_keys: an Idempotency-Key of a user and the job it created, with a hash of the
 *   request, so the same key returns the same job and a different body is refused; rows older than
 *   JOB_IDEMPOTENCY_TTL_SECONDS are ignored and purged by the sweeper.
 * - job_trace_steps: the tool calls of a run, in order, written as they happen.
 */
export class AgentJobs1764000000000 implements MigrationInterface {
  name = 'AgentJobs1764000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE agent_conversations (
        id uuid PRIMARY KEY,
        namespace_id uuid NOT NULL,
        user_id text NOT NULL,
        turns integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        modified_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE agent_turns (
        conversation_id uuid NOT NULL REFERENCES agent_conversations (id) ON DELETE CASCADE,
        ordinal integer NOT NULL,
        job_id uuid NOT NULL,
        role text NOT NULL,
        content text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (conversation_id, ordinal)
      )`);
    await q.query(`ALTER TABLE jobs ADD COLUMN conversation_id uuid`);
    await q.query(`CREATE INDEX jobs_conversation_idx ON jobs (conversation_id, created_at DESC) WHERE conversation_id IS NOT NULL`);
    await q.query(`
      CREATE TABLE job_idempotency_keys (
        namespace_id uuid NOT NULL,
        user_id text NOT NULL,
        key text NOT NULL,
        request_hash text NOT NULL,
        job_id uuid NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (namespace_id, user_id, key)
      )`);
    await q.query(`CREATE INDEX job_idempotency_keys_age_idx ON job_idempotency_keys (created_at)`);
    await q.query(`
      CREATE TABLE job_trace_steps (
        job_id uuid NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
        step integer NOT NULL,
        data jsonb NOT NULL,
        PRIMARY KEY (job_id, step)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE job_trace_steps');
    await q.query('DROP TABLE job_idempotency_keys');
    await q.query('DROP INDEX jobs_conversation_idx');
    await q.query('ALTER TABLE jobs DROP COLUMN conversation_id');
    await q.query('DROP TABLE agent_turns');
    await q.query('DROP TABLE agent_conversations');
  }
}
