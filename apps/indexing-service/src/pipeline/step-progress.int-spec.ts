import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { EmbeddingsEnv } from '@docintel/ai';
import type { NodeEmbeddingProgress } from '@docintel/contracts';
import { IndexationStateRepository } from '../indexation/indexation-state.repository';
import { PassageIndexingProgressRecorder, type PassageIndexingProgress } from '../passages/passage-indexing-progress';
import { PassagesModule } from '../passages/passages.module';
import type { IndexingTestApp } from '../testing/indexing-test-app';
import { newFile, startIndexingTestApp, WordGroupEmbedder } from '../testing/indexing-test-app';
import { PipelineModule } from '../pipeline.module';
import { PROGRESS_KEYS } from '../indexation/progress-keys';
import { StepProgressRecorder, type StepRun } from './step-progress';

/**
 * A batch's message can be delivered again after its work was done (the process restarted before
 * the ack, or the ack deadline passed while the message waited behind others): on real PostgreSQL,
 * the step must count it once, and not settle the file before its last batch is done.
 */
let testApp: IndexingTestApp;
let state: IndexationStateRepository;
const ns = randomUUID();

beforeAll(async () => {
  const embeddings = new EmbeddingsEnv();
  testApp = await startIndexingTestApp({
    name: 'step_progress',
    imports: [PipelineModule.forRoot(embeddings), PassagesModule.forRoot(embeddings)],
    embedder: new WordGroupEmbedder('test:words', [['invoice']]),
  });
  state = testApp.app.get(IndexationStateRepository);
}, 60_000);

afterAll(async () => {
  await testApp?.close();
});

const RUN = { requestedTime: 1_700_000_000_000, generation: 1 };
const planned = {
  status: 'PENDING',
  ...RUN,
  batches: 3,
  batchesDone: 0,
  skippedBatches: 0,
  failedBatches: 0,
  totalNodes: 12,
  reason: null,
  lastError: null,
  updatedTime: 0,
};

it('counts a node_embedding batch delivered twice once, and settles only after the last batch', async () => {
  const fileId = await newFile(testApp.ds, ns);
  await state.updateInfo(fileId, PROGRESS_KEYS.embedding, () => ({ ...planned, embeddedNodes: 0, model: null }));
  const recorder = testApp.app.get(StepProgressRecorder);
  const over = (batch: number) =>
    recorder.batchOver(fileId, PROGRESS_KEYS.embedding, 'embeddedNodes', { ...RUN, batch }, { kind: 'done', count: 4 });

  await over(0);
  await over(0);
  await over(1);
  let p = (await state.load(fileId))!.additionalInfo[PROGRESS_KEYS.embedding] as NodeEmbeddingProgress;
  expect(p).toMatchObject({ status: 'RUNNING', batchesDone: 2, embeddedNodes: 8 });

  await over(2);
  await over(1);
  p = (await state.load(fileId))!.additionalInfo[PROGRESS_KEYS.embedding] as NodeEmbeddingProgress;
  expect(p).toMatchObject({ status: 'SUCCESS', batchesDone: 3, embeddedNodes: 12 });
});

it('counts a passage_indexing batch delivered twice once', async () => {
  const fileId = await newFile(testApp.ds, ns);
  await state.updateInfo(fileId, PROGRESS_KEYS.passages, () => ({ ...planned, indexedPassages: 0 }));
  const recorder = testApp.app.get(PassageIndexingProgressRecorder);
  const over = (batch: number) => recorder.batchOver(fileId, { ...RUN, batch } as StepRun, 4, { kind: 'done', count: 3 });

  await over(0);
  await over(0);
  await over(1);
  let p = (await state.load(fileId))!.additionalInfo[PROGRESS_KEYS.passages] as PassageIndexingProgress;
  expect(p).toMatchObject({ status: 'RUNNING', batchesDone: 2, indexedPassages: 6 });

  await over(2);
  p = (await state.load(fileId))!.additionalInfo[PROGRESS_KEYS.passages] as PassageIndexingProgress;
  expect(p).toMatchObject({ status: 'SUCCESS', batchesDone: 3, indexedPassages: 9 });
});
