import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { createNonSuperuserRole, startTestInfrastructure, type DatabaseRole, type TestInfrastructure } from '@docintel/testing';
import { createDataSource, initializeDataSource, type PersistenceOptions } from '@docintel/persistence';
import { CreateDocumentEmbeddings1764100000000 } from './document-embeddings.migration';
import { CreateNodeEmbeddings1732450000000 } from './node-embeddings.migration';
import { NodeVectorStore, type NodeEmbedding, type VectorStorage } from './node-vector-store';
import { normalize, dot } from './vector-math';

// Both storages are pinned explicitly, whatever the machine has: bytea runs on any PostgreSQL;
// pgvector needs the extension installed on the server (scripts/install-pgvector.sh).

const DIMS = 4;
const MIGRATIONS = [CreateNodeEmbeddings1732450000000, CreateDocumentEmbeddings1764100000000];

/** A unit vector along one axis, nudged towards another: its cosine to each axis is known. */
function axis(i: number, towards?: number, weight = 0): number[] {
  const v = [0, 0, 0, 0];
  v[i] = 1;
  if (towards !== undefined) v[towards] = weight;
  return v;
}

/** Deterministic pseudo-random vectors (mulberry32), so a failure reproduces. */
function randomVectors(seed: number, count: number, dims: number): number[][] {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return Array.from({ length: count }, () => Array.from({ length: dims }, () => next() * 2 - 1));
}

/** The ids of the k rows closest to q by cosine, computed in the test. */
function exactTop(rows: NodeEmbedding[], q: number[], k: number): string[] {
  const nq = normalize(q);
  return rows
    .map((r) => ({ id: r.nodeId, s: dot(normalize(r.vector), nq) }))
    .sort((x, y) => y.s - x.s)
    .slice(0, k)
    .map((x) => x.id);
}

const row = (fileId: string, vector: number[], nodeId = randomUUID()): NodeEmbedding => ({ nodeId, fileId, vector });
const ns = () => randomUUID();
const rounded = (v: ArrayLike<number> | undefined) => (v ? Array.from(v, (x) => Number(x.toFixed(4))) : v);

async function openDatabase(url: string): Promise<DataSource> {
  const opts: PersistenceOptions = { url, schema: 'indexing', entities: [], migrations: MIGRATIONS, poolSize: 3 };
  return initializeDataSource(createDataSource(opts), opts);
}

async function columnType(ds: DataSource): Promise<string> {
  const [{ type }] = (await ds.query(
    `SELECT udt_name AS type FROM information_schema.columns WHERE table_schema = 'indexing' AND table_name = 'node_embeddings' AND column_name = 'embedding'`,
  )) as { type: string }[];
  return type;
}

async function requirePgvector(ds: DataSource): Promise<void> {
  const found = (await ds.query(`SELECT 1 FROM pg_available_extensions WHERE name = 'vector'`)) as unknown[];
  if (!found.length) throw new Error('pgvector is not installed on this PostgreSQL: run scripts/install-pgvector.sh (as root)');
}

describe.each<Exclude<VectorStorage, 'auto'>>(['bytea', 'pgvector'])('NodeVectorStore with %s storage', (storage) => {
  let infra: TestInfrastructure;
  let ds: DataSource;
  let store: NodeVectorStore;

  beforeAll(async () => {
    infra = await startTestInfrastructure(`vectors_${storage}`);
    ds = await openDatabase(infra.databaseUrl);
    if (storage === 'pgvector') await requirePgvector(ds);
    store = new NodeVectorStore(ds, { model: 'test-model', dimensions: DIMS, scanBatchSize: 3, storage });
    expect(await store.prepare()).toBe(storage);
  });
  afterAll(async () => {
    if (ds?.isInitialized) await ds.destroy();
    await infra?.teardown();
  });

  it('keeps the vectors in the column type of the storage asked for', async () => {
    expect(await columnType(ds)).toBe(storage === 'pgvector' ? 'vector' : 'bytea');
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
    await store.upsert(namespace, [row(f1, axis(0)), row(f1, axis(1)), row(f2, axis(2)), row(f2, axis(2)), row(f2, axis(2))]);
    await store.upsert(ns(), [row(f1, axis(3))]); // another namespace's vector of the same file id is not counted
    const means = await store.meanVectors(namespace);
    expect([...means.keys()].sort()).toEqual([f1, f2].sort());
    expect(rounded(means.get(f1))).toEqual([0.7071, 0.7071, 0, 0]);
    expect(rounded(means.get(f2))).toEqual([0, 0, 1, 0]);
    expect([...(await store.meanVectors(namespace, [f2])).keys()]).toEqual([f2]);
    expect((await store.meanVectors(namespace, [])).size).toBe(0);
  });

  it('keeps a file’s document vector up to date as its vectors are added, replaced and deleted', async () => {
    const namespace = ns();
    const file = randomUUID();
    const [n1, n2, n3] = [randomUUID(), randomUUID(), randomUUID()];
    await store.upsert(namespace, [row(file, axis(0), n1)]);
    await store.upsert(namespace, [row(file, axis(1), n2)]); // a later batch of the same file adds to it
    expect(rounded((await store.meanVectors(namespace)).get(file))).toEqual([0.7071, 0.7071, 0, 0]);
    await store.upsert(namespace, [row(file, axis(2), n2)]); // re-embedding a node replaces its share
    expect(rounded((await store.meanVectors(namespace)).get(file))).toEqual([0.7071, 0, 0.7071, 0]);
    await store.upsert(namespace, [row(file, axis(3), n3)]);
    // What a reparse does (NodeStoreRepository): delete the vectors of replaced nodes with plain SQL.
    await ds.query('DELETE FROM node_embeddings WHERE file_id = $1 AND node_id = ANY($2::uuid[])', [file, [n1, n2]]);
    expect(rounded((await store.meanVectors(namespace)).get(file))).toEqual([0, 0, 0, 1]);
    await store.deleteForFile(namespace, file);
    expect((await store.meanVectors(namespace)).has(file)).toBe(false);
    const [{ n }] = (await ds.query('SELECT count(*)::int AS n FROM document_embeddings WHERE file_id = $1', [file])) as { n: number }[];
    expect(n).toBe(0);
  });

  it('moves a node’s share to its new file when a node changes file', async () => {
    const namespace = ns();
    const [from, to] = [randomUUID(), randomUUID()];
    const node = randomUUID();
    await store.upsert(namespace, [row(from, axis(0), node), row(from, axis(1))]);
    await store.upsert(namespace, [row(to, axis(2), node)]);
    const means = await store.meanVectors(namespace);
    expect(rounded(means.get(from))).toEqual([0, 1, 0, 0]);
    expect(rounded(means.get(to))).toEqual([0, 0, 1, 0]);
  });

  it('finds the files whose document vectors are closest, in the namespace only', async () => {
    const namespace = ns();
    const [near, middle, far] = [randomUUID(), randomUUID(), randomUUID()];
    await store.upsert(namespace, [row(near, axis(0)), row(near, axis(0, 1, 0.2)), row(middle, axis(0, 1, 1)), row(far, axis(3))]);
    await store.upsert(ns(), [row(randomUUID(), axis(0))]);
    const hits = await store.searchDocuments(namespace, axis(0), { k: 2 });
    expect(hits.map((h) => h.fileId)).toEqual([near, middle]);
    expect(hits[1].score).toBeCloseTo(Math.SQRT1_2, 4);
    expect((await store.searchDocuments(namespace, axis(0), { k: 5, fileIds: [far] })).map((h) => h.fileId)).toEqual([far]);
    if (storage === 'pgvector') {
      const indexes = (await ds.query(`SELECT indexname FROM pg_indexes WHERE tablename = 'document_embeddings'`)) as {
        indexname: string;
      }[];
      expect(indexes.map((i) => i.indexname)).toContainEqual(expect.stringMatching(/^document_embeddings_hnsw_/));
    }
  });

  it('replaces a node’s vector on upsert instead of adding a second one', async () => {
    const namespace = ns();
    const file = randomUUID();
    const node = randomUUID();
    await store.upsert(namespace, [row(file, axis(1), node)]);
    await store.upsert(namespace, [row(file, axis(0), node), row(file, axis(2), node)]);
    const hits = await store.search(namespace, axis(2), { k: 10 });
    expect(hits).toEqual([{ nodeId: node, fileId: file, score: expect.closeTo(1, 6) as number }]);
    expect(rounded((await store.meanVectors(namespace)).get(file))).toEqual([0, 0, 1, 0]);
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
    expect([...(await store.meanVectors(other)).keys()]).toEqual([gone]);
    expect(await store.deleteForFile(namespace, gone)).toBe(0);
  });

  it('keeps the vectors of each model apart', async () => {
    const namespace = ns();
    const file = randomUUID();
    const other = new NodeVectorStore(ds, { model: 'other-model', dimensions: DIMS, storage });
    await other.upsert(namespace, [row(file, axis(0))]);
    expect(await store.search(namespace, axis(0), { k: 10 })).toEqual([]);
    expect(await other.search(namespace, axis(0), { k: 10 })).toHaveLength(1);
    expect((await store.meanVectors(namespace)).size).toBe(0);
    // A file's deletion removes the vectors of every model.
    expect(await store.deleteForFile(namespace, file)).toBe(1);
    expect((await other.meanVectors(namespace)).size).toBe(0);
  });

  it('writes in the caller’s transaction when given its manager, document vector included', async () => {
    const namespace = ns();
    const file = randomUUID();
    await expect(
      ds.transaction(async (manager) => {
        await store.upsert(namespace, [row(file, axis(0))], manager);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await store.search(namespace, axis(0), { k: 1 })).toEqual([]);
    expect((await store.meanVectors(namespace)).size).toBe(0);
  });

  it('rejects vectors of the wrong length, zero vectors and a bad k', async () => {
    const namespace = ns();
    await expect(store.upsert(namespace, [row(randomUUID(), [1, 0, 0])])).rejects.toThrow('has 3 dimensions; model test-model has 4');
    await expect(store.upsert(namespace, [row(randomUUID(), [0, 0, 0, 0])])).rejects.toThrow('not all zeros');
    await expect(store.search(namespace, [1, 0], { k: 1 })).rejects.toThrow('the query has 2 dimensions');
    await expect(store.search(namespace, axis(0), { k: 0 })).rejects.toThrow('k must be an integer from 1 to 1000');
  });

  it('bulkLoad() writes through upsert with the index dropped, then builds it once', async () => {
    const dims = 8;
    const model = 'bulk-model';
    const bulk = new NodeVectorStore(ds, { model, dimensions: dims, storage });
    await bulk.prepare();
    const indexes = async () =>
      (
        (await ds.query(`SELECT indexdef FROM pg_indexes WHERE tablename = 'node_embeddings' AND indexdef LIKE '%hnsw%'`)) as {
          indexdef: string;
        }[]
      )
        .map((r) => r.indexdef)
        .filter((d) => d.includes(`'${model}'`));
    const before = await indexes();
    expect(before).toHaveLength(storage === 'pgvector' ? 1 : 0);
    const namespace = ns();
    const [a, b] = [randomUUID(), randomUUID()];
    const rows = randomVectors(5, 300, dims).map((v, i) => row(i % 2 ? a : b, v));
    const during = await bulk.bulkLoad(
      async () => {
        await bulk.upsert(namespace, rows.slice(0, 150));
        await bulk.upsert(namespace, rows.slice(150));
        return indexes();
      },
      { maintenanceWorkMem: '64MB' },
    );
    expect(during).toEqual([]);
    expect(await indexes()).toEqual(before);
    const q = randomVectors(6, 1, dims)[0];
    expect((await bulk.search(namespace, q, { k: 5 })).map((h) => h.nodeId)).toEqual(exactTop(rows, q, 5));
    expect([...(await bulk.meanVectors(namespace)).keys()].sort()).toEqual([a, b].sort());

    // A failing load still leaves the index in place; a bad memory size is refused before anything is dropped.
    await expect(
      bulk.bulkLoad(async () => {
        throw new Error('load failed');
      }),
    ).rejects.toThrow('load failed');
    expect(await indexes()).toEqual(before);
    await expect(bulk.bulkLoad(async () => undefined, { maintenanceWorkMem: "1GB'; DROP TABLE x; --" })).rejects.toThrow(
      'maintenanceWorkMem must be a size',
    );
    expect(await indexes()).toEqual(before);
  });

  it('finds a small namespace’s k nearest among a large namespace’s vectors', async () => {
    const dims = 16;
    const model = 'namespaces-model';
    // A narrow search breadth: without iterative scans, the index's 10 candidates would hold about one of the small namespace's.
    const store16 = new NodeVectorStore(ds, { model, dimensions: dims, storage, efSearch: 10 });
    const [large, small] = [ns(), ns()];
    const file = randomUUID();
    const smallRows = randomVectors(2, 400, dims).map((v) => row(file, v));
    await store16.upsert(
      large,
      randomVectors(1, 4000, dims).map((v) => row(file, v)),
    );
    await store16.upsert(small, smallRows);
    await ds.query('ANALYZE node_embeddings');
    if (storage === 'pgvector') {
      // The namespace is a filter on the HNSW index scan, not a separate exact path.
      const plan = await store16.explainSearch(small, randomVectors(4, 1, dims)[0], { k: 10 });
      expect(plan).toMatch(/Index Scan using node_embeddings_hnsw_\w+ on node_embeddings[\s\S]*Filter: \(namespace_id = /);
    }
    for (const [i, q] of randomVectors(3, 5, dims).entries()) {
      const hits = await store16.search(small, q, { k: 10 });
      expect({ query: i, ids: hits.map((h) => h.nodeId) }).toEqual({ query: i, ids: exactTop(smallRows, q, 10) });
    }
  });
});

describe('NodeVectorStore storage choice', () => {
  let infra: TestInfrastructure;
  let admin: DataSource;

  beforeAll(async () => {
    infra = await startTestInfrastructure('vectors_choice');
    admin = await openDatabase(infra.databaseUrl);
    await requirePgvector(admin);
  });
  afterAll(async () => {
    if (admin?.isInitialized) await admin.destroy();
    await infra?.teardown();
  });

  it('converts bytea vectors to pgvector when the extension appears, with the same top hits and document vectors', async () => {
    const dims = 8;
    const asBytea = new NodeVectorStore(admin, { model: 'convert-model', dimensions: dims, storage: 'bytea' });
    expect(await asBytea.prepare()).toBe('bytea');
    // As on a server that had no pgvector when the vectors were written.
    await admin.query('DROP EXTENSION IF EXISTS vector');
    const namespace = ns();
    const files = [randomUUID(), randomUUID(), randomUUID()];
    const rows = randomVectors(5, 300, dims).map((v, i) => row(files[i % 3], v));
    await asBytea.upsert(namespace, rows);
    const queries = randomVectors(6, 5, dims);
    const before = await Promise.all(queries.map((q) => asBytea.search(namespace, q, { k: 10 })));
    const meansBefore = await asBytea.meanVectors(namespace);

    // A replica configured with auto starts: pgvector can now be created, so the rows are converted.
    const asAuto = new NodeVectorStore(admin, { model: 'convert-model', dimensions: dims, storage: 'auto' });
    expect(await asAuto.prepare()).toBe('pgvector');
    expect(await columnType(admin)).toBe('vector');
    const after = await Promise.all(queries.map((q) => asAuto.search(namespace, q, { k: 10 })));
    expect(after.map((hits) => hits.map((h) => h.nodeId))).toEqual(before.map((hits) => hits.map((h) => h.nodeId)));
    expect(after.map((hits) => hits.map((h) => h.score.toFixed(5)))).toEqual(before.map((hits) => hits.map((h) => h.score.toFixed(5))));
    const meansAfter = await asAuto.meanVectors(namespace);
    expect(files.map((f) => rounded(meansAfter.get(f)))).toEqual(files.map((f) => rounded(meansBefore.get(f))));

    // And back, when an operator pins bytea.
    const back = new NodeVectorStore(admin, { model: 'convert-model', dimensions: dims, storage: 'bytea' });
    expect(await back.prepare()).toBe('bytea');
    expect(await columnType(admin)).toBe('bytea');
    const again = await Promise.all(queries.map((q) => back.search(namespace, q, { k: 10 })));
    expect(again.map((hits) => hits.map((h) => h.nodeId))).toEqual(before.map((hits) => hits.map((h) => h.nodeId)));
  });

  describe('for a role that may not create the extension (a server without pgvector)', () => {
    let role: DatabaseRole;
    let restricted: DataSource;

    beforeAll(async () => {
      const infra2 = await startTestInfrastructure('vectors_norole');
      role = await createNonSuperuserRole(infra2.databaseUrl);
      restricted = await openDatabase(role.url);
      teardowns.push(async () => {
        if (restricted?.isInitialized) await restricted.destroy();
        await role.drop();
        await infra2.teardown();
      });
    });
    const teardowns: (() => Promise<void>)[] = [];
    afterAll(async () => {
      for (const t of teardowns) await t();
    });

    it('auto falls back to bytea and searches by the scan', async () => {
      expect(await columnType(restricted)).toBe('bytea');
      const store = new NodeVectorStore(restricted, { model: 'm', dimensions: DIMS, storage: 'auto' });
      expect(await store.prepare()).toBe('bytea');
      const namespace = ns();
      const a = row(randomUUID(), axis(0));
      await store.upsert(namespace, [a, row(randomUUID(), axis(1))]);
      expect((await store.search(namespace, axis(0), { k: 1 })).map((h) => h.nodeId)).toEqual([a.nodeId]);
    });

    it('pgvector refuses to start, naming VECTOR_STORAGE', async () => {
      const store = new NodeVectorStore(restricted, { model: 'm', dimensions: DIMS, storage: 'pgvector' });
      await expect(store.prepare()).rejects.toThrow(/^VECTOR_STORAGE is pgvector but this PostgreSQL cannot CREATE EXTENSION vector/);
    });
  });
});
