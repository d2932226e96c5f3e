import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { Inject, Injectable, type DynamicModule, type Type } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { DataSource } from 'typeorm';
import { NodeVectorStore, type Embedder } from '@docintel/ai';
import {
  HealthPings,
  RulesEvaluate,
  type EvaluateRulesRequest,
  type NodeRecord,
  type NodeType,
  type RpcContext,
  type RuleDecision,
} from '@docintel/contracts';
import { RpcHandler } from '@docintel/messaging';
import { createLogger } from '@docintel/observability';
import { serviceModule } from '@docintel/runtime';
import { startTestInfrastructure, type TestInfrastructure } from '@docintel/testing';
import { CollectionEntity } from '../collections/collection.entity';
import { Embeddings } from '../embeddings/embedder.provider';
import { FilesRepository } from '../files/files.repository';
import { IndexedFileEntity } from '../indexation/indexed-file.entity';
import { IndexationStateRepository } from '../indexation/indexation-state.repository';
import { IndexingEnv } from '../indexing.env';
import { migrations } from '../migrations';
import { NodeStoreRepository } from '../nodes/node-store.repository';
import { TreeEvents } from '../pipeline/tree-events';
import { indexedFileDraft } from './indexing-database';

/**
 * indexing-service's features on real PostgreSQL and NATS for integration specs: the service's
 * root module (its environment, persistence with the migrations, NATS) with the feature modules
 * under test, a rules engine stand-in answering over NATS, and optionally a deterministic embedder
 * in place of EMBEDDINGS_*'s. Also what the specs do to a file as the Files API and corpus_parsing
 * would: create it, commit a tree and announce it to the steps.
 */

/** How the rules engine stand-in decides (default: every step runs, on every node). */
export type RuleStandIn = (request: EvaluateRulesRequest, ctx: RpcContext) => RuleDecision | Promise<RuleDecision>;

const RULE_STAND_IN = Symbol('RULE_STAND_IN');

@Injectable()
class RulesEngineStandIn {
  constructor(@Inject(RULE_STAND_IN) private readonly decide: RuleStandIn) {}

  @RpcHandler(RulesEvaluate)
  async evaluate(request: EvaluateRulesRequest, ctx: RpcContext): Promise<RuleDecision> {
    return this.decide(request, ctx);
  }
}

/** An embedder whose dimensions are groups of words: a text's vector counts each group's words, so that synonyms are close. */
export class WordGroupEmbedder implements Embedder {
  readonly dimensions: number;

  constructor(
    readonly model: string,
    private readonly groups: string[][],
  ) {
    this.dimensions = groups.length + 1;
  }

  embed(texts: string[]): Promise<Float32Array[]> {
    return Promise.resolve(
      texts.map((t) => {
        const v = new Float32Array(this.dimensions);
        v[this.groups.length] = 0.05; // never a zero vector
        for (const word of t.toLowerCase().match(/[a-z]+/g) ?? []) this.groups.forEach((g, i) => g.includes(word) && (v[i] += 1));
        return v;
      }),
    );
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

export interface IndexingTestAppOptions {
  /** Names the spec's database and NATS prefix. */
  name: string;
  /** The feature modules under test, as main.ts imports them. */
  imports: Array<Type<unknown> | DynamicModule>;
  /** IndexingEnv values beyond the infrastructure's (the sweeper is off unless set). */
  env?: Partial<IndexingEnv>;
  /**
   * Used in place of the configured embedder; the real one (EMBEDDINGS_*) when absent. Its vectors
   * are scanned exactly (bytea storage): a test embedder gives many texts the same vector, which an
   * HNSW graph (pgvector) does not rank reliably.
   */
  embedder?: Embedder;
  rules?: RuleStandIn;
}

export interface IndexingTestApp {
  infra: TestInfrastructure;
  app: TestingModule;
  ds: DataSource;
  env: IndexingEnv;
  close(): Promise<void>;
}

export async function startIndexingTestApp(options: IndexingTestAppOptions): Promise<IndexingTestApp> {
  const infra = await startTestInfrastructure(options.name);
  const env = Object.assign(new IndexingEnv(), {
    DATABASE_URL: infra.databaseUrl,
    NATS_URL: infra.natsUrl,
    NATS_PREFIX: infra.natsPrefix,
    RPC_TIMEOUT_MS: 10_000,
    SHUTDOWN_TIMEOUT_MS: 5000,
    SWEEP_INTERVAL_SECONDS: 0,
    ...options.env,
  });
  let builder = Test.createTestingModule({
    imports: [
      serviceModule(
        {
          service: 'indexing-service',
          ping: HealthPings.indexing,
          persistence: { schema: 'indexing', entities: [IndexedFileEntity, CollectionEntity], migrations },
          imports: options.imports,
          providers: [{ provide: RULE_STAND_IN, useValue: options.rules ?? (() => ({ run: true, filter: {} })) }, RulesEngineStandIn],
        },
        env,
        createLogger(options.name, 'silent'),
      ),
    ],
  });
  const { embedder } = options;
  if (embedder) {
    builder = builder.overrideProvider(Embeddings).useFactory({
      factory: (source: DataSource) => ({
        embedder,
        store: new NodeVectorStore(source, { model: embedder.model, dimensions: embedder.dimensions, storage: 'bytea' }),
        maxChars: 2000,
      }),
      inject: [DataSource],
    });
  }
  let app: TestingModule | undefined;
  try {
    app = await builder.compile();
    await app.init();
  } catch (err) {
    await app?.close().catch(() => undefined);
    await infra.teardown();
    throw err;
  }
  const started = app;
  return {
    infra,
    app: started,
    ds: started.get(DataSource),
    env,
    close: async () => {
      await started.close();
      await infra.teardown();
    },
  };
}

/** A file as POST /files leaves it (PENDING, its request recorded), in namespace `ns`. */
export async function newFile(ds: DataSource, ns: string, name = `${randomUUID()}.pdf`): Promise<string> {
  const { file } = await new FilesRepository(ds).createOrGet(
    ns,
    indexedFileDraft({ namespaceName: 'acme', key: name, name, extension: name.split('.').pop() ?? '' }),
  );
  return file.id;
}

/** Node records of a tree, added parent first; `add` returns the new node's id. */
export function treeWriter() {
  const records: NodeRecord[] = [];
  const ordinals = new Map<string | null, number>();
  const add = (type: NodeType, text: string, parentId: string | null, extra: Partial<NodeRecord> = {}): string => {
    const id = randomUUID();
    const ordinal = ordinals.get(parentId) ?? 0;
    ordinals.set(parentId, ordinal + 1);
    records.push({ id, parentId, ordinal, type, text, ...extra });
    return id;
  };
  return { records, add };
}

/**
 * Commits `records` (the root first) as the file's new tree and announces it to the steps after
 * parsing, as corpus_parsing does for a new request: the file is RUNNING until its steps are over,
 * then SUCCESS. An app without every step (PassagesModule alone) asks for `SUCCESS` at the commit.
 * Returns the tree's generation and the request's time.
 */
export async function commitAndAnnounce(
  app: TestingModule,
  ns: string,
  fileId: string,
  records: NodeRecord[],
  status: 'RUNNING' | 'SUCCESS' = 'RUNNING',
): Promise<{ generation: number; requestedTime: number }> {
  const state = app.get(IndexationStateRepository);
  const nodes = app.get(NodeStoreRepository);
  const events = app.get(TreeEvents);
  const requested = await state.requestIndexation(ns, fileId, { reparse: true, namespaceName: 'acme' });
  if (!requested) throw new Error(`file ${fileId} is not in namespace ${ns}`);
  const { requestedTime } = requested;
  if (!(await state.claim(fileId, requestedTime, 0, 'RUNNING'))) throw new Error(`file ${fileId}: request not claimed`);
  const generation = await nodes.beginGeneration(fileId);
  await nodes.insertBatch(fileId, generation, records);
  await state.recordAttempt(fileId, requestedTime, generation, records[0].id);
  const run = { namespaceId: ns, namespaceName: 'acme', fileId, requestedTime, generation, mimeType: 'application/pdf', size: 10 };
  const announcement = events.plan(
    run,
    (await nodes.nodesInTreeOrder(fileId, generation)).filter((n) => n.id !== records[0].id),
    'parsed',
  );
  await nodes.commitGeneration(fileId, generation, { status, additionalInfo: announcement.records });
  await nodes.deleteVectorsOfReplacedNodes(fileId, generation);
  await events.publish(announcement);
  return { generation, requestedTime };
}

/** Resolves once `check` holds; fails naming `what` after `timeoutMs`. */
export async function until(check: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
