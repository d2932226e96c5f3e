import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { type TestingModule } from '@nestjs/testing';
import { Client } from 'pg';
import { type Reader, type ReaderAnswer, type ReaderPassage, type ReaderQuestion } from '@docintel/answering';
import {
  DomainError,
  ErrorCode,
  FilesOntologies,
  FilesResolve,
  JobsGet,
  PassageSearchRequest,
  PassagesSearch,
  ResolveFilesRequest,
  FileRefRequest,
  FileTablesRequest,
  FilesTables,
  type FileTablesReply,
  type JobDto,
  type OntologyDto,
  type PassageDto,
  type PassageSearchReply,
  type ResolveFilesReply,
  type RpcContext,
} from '@docintel/contracts';
import { RpcClient, RpcHandler } from '@docintel/messaging';
import { createLogger } from '@docintel/observability';
import { startTestInfrastructure, type TestInfrastructure } from '@docintel/testing';
import { JobsEnv } from '../jobs.env';
import { orchestratorTestEnv, startOrchestrator } from './orchestrator-harness';

/**
 * What the jobs' integration specs share: the job orchestrator on real PostgreSQL and NATS
 * (JetStream work queue, request/reply), the indexing service played by handlers registered here
 * (the files and passages each test sets), and the reader by a scripted one: the end-to-end tests
 * run both for real. A spec calls `useJobsOrchestrator()` once; the bindings below are live.
 */

const logger = createLogger('jobs-test', (process.env.TEST_LOG_LEVEL ?? 'silent') as 'silent');
export const NS = randomUUID();
export const OTHER_NS = randomUUID();
export const ALICE = 'alice@example.com';
export const BOB = 'bob@example.com';

export const F1 = randomUUID();
export const F2 = randomUUID();
export const UNINDEXED = randomUUID();
export const COLLECTION = randomUUID();

/** What the fake indexing service knows, per namespace. */
export const files = new Map<string, { name: string; status: string; namespace: string }>([
  [F1, { name: 'report.xlsx', status: 'SUCCESS', namespace: NS }],
  [F2, { name: 'notes.txt', status: 'SUCCESS', namespace: NS }],
  [UNINDEXED, { name: 'draft.pdf', status: 'RUNNING', namespace: NS }],
]);
const collections = new Map<string, string[]>([[COLLECTION, [F2, UNINDEXED]]]);

export const rowPassage: PassageDto = {
  id: randomUUID(),
  fileId: F1,
  fileName: 'report.xlsx',
  nodeType: 'row',
  text: 'Revenue | 1,250,000',
  headings: ['Sheet1'],
  score: 0.9,
  segments: [
    { nodeId: randomUUID(), nodeType: 'cell', start: 0, end: 7, positions: [{ type: 'CELL', sheet_name: 'Sheet1', row: 4, col: 0 }] },
    { nodeId: randomUUID(), nodeType: 'cell', start: 10, end: 19, positions: [{ type: 'CELL', sheet_name: 'Sheet1', row: 4, col: 1 }] },
  ],
};
export const linePassage: PassageDto = {
  id: randomUUID(),
  fileId: F2,
  fileName: 'notes.txt',
  nodeType: 'paragraph',
  text: 'The company is Acme Corp.',
  headings: [],
  score: 0.8,
  segments: [
    {
      nodeId: randomUUID(),
      nodeType: 'paragraph',
      start: 0,
      end: 25,
      positions: [{ type: 'LINE', line_number: 3, column_index_start: 0, column_index_stop: 25 }],
    },
  ],
};

export const fake = {
  searchCalls: [] as Array<{ req: PassageSearchRequest; ctx: RpcContext }>,
  /** Failures the next searches throw, in order. */
  searchFailures: [] as Error[],
  failFile: null as string | null,
  failTables: false,
  /** Passages of files other than F1 and F2, by file id (the fairness tests' namespaces). */
  passagesOf: new Map<string, PassageDto>(),
};

@Injectable()
class FakeIndexing {
  @RpcHandler(FilesResolve)
  resolve(req: ResolveFilesRequest, ctx: RpcContext): ResolveFilesReply {
    const reply: ResolveFilesReply = { files: [], missingFileIds: [], missingCollectionIds: [] };
    const seen = new Set<string>();
    const add = (id: string) => {
      const f = files.get(id);
      if (!f || f.namespace !== ctx.namespaceId) return false;
      if (!seen.has(id)) reply.files.push({ fileId: id, name: f.name, status: f.status, indexed: f.status === 'SUCCESS' });
      seen.add(id);
      return true;
    };
    for (const id of req.fileIds ?? []) if (!add(id)) reply.missingFileIds.push(id);
    for (const id of req.collectionIds ?? []) {
      const members = collections.get(id);
      if (!members) reply.missingCollectionIds.push(id);
      else members.forEach(add);
    }
    return reply;
  }

  @RpcHandler(PassagesSearch)
  search(req: PassageSearchRequest, ctx: RpcContext): PassageSearchReply {
    fake.searchCalls.push({ req, ctx });
    const failure = fake.searchFailures.shift();
    if (failure) throw failure;
    if (fake.failFile && req.fileIds?.includes(fake.failFile))
      throw new DomainError(ErrorCode.NOT_FOUND, `File ${fake.failFile} was deleted`);
    return { passages: [rowPassage, linePassage, ...fake.passagesOf.values()].filter((p) => req.fileIds?.includes(p.fileId)) };
  }

  @RpcHandler(FilesTables)
  tables(req: FileTablesRequest): FileTablesReply {
    if (fake.failTables) throw new DomainError(ErrorCode.INTERNAL, 'the tables are unreadable');
    if (req.fileId !== F1) return { tables: [], nextTable: null };
    const cell = (text: string, row: number, col: number) => ({
      nodeId: `cell-${row}-${col}`,
      text,
      positions: [{ type: 'CELL' as const, sheet_name: 'Sheet1', row, col }],
    });
    const rows = [
      [cell('Item', 3, 0), cell('Amount', 3, 1)],
      [cell('Revenue', 4, 0), cell('1,250,000', 4, 1)],
    ];
    return { tables: [{ fileId: F1, fileName: 'report.xlsx', tableId: 'table-1', headings: ['Sheet1'], rows }], nextTable: null };
  }

  @RpcHandler(FilesOntologies)
  ontologies(req: FileRefRequest): OntologyDto[] {
    if (req.fileId !== F2) return [];
    return [
      {
        conceptId: { id: randomUUID(), entityType: 'CONCEPT_NOTE' },
        name: 'Document metadata',
        metas: { title: { metaName: 'title', metaValue: 'Acme Corp', explanation: 'first line' } },
      },
    ];
  }
}

/** A reader whose answers the tests script: by default it cites the first passage that holds the question's last word. */
export class ScriptedReader implements Reader {
  readonly name = 'scripted';
  readonly calls: Array<{ question: ReaderQuestion; passages: ReaderPassage[] }> = [];
  script?: (q: ReaderQuestion, passages: ReaderPassage[], signal?: AbortSignal) => Promise<ReaderAnswer>;

  answer(question: ReaderQuestion, passages: ReaderPassage[], signal?: AbortSignal): Promise<ReaderAnswer> {
    this.calls.push({ question, passages });
    if (this.script) return this.script(question, passages, signal);
    const word = question.question.replace(/\?$/, '').split(' ').pop() ?? '';
    for (const p of passages) {
      const at = p.text.indexOf(word);
      if (at >= 0) {
        return Promise.resolve({
          found: true,
          rawValue: word,
          value: { strValue: word },
          confidence: 0.8,
          explanation: `Read in ${p.fileName}.`,
          citations: [{ passageId: p.id, start: at, end: at + word.length }],
        });
      }
    }
    return Promise.resolve({
      found: false,
      rawValue: '',
      value: null,
      confidence: 0.1,
      explanation: 'Not in the passages.',
      citations: [],
    });
  }
}

let infra: TestInfrastructure;
export let app: TestingModule;
export let rpc: RpcClient;
export let reader: ScriptedReader;
export let db: Client;
export let env: JobsEnv;

export const alice: RpcContext = { requestId: 'test', namespaceId: NS, userId: ALICE };
export const bob: RpcContext = { requestId: 'test', namespaceId: NS, userId: BOB };
export const aliceElsewhere: RpcContext = { requestId: 'test', namespaceId: OTHER_NS, userId: ALICE };

/** Starts the orchestrator for the calling spec file and resets the fakes and the reader before each test. */
export function useJobsOrchestrator(): void {
  beforeAll(async () => {
    infra = await startTestInfrastructure('jobs');
    env = orchestratorTestEnv(infra, { JOB_MAX_DELIVER: 3, JOB_NAMESPACE_ACTIVE_UNITS: 2 });
    reader = new ScriptedReader();
    app = await startOrchestrator({ env, logger, reader, standIns: [FakeIndexing] });
    rpc = app.get(RpcClient);
    db = new Client({ connectionString: infra.databaseUrl });
    await db.connect();
  });

  afterAll(async () => {
    await db?.end();
    await app?.close();
    await infra?.teardown();
  });

  beforeEach(() => {
    reader.script = undefined;
    reader.calls.length = 0;
    fake.searchCalls.length = 0;
    fake.searchFailures.length = 0;
    fake.failFile = null;
  });
}

export async function settle(
  kind: 'qa' | 'extraction' | 'multi-dim-extraction',
  jobId: string,
  ctx = alice,
  timeoutMs = 20_000,
): Promise<JobDto> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const job = await rpc.call(JobsGet, { kind, jobId }, ctx);
    if (['SUCCESS', 'FAILED', 'ABORTED'].includes(job.status)) return job;
    if (Date.now() > until) throw new Error(`job ${jobId} still ${job.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function rejection(p: Promise<unknown>): Promise<DomainError> {
  try {
    await p;
  } catch (err) {
    return err as DomainError;
  }
  throw new Error('expected a rejection');
}

/** A namespace of its own with one indexed file whose search finds one passage, and a caller in it. */
export function namespaceWithFile(): { ctx: RpcContext; fileId: string } {
  const namespaceId = randomUUID();
  const fileId = randomUUID();
  files.set(fileId, { name: `${fileId}.txt`, status: 'SUCCESS', namespace: namespaceId });
  fake.passagesOf.set(fileId, { ...linePassage, id: randomUUID(), fileId, fileName: `${fileId}.txt` });
  return { ctx: { requestId: 'test', namespaceId, userId: ALICE }, fileId };
}

const HELD: ReaderAnswer = { found: false, rawValue: '', value: null, confidence: 0, explanation: 'held', citations: [] };

/**
 * A reader that holds every question until released, noting the order questions reach it;
 * `started` settles when the first question reaches it, and released questions get `answer`.
 */
export function heldReader(answer: ReaderAnswer = HELD): { asked: string[]; started: Promise<void>; release: () => void } {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let entered!: () => void;
  const started = new Promise<void>((r) => (entered = r));
  const asked: string[] = [];
  reader.script = async (q) => {
    asked.push(q.question);
    entered();
    await gate;
    return answer;
  };
  return { asked, started, release };
}
