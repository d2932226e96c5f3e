import type { AgentFile, AgentToolbox, JobAnswer, ToolMeta, ToolQuestion } from '@docintel/answering';
import {
  DomainError,
  FilesOntologies,
  PassagesAround,
  PassagesSearch,
  TERMINAL_JOB_STATUSES,
  type DocumentStatementDto,
  type JobDto,
  type MetaResultDto,
  type OntologyDto,
  type PassageDto,
  type QaResultDto,
  type RpcContext,
} from '@docintel/contracts';
import { RpcClient } from '@docintel/messaging';
import type { JobRecord } from '../../jobs/job-records';
import { JobsRepository } from '../../jobs/jobs.repository';
import { PassageRanking } from '../../reading/passage-ranking';
import type { ExtractionJobs } from '../extraction/extraction-jobs';
import type { QaJobs } from '../qa/qa-jobs';

/** How often a waiting tool looks at its sub-job. */
const SUB_JOB_POLL_MS = 150;

export interface JobToolboxDeps {
  rpc: RpcClient;
  repo: JobsRepository;
  questions: QaJobs;
  extractions: ExtractionJobs;
  ranking: PassageRanking;
  /** Passages retrieval returns before ranking keeps `limit` of them. */
  candidates: number;
}

/**
 * The agent's tools over one agent job's files, acting as the job's owner in its namespace: a
 * file outside the job is refused here, and the services called check the namespace again.
 * Question and extraction tools run real jobs of the orchestrator (they show in the caller's job
 * lists, named after the agent job) and wait for them; an aborted run cancels its sub-job.
 */
export class JobToolbox implements AgentToolbox {
  readonly files: AgentFile[];
  private readonly known: Set<string>;

  constructor(
    private readonly job: JobRecord,
    private readonly ctx: RpcContext,
    private readonly deps: JobToolboxDeps,
  ) {
    this.files = job.files.map((f) => ({ fileId: f.fileId, name: f.name }));
    this.known = new Set(this.files.map((f) => f.fileId));
  }

  async searchPassages(query: string, opts: { fileIds?: string[]; limit: number }, signal?: AbortSignal): Promise<PassageDto[]> {
    const fileIds = this.readable(opts.fileIds);
    if (!fileIds.length || !query.trim()) return [];
    const { passages } = await this.deps.rpc.call(
      PassagesSearch,
      { query: query.slice(0, 8000), fileIds, limit: Math.max(opts.limit, this.deps.candidates) },
      this.ctx,
    );
    return (await this.deps.ranking.rank(query, passages, signal)).slice(0, opts.limit);
  }

  async readAround(fileId: string, nodeId: string, opts: { before: number; after: number }): Promise<PassageDto[]> {
    this.readable([fileId]);
    const { passages } = await this.deps.rpc.call(PassagesAround, { fileId, nodeId, before: opts.before, after: opts.after }, this.ctx);
    return passages;
  }

  ontologies(fileId: string): Promise<OntologyDto[]> {
    this.readable([fileId]);
    return this.deps.rpc.call(FilesOntologies, { fileId }, this.ctx);
  }

  async askQuestions(questions: ToolQuestion[], fileIds: string[] | undefined, signal?: AbortSignal): Promise<JobAnswer[]> {
    const ids = this.readable(fileIds);
    if (!ids.length) return questions.map((q) => noFiles(q.question));
    const created = await this.deps.questions.create(
      this.ctx,
      {
        name: this.subJobName(questions[0].question),
        files: { fileIds: ids },
        questions: questions.map((q, i) => ({
          id: String(i + 1),
          question: q.question,
          answerType: q.answerType,
          guidelines: q.guidelines,
        })),
        config: { skip_unindexed_files: true },
      },
      { subJob: true },
    );
    const results = (await this.waitFor(created, signal)) as QaResultDto[];
    const statements = await this.statementsOf(created.jobId);
    return results.map((r) => ({
      question: r.question,
      found: r.found !== false && r.rawValue !== '',
      rawValue: r.rawValue,
      explanation: r.explanation,
      statements: r.referenceIds.map((ref) => statements.get(ref.id)).filter((s): s is DocumentStatementDto => !!s),
    }));
  }

  async extractMetadata(metas: ToolMeta[], fileIds: string[] | undefined, signal?: AbortSignal): Promise<JobAnswer[]> {
    const ids = this.readable(fileIds);
    if (!ids.length) return metas.map((m) => noFiles(m.meta));
    const created = await this.deps.extractions.create(
      this.ctx,
      {
        name: this.subJobName(metas.map((m) => m.meta).join(', ')),
        files: { fileIds: ids },
        metas: metas.map((m) => ({ meta: m.meta, description: m.description, answerType: m.answerType })),
        config: { skip_unindexed_files: true },
      },
      { subJob: true },
    );
    const results = (await this.waitFor(created, signal)) as MetaResultDto[];
    const statements = await this.statementsOf(created.jobId);
    return results.map((r) => ({
      question: r.meta,
      fileId: r.fileId,
      found: !!r.rawValue,
      rawValue: r.rawValue ?? '',
      explanation: r.explanation,
      statements: r.referenceIds.map((ref) => statements.get(ref.id)).filter((s): s is DocumentStatementDto => !!s),
    }));
  }

  /** The file ids asked for (all of the job's when none), each checked to be one of the job's. */
  private readable(fileIds: string[] | undefined): string[] {
    if (!fileIds?.length) return [...this.known];
    const foreign = fileIds.filter((id) => !this.known.has(id));
    if (foreign.length) {
      throw DomainError.invalid(
        foreign.map((id) => ({ field: 'fileIds', problem: `names ${id}, which is not one of the files this agent job may read` })),
        'The tool names files outside the job',
      );
    }
    return [...new Set(fileIds)];
  }

  private subJobName(what: string): string {
    const text = `Agent ${this.job.id.slice(0, 8)}: ${what.replace(/\s+/g, ' ')}`;
    return text.length > 120 ? `${text.slice(0, 119)}…` : text;
  }

  /** Waits for a sub-job to end and returns its results; cancels it if the run is aborted. */
  private async waitFor(created: JobDto, signal?: AbortSignal): Promise<unknown[]> {
    for (;;) {
      if (signal?.aborted) {
        await this.deps.repo.abort(created.jobId, 'Cancelled: the agent job that asked for it stopped.');
        throw signal.reason instanceof Error ? signal.reason : new Error('aborted');
      }
      const job = await this.deps.repo.load(created.jobId);
      if (!job) throw new Error(`the sub-job ${created.jobId} disappeared`);
      if (TERMINAL_JOB_STATUSES.includes(job.status)) {
        if (job.status !== 'SUCCESS')
          throw new Error(`the sub-job ${job.id} ended ${job.status}: ${job.errorMessage ?? 'no reason given'}`);
        const units = await this.deps.repo.unitResults(job.id, 0, 10_000);
        return units.flatMap((u) => u.results);
      }
      await new Promise((resolve) => setTimeout(resolve, SUB_JOB_POLL_MS));
    }
  }

  private async statementsOf(jobId: string): Promise<Map<string, DocumentStatementDto>> {
    const rows = await this.deps.repo.annotations(jobId);
    return new Map(rows.map((a) => [a.id, a.data as DocumentStatementDto]));
  }
}

const noFiles = (question: string): JobAnswer => ({
  question,
  found: false,
  rawValue: '',
  explanation: 'The agent job has no indexed file to read.',
  statements: [],
});
