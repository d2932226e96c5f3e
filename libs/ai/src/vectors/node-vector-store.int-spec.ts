import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { startTestInfrastructure, type TestInfrastructure } from '@docintel/testing';
import { createDataSource, initializeDataSource, type PersistenceOptions } from '@docintel/persistence';
import { CreateNodeEmbeddings1732450000000 } from './node-embeddings.migration';
import { NodeVectorStore, type NodeEmbedding } from './node-vector-store';

// This machine's PostgreSQL has no pgvector, so these tests exercise the stock (bytea + scan) storage.

const DIMS = 4;

/** A unit vector along one axis, nudged towards another: its cosine to each axis is known. */
function axis(i: number, towards?: number, weight = 0): number[] {
  const v = [0, 0, 0, 0];
  v[i] = 1;
  if (towards !== undefined) v[towards] = weight;
  return v;
}

describe('NodeVectorStore on stock PostgreSQL', () => {
  let infra: TestInfrastructure;
  let ds: DataSource;
  let store: NodeVectorStore;

  const ns = () => randomUUID();
  const row = (fileId: string, vector: number[], nodeId = randomUUID()): NodeEmbedding => ({ nodeId, fileId, vector });

  beforeAll(async () => {
    infra = await startTestInfrastructure('vectors');
    const opts: PersistenceOptions = {
      url: infra.databaseUrl,
      schema: 'indexing',
      entities: [],
      migrations: [CreateNodeEmbeddings1732450000000],
      poolSize: 3,
    };
    ds = await initializeDataSource(createDataSource(opts), opts);
    store = new NodeVectorStore(ds, { model: 'test-model', dimensions: DIMS, scanBatchSize: 3 });
  });
  afterAll(async () => {
    if (ds?.isInitialized) await ds.destroy();
    await infra?.teardown();
  });

  it('creates the table in the service schema with bytea vectors', async () => {
    const cols = (await ds.query(
      `SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = 'indexing' AND table_name = 'node_embeddings' ORDER BY ordinal_position`,
    )) as { column_name: string; data_type: string }[];
    expect(cols.map((c) => `${c.column_name}:${c.data_type}`)).toEqual([
      'namespace_id:uuid',
      'model:text',
      'node_id:uuid',
      'file_id:uuid',
      'dims:integer',
      'embedding:bytea',
      'updated_at:timestamp with time zone',
    ]);
  });

  it('returns what was stored, with cosine similarity, best first', async () => {
    const namespace = ns();
    const file = randomUUID();
    const a = row(file, axis(0));
    const b = row(file, axis(1));
    await store.upsert(namespace, [a, b]);
    // Not normalised on purpose: the store normalises both sides.
    const hits = await store.search(namespace, [3, 0, 0, 0], { k: 5 });
    expect(hits.map((h) => h.nodeId)).toEqual([a.nodeId, b.nodeId]);
    expect(hits[0]).toEqual({ nodeId: a.nodeId, fileId: file, score: expect.closeTo(1, 6) as number });
    expect(hits[1].score).toBeCloseTo(0, 6);
  });

  it('ranks known vectors by cosine similarity and keeps only k', async () => {
    const namespace = ns();
    const file = randomUUID();
    // Cosines to axis 0: 1, 1/sqrt(1.25)=0.894, 1/sqrt(2)=0.707, 1/sqrt(5)=0.447, 0, -1.
    const rows = [axis(0, 1, 2), axis(0), [-1, 0, 0, 0], axis(0, 2, 1), axis(3), axis(0, 1, 0.5)].map((v) => row(file, v));
    await store.upsert(namespace, rows);
    const hits = await store.search(namespace, axis(0), { k: 4 });
    expect(hits.map((h) => rows.indexOf(rows.find((r) => r.nodeId === h.nodeId)!))).toEqual([1, 5, 3, 0]);
    expect(hits.map((h) => Number(h.score.toFixed(3)))).toEqual([1, 0.894, 0.707, 0.447]);
    const all = await store.search(namespace, axis(0), { k: 100 });
    expect(all).toHaveLength(6);
    expect(all[5].score).toBeCloseTo(-1, 6);
  });

  it('never returns another namespace’s nodes, even when they match better', async () => {
    const mine = ns();
    const theirs = ns();
    const file = randomUUID();
    const weak = row(file, axis(0, 1, 3));
    await store.upsert(mine, [weak]);
    await store.upsert(theirs, [row(file, axis(0)), row(file, axis(0, 1, 0.1))]);
    const hits = await store.search(mine, axis(0), { k: 10 });
    expect(hits.map((h) => h.nodeId)).toEqual([weak.nodeId]);
    expect(await store.search(ns(), axis(0), { k: 10 })).toEqual([]);
  });

  it('restricts a search to the given files', async () => {
    const namespace = ns();
    const [f1, f2, f3] = [randomUUID(), randomUUID(), randomUUID()];
    const in1 = row(f1, axis(0, 1, 1));
    const in2 = row(f2, axis(0, 1, 2));
    await store.upsert(namespace, [in1, in2, row(f3, axis(0))]);
    const hits = await store.search(namespace, axis(0), { k: 10, fileIds: [f1, f2] });
    expect(hits.map((h) => [h.nodeId, h.fileId])).toEqual([
      [in1.nodeId, f1],
      [in2.nodeId, f2],
    ]);
    expect(await store.search(namespace, axis(0), { k: 10, fileIds: [] })).toEqual([]);
  });

  it('gives each file its normalised mean vector, for the namespace or the files named', async () => {
    const namespace = ns();
    const [f1, f2] = [randomUUID(), randomUUID()];
    // More rows than one FETCH (scanBatchSize 3): the sums run across batches.
    await store.upsert(namespace, [row(f1, axis(0)), row(f1, axis(1)), row(f2, axis(2)), row(f2, axis(2)), row(f2, axis(2))]);
    await store.upsert(ns(), [row(f1, axis(3))]); // another namespace's vector of the same file id is not counted
    const means = await store.meanVectors(namespace);
    expect([...means.keys()].sort()).toEqual([f1, f2].sort());
    expect([...means.get(f1)!].map((x) => Number(x.toFixed(4)))).toEqual([0.7071, 0.7071, 0, 0]);
    expect([...means.get(f2)!]).toEqual([0, 0, 1, 0]);
    expect([...(await store.meanVectors(namespace, [f2])).keys()]).toEqual([f2]);
    expect((await store.meanVectors(namespace, [])).size).toBe(0);
  });

  it('replaces a node’s vector on upsert instead of adding a second one', async () => {
    const namespace = ns();
    const file = randomUUID();
    const node = randomUUID();
    await store.upsert(namespace, [row(file, axis(1), node)]);
    await store.upsert(namespace, [row(file, axis(0), node), row(file, axis(2), node)]);
    const hits = await store.search(namespace, axis(2), { k: 10 });
    expect(hits).toEqual([{ nodeId: node, fileId: file, score: expect.closeTo(1, 6) as number }]);
  });

  it('deletes every vector of a file and nothing else', async () => {
    const namespace = ns();
    const other = ns();
    const [gone, kept] = [randomUUID(), randomUUID()];
    const survivor = row(kept, axis(1));
    await store.upsert(namespace, [row(gone, axis(0)), row(gone, axis(0, 1, 1)), survivor]);
    // The same file id in another namespace is another tenant's business.
    await store.upsert(other, [row(gone, axis(0))]);
    expect(await store.deleteForFile(namespace, gone)).toBe(2);
    expect((await store.search(namespace, axis(0), { k: 10 })).map((h) => h.nodeId)).toEqual([survivor.nodeId]);
    expect(await store.search(other, axis(0), { k: 10 })).toHaveLength(1);
    expect(await store.deleteForFile(namespace, gone)).toBe(0);
  });

  it('keeps the vectors of each model apart', async () => {
    const namespace = ns();
    const file = randomUUID();
    const other = new NodeVectorStore(ds, { model: 'other-model', dimensions: DIMS });
    await other.upsert(namespace, [row(file, axis(0))]);
    expect(await store.search(namespace, axis(0), { k: 10 })).toEqual([]);
    expect(await other.search(namespace, axis(0), { k: 10 })).toHaveLength(1);
    // A file's deletion removes the vectors of every model.
    expect(await store.deleteForFile(namespace, file)).toBe(1);
  });

  it('writes in the caller’s transaction when given its manager', async () => {
    const namespace = ns();
    const file = randomUUID();
    await expect(
      ds.transaction(async (manager) => {
        await store.upsert(namespace, [row(file, axis(0))], manager);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await store.search(namespace, axis(0), { k: 1 })).toEqual([]);
  });

  it('rejects vectors of the wrong length, zero vectors and a bad k', async () => {
    const namespace = ns();
    await expect(store.upsert(namespace, [row(randomUUID(), [1, 0, 0])])).rejects.toThrow('has 3 dimensions; model test-model has 4');
    await expect(store.upsert(namespace, [row(randomUUID(), [0, 0, 0, 0])])).rejects.toThrow('not all zeros');
    await expect(store.search(namespace, [1, 0], { k: 1 })).rejects.toThrow('the query has 2 dimensions');
    await expect(store.search(namespace, axis(0), { k: 0 })).rejects.toThrow('k must be an integer from 1 to 1000');
  });
});
