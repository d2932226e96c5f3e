import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import type { TestingModule } from '@nestjs/testing';
import { EmbeddingsEnv } from '@docintel/ai';
import type { StepProgress } from '@docintel/contracts';
import type { PassageRetriever } from '@docintel/retrieval';
import { IndexationStateRepository } from '../indexation/indexation-state.repository';
import { NodeStoreRepository } from '../nodes/node-store.repository';
import { PASSAGE_RETRIEVER } from '../passages/passage-retriever.provider';
import { PassagesModule } from '../passages/passages.module';
import type { IndexingTestApp } from '../testing/indexing-test-app';
import { commitAndAnnounce, newFile, startIndexingTestApp, treeWriter, until, WordGroupEmbedder } from '../testing/indexing-test-app';
import { PipelineModule } from '../pipeline.module';
import { READINESS_STEPS } from '../indexation/readiness';

/**
 * The lanes of the steps after parsing (lanes.ts), with the modules main.ts runs, on real
 * PostgreSQL and NATS: while a large file's work is held up (a 400-page PDF takes minutes in each
 * step), a small file indexed after it must still reach SUCCESS at once, and the large file's steps
 * take the replica's large-file turn one at a time (PIPELINE_LARGE_FILE_WORK).
 */
const LARGE_NAMESPACE = randomUUID();
let testApp: IndexingTestApp;
let app: TestingModule;

/** Held until released: the large file's work, in whichever step it is. */
let release: () => void = () => undefined;
let released: Promise<void> = Promise.resolve();
const held = new Set<string>();
function holdLargeFiles(): void {
  released = new Promise<void>((r) => (release = r));
}
async function holding(step: string): Promise<void> {
  held.add(step);
  await released;
}

beforeAll(async () => {
  const embeddings = new EmbeddingsEnv();
  testApp = await startIndexingTestApp({
    name: 'lanes',
    imports: [PipelineModule.forRoot(embeddings), PassagesModule.forRoot(embeddings)],
    // Batches of 4 nodes; 3 batches make a file large. The held rule calls must not time out.
    env: { NODE_BATCH_SIZE: 4, PIPELINE_LARGE_FILE_BATCHES: 3, RPC_TIMEOUT_MS: 60_000 },
    embedder: new WordGroupEmbedder('test:words', [['invoice', 'payment']]),
    // node_embedding and formula_augmentation ask the rules first: the large file's namespace waits there.
    rules: async (request, ctx) => {
      if (ctx.namespaceId === LARGE_NAMESPACE) await holding(request.trigger_id);
      return { run: true, filter: {} };
    },
  });
  app = testApp.app;
  // The other two steps wait where the large file's work is long: reading its whole tree (ontologies), indexing its passages.
  const nodes = app.get(NodeStoreRepository);
  const readTree = nodes.readTree.bind(nodes);
  jest.spyOn(nodes, 'readTree').mockImplementation(async (namespaceId, fileId) => {
    if (namespaceId === LARGE_NAMESPACE) await holding('ontologies');
    return readTree(namespaceId, fileId);
  });
  const retriever = app.get<PassageRetriever>(PASSAGE_RETRIEVER);
  const add = retriever.add.bind(retriever);
  jest.spyOn(retriever, 'add').mockImplementation(async (namespaceId, fileId, items, tx) => {
    if (namespaceId === LARGE_NAMESPACE) await holding('passage_indexing');
    return add(namespaceId, fileId, items, tx);
  });
}, 60_000);

afterAll(async () => {
  release();
  jest.restoreAllMocks();
  await testApp?.close();
});

/** A document of paragraphs, each with a formula (so that formula_augmentation has work too). */
function document(paragraphs: number) {
  const w = treeWriter();
  const root = w.add('document', '', null);
  const page = w.add('page', '', root);
  for (let i = 0; i < paragraphs; i++) w.add('paragraph', `Invoice line ${i}: the payment is $x_{${i}}^2$ euros.`, page);
  return w.records;
}

const fileOf = async (fileId: string) => (await app.get(IndexationStateRepository).load(fileId))!;
async function steps(fileId: string): Promise<Record<string, string | undefined>> {
  const { additionalInfo } = await fileOf(fileId);
  return Object.fromEntries(READINESS_STEPS.map((s) => [s, (additionalInfo[s] as StepProgress | undefined)?.status]));
}

describe('lanes of the steps after parsing', () => {
  it("takes a small file to SUCCESS while a large file's work holds the replica's large-file turn, one step of it at a time", async () => {
    holdLargeFiles();
    const small = await newFile(testApp.ds, randomUUID(), 'note.pdf');
    const large = await newFile(testApp.ds, LARGE_NAMESPACE, 'report.pdf');
    try {
      // 22 nodes below the root (a page, 21 paragraphs with formulas): 6 batches of each step,
      // announced to node_embedding, passage_indexing, formula_augmentation and ontologies at once.
      await commitAndAnnounce(app, LARGE_NAMESPACE, large, document(21));
      await until(async () => held.size === 1, 'the large file held in one of its steps');

      await commitAndAnnounce(app, (await fileOf(small)).namespaceId, small, document(2));
      await until(async () => (await fileOf(small)).status === 'SUCCESS', 'the small file SUCCESS');
      expect(await steps(small)).toEqual({
        passage_indexing: 'SUCCESS',
        node_embedding: 'SUCCESS',
        formula_augmentation: 'SUCCESS',
        ontologies: 'SUCCESS',
      });
      expect((await fileOf(large)).status).toBe('RUNNING');
      // PIPELINE_LARGE_FILE_WORK (1): the large file's other steps wait for the turn instead of running beside it.
      expect(held.size).toBe(1);

      release();
      await until(async () => (await fileOf(large)).status === 'SUCCESS', 'the large file SUCCESS', 60_000);
      expect((await fileOf(large)).additionalInfo.node_embedding).toMatchObject({ batches: 6, batchesDone: 6, embeddedNodes: 21 });
      expect((await fileOf(large)).additionalInfo.formula_augmentation).toMatchObject({ batches: 6, batchesDone: 6 });
    } finally {
      release();
    }
  });
});
