import { createServer } from 'node:net';
import { connect, JSONCodec } from 'nats';
import { TestStack } from '@docintel/testing';
import { Indexer, IndexingDb } from './support/indexing';

/** A local port nothing listens on. */
async function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

describe('a failing asynchronous trigger', () => {
  let stack: TestStack;
  let acme: Indexer;
  let db: IndexingDb;

  beforeAll(async () => {
    const port = await closedPort();
    stack = await TestStack.start({
      label: 'trigger-fail',
      apps: ['storage-service', 'rules-engine', 'indexing-service', 'api-gateway'],
      appEnv: {
        // An OpenAI-compatible embedder whose endpoint refuses connections: every batch fails.
        'indexing-service': {
          EMBEDDINGS_PROVIDER: 'openai',
          EMBEDDINGS_BASE_URL: `http://127.0.0.1:${port}/v1`,
          EMBEDDINGS_MODEL: 'text-embedding-3-small',
          EMBEDDINGS_DIMENSIONS: '8',
          EMBEDDINGS_MAX_RETRIES: '0',
          PIPELINE_MAX_DELIVER: '2',
        },
      },
    });
    acme = await Indexer.forNamespace(stack, 'acme', 'alice@acme.test');
    db = await IndexingDb.connect(stack);
  });
  afterAll(async () => {
    await db?.close();
    await stack?.stop();
  });

  it('leaves the file SUCCESS and readable, with the error visible in additionalInfos.node_embedding', async () => {
    const file = await acme.index('failing/notes.txt', { bytes: 'One paragraph.\n\nAnother paragraph.\n' });
    const done = await acme.stepsSettled(file.id.id, ['node_embedding', 'ontologies']);
    expect(done.lastIndexationInfos).toEqual({ status: 'SUCCESS', errorMessage: null, errorTraceback: null });
    expect(done.indexed).toBe(true);
    expect(done.additionalInfos.node_embedding).toMatchObject({ status: 'FAILED', embeddedNodes: 0, failedBatches: 1 });
    expect(done.additionalInfos.node_embedding?.lastError).toMatch(/openai embedding endpoint at http:\/\/127\.0\.0\.1:\d+\/v1 failed/);
    expect(await db.vectors(file.id.id)).toBe(0);
    expect((await acme.document(file.id.id, 'text')).response.status).toBe(200);
    expect(done.additionalInfos.ontologies).toMatchObject({ status: 'SUCCESS' });

    // After its last delivery the batch is parked on the dead-letter subject, with the error.
    const nc = await connect({ servers: stack.infra.natsUrl });
    try {
      const prefix = stack.infra.natsPrefix;
      const jsm = await nc.jetstreamManager();
      const parked = await jsm.streams.getMessage(`${prefix}_DEAD_LETTERS`, { last_by_subj: `${prefix}.dlq.node.batch.created` });
      expect(JSONCodec().decode(parked.data)).toMatchObject({
        subject: 'node.batch.created',
        error: expect.stringMatching(/embedding endpoint/),
        payload: { fileId: file.id.id, namespaceName: 'acme' },
      });
    } finally {
      await nc.close();
    }
  });

  it('keeps failing only that step: the next file indexes too', async () => {
    const file = await acme.index('failing/more.txt', { bytes: 'Still indexed.\n' });
    const done = await acme.stepsSettled(file.id.id, ['node_embedding']);
    expect(done.lastIndexationInfos.status).toBe('SUCCESS');
    expect(done.additionalInfos.node_embedding?.status).toBe('FAILED');
  });
});
