import 'reflect-metadata';
import { Test, type TestingModule } from '@nestjs/testing';
import { randomUUID } from 'node:crypto';
import type { NatsConnection } from 'nats';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import {
  HookPoints,
  Hooks,
  Streams,
  Work,
  type ProviderDto,
  type ProviderItemDto,
  type RootNodeCreatedEvent,
  type StreamDefinition,
} from '@docintel/contracts';
import { JetStream, MessagingModule, NATS_CONNECTION, prefixedName, type NatsOptions, type RunningConsumer } from '@docintel/messaging';
import { createLogger, ObservabilityModule } from '@docintel/observability';
import { eventually, type TestInfrastructure } from '@docintel/testing';
import { FilesRepository } from '../files/files.repository';
import { FilesService } from '../files/files.service';
import { OntologiesRepository } from '../files/ontologies.repository';
import type { StorageClient } from '../files/storage.client';
import { IndexationRequestPublisher, rootNodeIdFor } from '../indexation/indexation-request-publisher';
import { IndexationStateRepository, SWEEPER_LOCK } from '../indexation/indexation-state.repository';
import { IndexingEnv } from '../indexing.env';
import { NodeStoreRepository } from '../nodes/node-store.repository';
import { indexedFileDraft, startIndexingDatabase, type IndexingDatabase } from '../testing/indexing-database';
import { RunSettlement } from './run-settlement';
import { interruptedMessage, LOST_MESSAGE, STEP_QUEUES, STEPS_LOST_MESSAGE, Sweeper } from './sweeper';

/** Redeliveries and sweeps take a few ack waits here: poll longer than the default. */
const SETTLES = { timeoutMs: 20_000 };

const logger = createLogger('sweeper-test', 'silent');

let db: IndexingDatabase;
let infra: TestInfrastructure;
let ds: DataSource;
let app: TestingModule;
let jetstream: JetStream;
let files: FilesRepository;
let nodes: NodeStoreRepository;
let state: IndexationStateRepository;
let sweeper: Sweeper;
let env: IndexingEnv;
const consumers: RunningConsumer[] = [];

beforeAll(async () => {
  db = await startIndexingDatabase('sweeper', 10);
  ({ infra, ds } = db);
  const nats: NatsOptions = {
    url: infra.natsUrl,
    prefix: infra.natsPrefix,
    service: 'sweeper-test',
    rpcTimeoutMs: 5000,
    shutdownTimeoutMs: 5000,
  };
  app = await Test.createTestingModule({
    imports: [ObservabilityModule.forRoot({ service: 'sweeper-test', logger }), MessagingModule.forRoot(nats)],
  }).compile();
  await app.init();
  jetstream = app.get(JetStream);
  for (const s of [Streams.hooks, Streams.work, Streams.deadLetters]) await jetstream.ensureStream(s);
  files = new FilesRepository(ds);
  state = new IndexationStateRepository(ds);
  nodes = new NodeStoreRepository(ds, state);
  env = Object.assign(new IndexingEnv(), { SWEEP_PENDING_AFTER_SECONDS: 60, SWEEP_STALE_RUNNING_SECONDS: 120 });
  // The sweeper asks the request queues whether they are idle; reindex work and large files'
  // requests are not exercised here (the files are small: the large lane passes over them).
  consumers.push(
    await jetstream.consume({
      message: Work.indexingReindex,
      durable: 'indexing_reindex',
      handler: async () => undefined,
    }),
    await jetstream.consume({
      message: Hooks.rootNodeCreated,
      durable: 'corpus_parsing_large',
      handler: async () => undefined,
    }),
  );
  const requests = new IndexationRequestPublisher(jetstream, logger);
  sweeper = new Sweeper(
    state,
    nodes,
    requests,
    new RunSettlement(state, logger),
    app.get<NatsConnection>(NATS_CONNECTION),
    nats,
    env,
    logger,
  );
});
afterAll(async () => {
  for (const c of consumers) await c.stop();
  await app?.close();
  await db?.close();
});

async function newFile(namespaceName: string | null = 'acme'): Promise<string> {
  const key = `docs/${randomUUID()}.txt`;
  const { file } = await files.createOrGet(
    randomUUID(),
    indexedFileDraft({ namespaceName, key, name: key.slice(5), extension: 'txt', size: 12, mediaType: 'text/plain' }),
  );
  return file.id;
}

async function rootNodeMessages(fileId: string): Promise<number> {
  const jsm = await app.get<NatsConnection>(NATS_CONNECTION).jetstreamManager();
  let count = 0;
  const stream = jetstream.streamName(Streams.hooks);
  const info = await jsm.streams.info(stream);
  for (let seq = info.state.first_seq; seq <= info.state.last_seq; seq++) {
    const m = await jsm.streams.getMessage(stream, { seq }).catch(() => null);
    if (m && m.subject.endsWith(HookPoints.rootNodeCreated) && m.json<RootNodeCreatedEvent>().fileId === fileId) count++;
  }
  return count;
}

/** A corpus_parsing stand-in: records what it receives and acks, or holds each message until released. */
async function fakeParser(hold = false): Promise<{ seen: RootNodeCreatedEvent[]; release: () => void }> {
  const seen: RootNodeCreatedEvent[] = [];
  let release = () => undefined as void;
  const held = new Promise<void>((r) => (release = r));
  consumers.push(
    await jetstream.consume<RootNodeCreatedEvent>({
      message: Hooks.rootNodeCreated,
      durable: 'corpus_parsing',
      ackWaitMs: 60_000,
      maxMessages: 1,
      handler: async (event) => {
        seen.push(event);
        if (hold) await held;
      },
    }),
  );
  return { seen, release };
}

/** Waits until the consumers have taken and acked every message (so that later tests start from idle queues). */
async function queuesDrained(queues: Array<{ stream: StreamDefinition; durable: string }>): Promise<void> {
  const jsm = await app.get<NatsConnection>(NATS_CONNECTION).jetstreamManager();
  await eventually(
    'the sweeper to act',
    async () => {
      for (const { stream, durable } of queues) {
        const info = await jsm.consumers.info(jetstream.streamName(stream), prefixedName(infra.natsPrefix, durable));
        if (info.num_pending > 0 || info.num_ack_pending > 0) return undefined;
      }
      return true;
    },
    SETTLES,
  );
}

/** Waits until corpus_parsing has taken and acked every message. */
const drained = (): Promise<void> => queuesDrained([{ stream: Streams.hooks, durable: 'corpus_parsing' }]);

/**
 * A file whose tree is committed and that waits for its steps after parsing (RUNNING), as
 * corpus_parsing leaves it, with step records that last reported at the commit.
 */
async function waitingForSteps(): Promise<string> {
  const id = await newFile();
  const t = (await state.load(id))!.requestedTime;
  expect(await state.claim(id, t, 0, 'RUNNING')).toBe(true);
  const generation = await nodes.beginGeneration(id);
  const rootId = randomUUID();
  await nodes.insertBatch(id, generation, [{ id: rootId, parentId: null, ordinal: 0, type: 'document', text: '' }]);
  await state.recordAttempt(id, t, generation, rootId);
  const pending = { status: 'PENDING', requestedTime: t, generation, updatedTime: Date.now() };
  await nodes.commitGeneration(id, generation, {
    status: 'RUNNING',
    additionalInfo: { node_embedding: pending, passage_indexing: pending, formula_augmentation: pending, ontologies: pending },
  });
  return id;
}

describe('claims', () => {
  it('takes a request up once, again only when its worker went silent, and never one that was overtaken', async () => {
    const id = await newFile();
    const file = (await state.load(id))!;
    const t = file.requestedTime;
    expect(await state.claim(id, t, 0, 'RUNNING')).toBe(true);
    expect(await state.claim(id, t, 0, 'RUNNING')).toBe(false);
    expect((await state.load(id))!.status).toBe('RUNNING');
    // Silent since before `staleBefore`: another worker may take it up.
    expect(await state.claim(id, t, Date.now() + 1, 'RUNNING')).toBe(true);
    expect(await state.end(id, t - 1, 'FAILED', 'an older run')).toBe(false);
    expect(await state.end(id, t, 'FAILED', 'this run')).toBe(true);
    expect(await state.claim(id, t, Date.now() + 1, 'RUNNING')).toBe(false);
    expect((await state.load(id))!).toMatchObject({ status: 'FAILED', claimedRequestTime: t });
  });

  it('gives a request back on release, for the next worker', async () => {
    const id = await newFile();
    const t = (await state.load(id))!.requestedTime;
    expect(await state.claim(id, t, 0, 'RUNNING')).toBe(true);
    await state.release(id, t);
    expect((await state.load(id))!).toMatchObject({ status: 'PENDING', claimedRequestTime: null });
    expect(await state.claim(id, t, 0, 'RUNNING')).toBe(true);
  });
});

describe('sweeper', () => {
  it('does nothing while another replica sweeps', async () => {
    const other = new Client({ connectionString: `${infra.databaseUrl}` });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query('SELECT pg_advisory_xact_lock($1)', [SWEEPER_LOCK]);
      expect(await sweeper.sweep()).toEqual({ swept: false, interrupted: 0, republished: 0, settled: 0 });
      await other.query('COMMIT');
      expect((await sweeper.sweep()).swept).toBe(true);
    } finally {
      await other.end();
    }
  });

  it('gives a RUNNING indexation whose worker went silent back to the queue, publishes it again, and drops its unfinished tree', async () => {
    const parser = await fakeParser();
    const id = await newFile();
    const t = (await state.load(id))!.requestedTime;
    const generation = await nodes.beginGeneration(id);
    const rootId = randomUUID();
    await nodes.insertBatch(id, generation, [{ id: rootId, parentId: null, ordinal: 0, type: 'document', text: '' }]);
    await state.recordAttempt(id, t, generation, rootId);
    expect(await state.claim(id, t, 0, 'RUNNING')).toBe(true);

    // Within the grace period nothing happens; past it the request is PENDING again, for the next worker.
    expect((await sweeper.sweep(Date.now() + 60_000)).interrupted).toBe(0);
    const result = await sweeper.sweep(Date.now() + 121_000);
    expect(result.interrupted).toBeGreaterThanOrEqual(1);
    expect((await state.load(id))!).toMatchObject({ status: 'PENDING', claimedRequestTime: null, interruptions: 1, errorMessage: null });
    const [{ n }] = await ds.query(`SELECT count(*)::int AS n FROM nodes WHERE file_id = $1`, [id]);
    expect(n).toBe(0);
    // Published again without waiting for the queue to be idle, and taken up by the next worker.
    const event = await eventually('the sweeper to act', async () => parser.seen.find((e) => e.fileId === id), SETTLES);
    expect(event).toMatchObject({ fileId: id, requestedTime: t });
    expect(await state.claim(id, t, 0, 'RUNNING', null, env.PIPELINE_MAX_INTERRUPTIONS)).toBe(true);
    await state.end(id, t, 'FAILED', 'the test is over');
    await drained();
    await consumers.pop()!.stop();
  });

  it('ends FAILED, saying so, a request interrupted PIPELINE_MAX_INTERRUPTIONS times', async () => {
    await fakeParser();
    const id = await newFile();
    const t = (await state.load(id))!.requestedTime;
    const max = env.PIPELINE_MAX_INTERRUPTIONS;
    expect(max).toBe(3);
    expect(await state.claim(id, t, 0, 'RUNNING', null, max)).toBe(true);
    // Died once: a redelivery takes the silent request over (an interruption counted).
    expect(await state.claim(id, t, Date.now() + 1, 'RUNNING', null, max)).toBe(true);
    // Died again: the sweeper gives it back (two), the next worker takes it and dies too.
    await sweeper.sweep(Date.now() + 121_000);
    expect((await state.load(id))!).toMatchObject({ status: 'PENDING', interruptions: 2 });
    expect(await state.claim(id, t, 0, 'RUNNING', null, max)).toBe(true);
    // A third takeover is refused: the sweeper ends it.
    expect(await state.claim(id, t, Date.now() + 1, 'RUNNING', null, max)).toBe(false);
    await sweeper.sweep(Date.now() + 121_000);
    expect((await state.load(id))!).toMatchObject({ status: 'FAILED', interruptions: 3, errorMessage: interruptedMessage(3) });
    expect(interruptedMessage(3)).toMatch(/^Indexation was interrupted 3 times /);

    // A new request starts from nothing.
    await state.requestIndexation((await state.load(id))!.namespaceId, id, { reparse: true });
    expect((await state.load(id))!).toMatchObject({ status: 'PENDING', interruptions: 0 });
    await state.end(id, (await state.load(id))!.requestedTime, 'FAILED', 'the test is over');
    await drained();
    await consumers.pop()!.stop();
  });

  it('publishes again a request nobody took up, once the queue is idle, with the same message id', async () => {
    const busy = await fakeParser(true);
    const lost = await newFile();
    const late = Date.now() + 61_000;

    // A message in flight (held by the worker): the sweeper cannot tell lost from queued, and waits.
    const other = await newFile();
    await sweeper.sweep(late); // publishes `other` and `lost` only if idle, which it is
    await eventually('the sweeper to act', async () => (busy.seen.length ? true : undefined), SETTLES);
    const before = await rootNodeMessages(lost);
    expect((await sweeper.sweep(late)).republished).toBe(0);
    expect(await rootNodeMessages(lost)).toBe(before);
    busy.release();
    await consumers.pop()!.stop();

    // Idle again: the request is published (again); a repeat collapses on its message id.
    const parser = await fakeParser();
    await eventually('the sweeper to act', async () => (parser.seen.length >= busy.seen.length ? true : undefined), SETTLES);
    await sweeper.sweep(late);
    await sweeper.sweep(late);
    expect(await rootNodeMessages(lost)).toBe(1);
    expect(await rootNodeMessages(other)).toBe(1);
    const prepared = (await state.load(lost))!;
    const event = await eventually('the sweeper to act', async () => parser.seen.concat(busy.seen).find((e) => e.fileId === lost), SETTLES);
    expect(event).toMatchObject({
      fileId: lost,
      namespaceName: 'acme',
      requestedTime: prepared.requestedTime,
      // Nothing was written for the request: the root node id is the request's own.
      rootNodeId: rootNodeIdFor(lost, prepared.requestedTime),
      reparse: true,
      mediaType: 'text/plain',
    });
    await consumers.pop()!.stop();
  });

  it("fails a run whose steps went silent only once every lane of every step is idle: a large file's batch held in its lane keeps it waiting", async () => {
    // Stand-ins of the steps' consumers: every lane acks at once, but node_embedding_large holds its message.
    let release = (): void => undefined;
    const held = new Promise<void>((r) => (release = r));
    let holding = false;
    const stepConsumers: RunningConsumer[] = [];
    for (const { stream, durable } of STEP_QUEUES) {
      const message =
        stream === Streams.work ? Work.indexingOntologies : durable.startsWith('formula') ? Hooks.nodeUpdated : Hooks.nodeBatchCreated;
      stepConsumers.push(
        await jetstream.consume<object>({
          message: message as never,
          durable,
          ackWaitMs: 60_000,
          maxMessages: 1,
          handler: async () => {
            if (durable !== 'node_embedding_large') return;
            holding = true;
            await held;
          },
        }),
      );
    }
    try {
      const id = await waitingForSteps();
      await jetstream.publish(Hooks.nodeBatchCreated, {
        namespaceId: randomUUID(),
        namespaceName: 'acme',
        fileId: id,
        requestedTime: Date.now(),
        generation: 1,
        nodeIds: [randomUUID()],
        nodeTypes: ['paragraph'],
        mimeType: 'application/pdf',
        size: 10,
        batch: 0,
        batches: 40,
      });
      await eventually('the sweeper to act', async () => (holding ? true : undefined), SETTLES);

      // Silent for longer than SWEEP_STALE_RUNNING_SECONDS, but a batch is in the large lane: not lost.
      await sweeper.sweep(Date.now() + 121_000);
      expect((await state.load(id))!).toMatchObject({ status: 'RUNNING', errorMessage: null });

      // Every lane idle and still no step reported: its messages were lost, it ends FAILED.
      release();
      await queuesDrained(STEP_QUEUES);
      await sweeper.sweep(Date.now() + 121_000);
      expect((await state.load(id))!).toMatchObject({ status: 'FAILED', errorMessage: STEPS_LOST_MESSAGE });
    } finally {
      release();
      for (const c of stepConsumers) await c.stop();
    }
  });

  it('fails a lost request it cannot publish (no namespace recorded)', async () => {
    const id = await newFile(null);
    await sweeper.sweep(Date.now() + 61_000);
    const [{ status, error_message }] = await ds.query(`SELECT status, error_message FROM files WHERE id = $1`, [id]);
    expect({ status, error_message }).toEqual({ status: 'FAILED', error_message: LOST_MESSAGE });
  });
});

describe('POST /files: validate, insert, publish', () => {
  const provider = { id: { id: randomUUID(), entityType: 'PROVIDER' }, name: 'Local storage' } as unknown as ProviderDto;
  const storage = {
    provider: async () => provider,
    file: async (_ctx: unknown, _providerId: string, key: string) =>
      ({ key, type: 'FILE', size: 12, mediaType: 'text/plain' }) as unknown as ProviderItemDto,
  } as unknown as StorageClient;

  it('leaves a request whose publish was lost (crash or NATS away after the insert) for the sweeper, which publishes it', async () => {
    // The insert commits, then the publish fails: the request is recorded PENDING and unclaimed, with
    // everything needed to publish it, and POST /files still answers.
    const unreachable = { publish: async () => Promise.reject(new Error('NATS connection closed')) } as unknown as JetStream;
    const service = new FilesService(
      files,
      state,
      new OntologiesRepository(ds),
      storage,
      new IndexationRequestPublisher(unreachable, logger),
    );
    const ctx = { requestId: randomUUID(), namespaceId: randomUUID(), namespaceName: 'acme', userId: randomUUID() };
    const dto = await service.create(ctx, {
      providerId: provider.id.id,
      key: `docs/${randomUUID()}.txt`,
      owner: { email: 'a@example.com' },
    } as never);
    const id = dto.id.id;
    expect(dto.lastIndexationInfos.status).toBe('PENDING');
    const recorded = (await state.load(id))!;
    expect(recorded).toMatchObject({ status: 'PENDING', claimedRequestTime: null, namespaceName: 'acme' });
    expect(await rootNodeMessages(id)).toBe(0);

    // Within SWEEP_PENDING_AFTER_SECONDS nothing is published (it may still be on its way); past it the sweeper publishes it.
    const parser = await fakeParser();
    await sweeper.sweep(Date.now());
    expect(await rootNodeMessages(id)).toBe(0);
    await sweeper.sweep(Date.now() + 61_000);
    const event = await eventually('the sweeper to act', async () => parser.seen.find((e) => e.fileId === id), SETTLES);
    expect(event).toMatchObject({
      namespaceId: ctx.namespaceId,
      namespaceName: 'acme',
      fileId: id,
      requestedTime: recorded.requestedTime,
      rootNodeId: rootNodeIdFor(id, recorded.requestedTime),
      reparse: true,
      providerId: provider.id.id,
      mediaType: 'text/plain',
      size: 12,
    });
    expect(await rootNodeMessages(id)).toBe(1);
    await consumers.pop()!.stop();
  });
});
