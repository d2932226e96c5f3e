import { createHash } from 'node:crypto';
import type { DataSource, EntityManager, QueryRunner } from 'typeorm';
import { createPgvectorExtension } from './node-embeddings.migration';
import { TopK, dot, normalize, toBytes } from './vector-math';

/** One node's vector. */
export interface NodeEmbedding {
  nodeId: string;
  fileId: string;
  vector: ArrayLike<number>;
}

export interface VectorSearchOptions {
  /** How many nodes (or files) to return at most (1..1000). */
  k: number;
  /** Only nodes of these files; all of the namespace's files when absent. */
  fileIds?: string[];
}

export interface VectorSearchHit {
  nodeId: string;
  fileId: string;
  /** Cosine similarity, -1..1, higher is closer. */
  score: number;
}

export interface DocumentSearchHit {
  fileId: string;
  /** Cosine similarity of the file's document vector, -1..1. */
  score: number;
}

/**
 * How node vectors are stored. `pgvector`: a vector column searched through an HNSW index (start-up
 * fails when CREATE EXTENSION vector does not work); `bytea`: float32 bytes scanned in Node, on any
 * PostgreSQL; `auto`: pgvector when the extension can be created, else bytea.
 */
export const VECTOR_STORAGES = ['auto', 'pgvector', 'bytea'] as const;
export type VectorStorage = (typeof VECTOR_STORAGES)[number];

export interface NodeVectorStoreOptions {
  /** The embedder's model id: vectors are written and searched for this model only. */
  model: string;
  dimensions: number;
  /** Rows fetched per round trip by the stock-PostgreSQL scan. */
  scanBatchSize?: number;
  /** Default auto. The table is converted at start-up (prepare) when it holds the other kind. */
  storage?: VectorStorage;
  /** HNSW search breadth (hnsw.ef_search), raised to k when k is larger. Default 100. */
  efSearch?: number;
}

type Storage = { kind: 'bytea' } | { kind: 'pgvector'; schema: string };
type Db = Pick<EntityManager, 'query'> | Pick<QueryRunner, 'query'>;

const UPSERT_CHUNK = 500;
const CONVERT_BATCH = 1000;
/** pgvector's HNSW index handles at most 2000 dimensions; larger vectors are searched exactly. */
const HNSW_MAX_DIMS = 2000;
/** pgvector's limit for hnsw.ef_search. */
const EF_SEARCH_MAX = 1000;
const STORAGE_LOCK = "hashtext('docintel.node_embeddings.storage')";

/**
 * Node vectors of one embedding model, per namespace, in the table of CreateNodeEmbeddings, and the
 * files' document vectors in the table of CreateDocumentEmbeddings.
 *
 * Search on stock PostgreSQL: vectors are stored normalised as float32 bytes and scored by a
 * streaming scan in Node (a server-side cursor, a dot product per row, a top-k heap). Measured on
 * 100k vectors of 512 dimensions (libs/ai/bench/vector-search.js), that is about 5x faster than computing
 * the cosine in SQL with unnest() over real[] arrays: the SQL version spends its time in the
 * executor's per-element tuple machinery, while the scan's cost is mostly moving 2 KiB a row.
 *
 * With pgvector, the column is a vector and search uses the <=> cosine distance with an HNSW index
 * per model (an expression index, because the column holds vectors of every model's length). The
 * namespace is a filter on the index scan, so the scan is iterative (hnsw.iterative_scan): a small
 * namespace among large ones still gets its k nearest instead of what survives the filter.
 */
export class NodeVectorStore {
  private storage?: Promise<Storage>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly options: NodeVectorStoreOptions,
  ) {
    if (!Number.isInteger(options.dimensions) || options.dimensions <= 0) throw new RangeError('dimensions must be a positive integer');
    if (options.storage !== undefined && !VECTOR_STORAGES.includes(options.storage)) {
      throw new RangeError(`storage must be one of ${VECTOR_STORAGES.join(', ')}`);
    }
  }

  /**
   * Makes the table hold the configured storage, converting every row when it holds the other
   * kind (under an advisory lock, so replicas starting together convert once), and creates this
   * model's HNSW indexes with pgvector. Call at start-up; the other methods call it on first use.
   */
  prepare(): Promise<'pgvector' | 'bytea'> {
    this.storage ??= this.settle().catch((err: unknown) => {
      this.storage = undefined;
      throw err;
    });
    return this.storage.then((s) => s.kind);
  }

  /** Writes (or replaces) the vectors of these nodes and their files' document vectors. Pass a transaction's manager to join it. */
  async upsert(namespace: string, rows: NodeEmbedding[], manager?: EntityManager): Promise<void> {
    if (!rows.length) return;
    for (const row of rows) this.checkLength(row.vector, `node ${row.nodeId}`);
    const storage = await this.ready();
    // One statement may not touch a row twice: the last vector given for a node wins.
    rows = [...new Map(rows.map((r) => [r.nodeId, r])).values()];
    if (manager) await this.write(manager, storage, namespace, rows);
    else await this.dataSource.transaction((m) => this.write(m, storage, namespace, rows));
  }

  private async write(db: EntityManager, storage: Storage, namespace: string, rows: NodeEmbedding[]): Promise<void> {
    const dims = this.options.dimensions;
    // pgvector parses its text form '[x,y,...]'; bytea takes the float32 bytes as they are.
    const [paramType, value] = storage.kind === 'pgvector' ? ['text', `n.embedding::"${storage.schema}".vector`] : ['bytea', 'n.embedding'];
    const deltas = new Map<string, { sum: Float64Array; count: number }>();
    const delta = (fileId: string) => {
      let d = deltas.get(fileId);
      if (!d) deltas.set(fileId, (d = { sum: new Float64Array(dims), count: 0 }));
      return d;
    };
    for (let i = 0; i < rows.length; i += UPSERT_CHUNK) {
      const slice = rows.slice(i, i + UPSERT_CHUNK);
      const vectors = slice.map((r) => normalize(r.vector));
      // The vectors being replaced leave their files' sums; FOR UPDATE keeps a concurrent writer from replacing them meanwhile.
      const old = (await db.query(
        `SELECT node_id, file_id, dims, ${this.readColumn(storage)} FROM node_embeddings
          WHERE namespace_id = $1 AND model = $2 AND node_id = ANY($3::uuid[]) FOR UPDATE`,
        [namespace, this.options.model, slice.map((r) => r.nodeId)],
      )) as { file_id: string; dims: number; embedding: Buffer | string }[];
      for (const o of old) {
        if (o.dims !== dims) continue;
        const d = delta(o.file_id);
        const v = decode(o.embedding, dims);
        for (let j = 0; j < dims; j++) d.sum[j] -= v[j];
        d.count--;
      }
      slice.forEach((r, n) => {
        const d = delta(r.fileId);
        for (let j = 0; j < dims; j++) d.sum[j] += vectors[n][j];
        d.count++;
      });
      const encoded = storage.kind === 'pgvector' ? vectors.map(vectorLiteral) : vectors.map(toBytes);
      await db.query(
        `INSERT INTO node_embeddings (namespace_id, model, node_id, file_id, dims, embedding)
         SELECT $1::uuid, $2::text, n.node_id, n.file_id, $3::int, ${value}
         FROM unnest($4::uuid[], $5::uuid[], $6::${paramType}[]) AS n (node_id, file_id, embedding)
         ON CONFLICT (namespace_id, model, node_id)
         DO UPDATE SET file_id = EXCLUDED.file_id, dims = EXCLUDED.dims, embedding = EXCLUDED.embedding, updated_at = now()`,
        [namespace, this.options.model, dims, slice.map((r) => r.nodeId), slice.map((r) => r.fileId), encoded],
      );
    }
    // In file order, so that two writers touching the same files lock their rows in the same order.
    for (const fileId of [...deltas.keys()].sort()) {
      const d = deltas.get(fileId)!;
      await db.query(
        `INSERT INTO document_embeddings AS d (namespace_id, model, file_id, dims, node_count, embedding_sum)
         VALUES ($1, $2, $3, $4, $5, $6::float8[])
         ON CONFLICT (namespace_id, model, file_id) DO UPDATE SET
           node_count = d.node_count + EXCLUDED.node_count,
           embedding_sum = CASE WHEN d.stale OR d.dims <> EXCLUDED.dims OR d.embedding_sum IS NULL THEN d.embedding_sum
             ELSE ARRAY(SELECT a + b FROM unnest(d.embedding_sum, EXCLUDED.embedding_sum) WITH ORDINALITY AS s (a, b, i) ORDER BY i) END,
           stale = d.stale OR d.dims <> EXCLUDED.dims OR d.embedding_sum IS NULL,
           dims = EXCLUDED.dims,
           updated_at = now()`,
        [namespace, this.options.model, fileId, dims, d.count, Array.from(d.sum)],
      );
    }
    await db.query(
      `DELETE FROM document_embeddings WHERE namespace_id = $1 AND model = $2 AND file_id = ANY($3::uuid[]) AND node_count <= 0 AND NOT stale`,
      [namespace, this.options.model, [...deltas.keys()]],
    );
  }

  /**
   * Runs `work` (writes through upsert, e.g. loading many files) with this model's HNSW index over
   * node vectors dropped, then builds it once over every row, with `maintenanceWorkMem` (default
   * 1GB) for the build: on pgvector, building the graph once is many times faster than inserting
   * each vector into it. Meanwhile searches of this model, in every namespace, scan its vectors
   * exactly (correct, slower); the index is rebuilt also when `work` fails. A no-op wrapper on
   * bytea storage.
   */
  async bulkLoad<T>(work: () => Promise<T>, options: { maintenanceWorkMem?: string } = {}): Promise<T> {
    const memory = options.maintenanceWorkMem ?? '1GB';
    if (!/^\d+\s*(kB|MB|GB)$/.test(memory)) throw new RangeError('maintenanceWorkMem must be a size such as 512MB or 2GB');
    const storage = await this.ready();
    if (storage.kind === 'bytea' || this.options.dimensions > HNSW_MAX_DIMS) return work();
    await this.dataSource.query(`DROP INDEX IF EXISTS ${this.indexName('node_embeddings')}`);
    try {
      return await work();
    } finally {
      await this.inTransaction(async (runner) => {
        await runner.query(`SET LOCAL maintenance_work_mem = '${memory}'`);
        await this.ensureIndexes(runner, storage);
      });
    }
  }

  /** Removes every vector of the file, of every model (its document vectors go with them). Returns how many were removed. */
  async deleteForFile(namespace: string, fileId: string, manager?: EntityManager): Promise<number> {
    const db = manager ?? this.dataSource.manager;
    const [{ count }] = (await db.query(
      'WITH removed AS (DELETE FROM node_embeddings WHERE namespace_id = $1 AND file_id = $2 RETURNING 1) SELECT count(*)::int AS count FROM removed',
      [namespace, fileId],
    )) as { count: number }[];
    return count;
  }

  /** The k nodes of the namespace whose vectors are closest to the query, best first. */
  async search(namespace: string, query: ArrayLike<number>, options: VectorSearchOptions): Promise<VectorSearchHit[]> {
    this.checkSearch(query, options);
    if (options.fileIds && options.fileIds.length === 0) return [];
    const q = normalize(query);
    const storage = await this.ready();
    if (storage.kind === 'bytea') return this.scan(namespace, q, options.k, options.fileIds);
    const rows = await this.withHnsw(options.k, (db) => {
      const { sql, params } = this.pgvectorQuery(storage, 'node_embeddings', 'node_id, file_id', 'embedding', namespace, q, options);
      return db.query(sql, params) as Promise<{ node_id: string; file_id: string; distance: number }[]>;
    });
    return rows.map((r) => ({ nodeId: r.node_id, fileId: r.file_id, score: 1 - Number(r.distance) }));
  }

  /**
   * The query plan of search() (EXPLAIN), for operators checking that the HNSW index serves a
   * namespace. On bytea storage, the plan of the scan's query.
   */
  async explainSearch(namespace: string, query: ArrayLike<number>, options: VectorSearchOptions): Promise<string> {
    this.checkSearch(query, options);
    const storage = await this.ready();
    if (storage.kind === 'bytea') {
      const { sql, params } = this.scanQuery('node_id, embedding', namespace, options.fileIds);
      return explain(this.dataSource.manager, sql, params);
    }
    return this.withHnsw(options.k, (db) => {
      const { sql, params } = this.pgvectorQuery(
        storage,
        'node_embeddings',
        'node_id, file_id',
        'embedding',
        namespace,
        normalize(query),
        options,
      );
      return explain(db, sql, params);
    });
  }

  /**
   * Each file's document vector: the normalised mean of its node vectors of this model, for the
   * namespace's files (or these), read from document_embeddings (one row per file).
   */
  async meanVectors(namespace: string, fileIds?: string[]): Promise<Map<string, Float32Array>> {
    const out = new Map<string, Float32Array>();
    if (fileIds && fileIds.length === 0) return out;
    await this.ready();
    await this.refreshStale(namespace, fileIds);
    const rows = (await this.dataSource.query(
      `SELECT file_id, embedding_sum FROM document_embeddings
        WHERE namespace_id = $1 AND model = $2 AND dims = $3 AND node_count > 0 AND embedding_sum IS NOT NULL ${fileIds ? 'AND file_id = ANY($4::uuid[])' : ''}`,
      fileIds
        ? [namespace, this.options.model, this.options.dimensions, fileIds]
        : [namespace, this.options.model, this.options.dimensions],
    )) as { file_id: string; embedding_sum: number[] }[];
    for (const row of rows) {
      const mean = normalizeOrNull(row.embedding_sum);
      if (mean) out.set(row.file_id, mean);
    }
    return out;
  }

  /** The k files of the namespace whose document vectors are closest to the query, best first. */
  async searchDocuments(namespace: string, query: ArrayLike<number>, options: VectorSearchOptions): Promise<DocumentSearchHit[]> {
    this.checkSearch(query, options);
    if (options.fileIds && options.fileIds.length === 0) return [];
    const q = normalize(query);
    const storage = await this.ready();
    await this.refreshStale(namespace, options.fileIds);
    if (storage.kind === 'bytea') {
      const top = new TopK<string>(options.k);
      for (const [fileId, v] of await this.meanVectors(namespace, options.fileIds)) top.offer(dot(v, q), fileId);
      return top.sorted().map(({ score, item }) => ({ fileId: item, score }));
    }
    const rows = await this.withHnsw(options.k, (db) => {
      const { sql, params } = this.pgvectorQuery(storage, 'document_embeddings', 'file_id', 'embedding_sum', namespace, q, options);
      return db.query(sql, params) as Promise<{ file_id: string; distance: number }[]>;
    });
    return rows.map((r) => ({ fileId: r.file_id, score: 1 - Number(r.distance) }));
  }

  private checkSearch(query: ArrayLike<number>, options: VectorSearchOptions): void {
    const k = options.k;
    if (!Number.isInteger(k) || k < 1 || k > 1000) throw new RangeError('k must be an integer from 1 to 1000');
    this.checkLength(query, 'the query');
  }

  private checkLength(vector: ArrayLike<number>, what: string): void {
    if (vector.length !== this.options.dimensions) {
      throw new RangeError(`${what} has ${vector.length} dimensions; model ${this.options.model} has ${this.options.dimensions}`);
    }
  }

  private async ready(): Promise<Storage> {
    await this.prepare();
    return this.storage!;
  }

  private readColumn(storage: Storage): string {
    return storage.kind === 'pgvector' ? 'embedding::text AS embedding' : 'embedding';
  }

  /**
   * Recomputes the document vectors a delete marked stale, from the files' node vectors. The row
   * is locked first: a writer adding to it waits, then adds to the recomputed sum.
   */
  private async refreshStale(namespace: string, fileIds?: string[]): Promise<void> {
    const params: unknown[] = [namespace, this.options.model];
    if (fileIds) params.push(fileIds);
    const staleSql = `SELECT file_id FROM document_embeddings WHERE namespace_id = $1 AND model = $2 AND stale ${fileIds ? 'AND file_id = ANY($3::uuid[])' : ''}`;
    if (!((await this.dataSource.query(staleSql, params)) as unknown[]).length) return;
    const storage = await this.ready();
    await this.inTransaction(async (runner) => {
      const locked = (await runner.query(`${staleSql} ORDER BY file_id FOR UPDATE`, params)) as { file_id: string }[];
      if (!locked.length) return;
      const dims = this.options.dimensions;
      const sums = new Map<string, { sum: Float64Array; count: number }>(
        locked.map((r) => [r.file_id, { sum: new Float64Array(dims), count: 0 }]),
      );
      await this.streamVectors<{ file_id: string; embedding: Buffer | string }>(
        runner,
        this.readColumn(storage),
        namespace,
        [...sums.keys()],
        (row) => {
          const s = sums.get(row.file_id)!;
          const v = decode(row.embedding, dims);
          for (let j = 0; j < dims; j++) s.sum[j] += v[j];
          s.count++;
        },
      );
      for (const [fileId, s] of sums) {
        if (s.count === 0) {
          await runner.query('DELETE FROM document_embeddings WHERE namespace_id = $1 AND model = $2 AND file_id = $3', [
            namespace,
            this.options.model,
            fileId,
          ]);
        } else {
          await runner.query(
            `UPDATE document_embeddings SET node_count = $4, embedding_sum = $5::float8[], dims = $6, stale = false, updated_at = now()
              WHERE namespace_id = $1 AND model = $2 AND file_id = $3`,
            [namespace, this.options.model, fileId, s.count, Array.from(s.sum), dims],
          );
        }
      }
    });
  }

  private async scan(namespace: string, q: Float32Array, k: number, fileIds?: string[]): Promise<VectorSearchHit[]> {
    const top = new TopK<{ nodeId: string; fileId: string }>(k);
    // Rows arrive as Buffers at arbitrary offsets; copying each into one aligned array is cheaper than DataView reads.
    const v = new Float32Array(this.options.dimensions);
    const bytes = new Uint8Array(v.buffer);
    await this.inTransaction((runner) =>
      this.streamVectors<{ node_id: string; file_id: string; embedding: Buffer }>(
        runner,
        'node_id, embedding',
        namespace,
        fileIds,
        (row) => {
          bytes.set(row.embedding);
          const score = dot(v, q);
          if (score > top.threshold) top.offer(score, { nodeId: row.node_id, fileId: row.file_id });
        },
      ),
    );
    return top.sorted().map(({ score, item }) => ({ ...item, score }));
  }

  private scanQuery(columns: string, namespace: string, fileIds: string[] | undefined): { sql: string; params: unknown[] } {
    const params: unknown[] = [namespace, this.options.model, this.options.dimensions];
    let filter = '';
    if (fileIds) {
      params.push(fileIds);
      filter = 'AND file_id = ANY($4::uuid[])';
    }
    return {
      sql: `SELECT file_id, ${columns} FROM node_embeddings WHERE namespace_id = $1 AND model = $2 AND dims = $3 ${filter}`,
      params,
    };
  }

  /** Every vector of this model in the namespace (or these files), through a server-side cursor in the runner's transaction. */
  private async streamVectors<R>(
    runner: QueryRunner,
    columns: string,
    namespace: string,
    fileIds: string[] | undefined,
    onRow: (row: R) => void,
  ): Promise<void> {
    const { sql, params } = this.scanQuery(columns, namespace, fileIds);
    const batch = this.options.scanBatchSize ?? 2000;
    await runner.query(`DECLARE node_embeddings_scan NO SCROLL CURSOR FOR ${sql}`, params);
    for (;;) {
      const rows = (await runner.query(`FETCH ${batch} FROM node_embeddings_scan`)) as R[];
      for (const row of rows) onRow(row);
      if (rows.length < batch) break;
    }
    await runner.query('CLOSE node_embeddings_scan');
  }

  /**
   * A k-nearest query on the HNSW index. Iterative scans return rows in roughly increasing
   * distance (relaxed_order is pgvector's faster mode), so the k rows are materialised and sorted.
   */
  private pgvectorQuery(
    storage: { schema: string },
    table: 'node_embeddings' | 'document_embeddings',
    columns: string,
    column: string,
    namespace: string,
    q: Float32Array,
    options: VectorSearchOptions,
  ): { sql: string; params: unknown[] } {
    const typed = `"${storage.schema}".vector(${this.options.dimensions})`;
    const distance = `(${column}::${typed}) OPERATOR("${storage.schema}".<=>) $1::${typed}`;
    const params: unknown[] = [vectorLiteral(q), namespace, this.options.model, this.options.dimensions];
    let filter = table === 'document_embeddings' ? 'AND node_count > 0' : '';
    if (options.fileIds) {
      params.push(options.fileIds);
      filter += ' AND file_id = ANY($5::uuid[])';
    }
    return {
      sql: `WITH nearest AS MATERIALIZED (
              SELECT ${columns}, ${distance} AS distance FROM ${table}
               WHERE namespace_id = $2 AND model = $3 AND dims = $4 ${filter}
               ORDER BY ${distance} LIMIT ${options.k})
            SELECT * FROM nearest ORDER BY distance`,
      params,
    };
  }

  private withHnsw<T>(k: number, fn: (db: QueryRunner) => Promise<T>): Promise<T> {
    const ef = Math.min(EF_SEARCH_MAX, Math.max(k, this.options.efSearch ?? 100));
    return this.inTransaction(async (runner) => {
      await runner.query('SET LOCAL hnsw.iterative_scan = relaxed_order');
      await runner.query(`SET LOCAL hnsw.ef_search = ${ef}`);
      return fn(runner);
    });
  }

  private async inTransaction<T>(fn: (runner: QueryRunner) => Promise<T>): Promise<T> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      const result = await fn(runner);
      await runner.commitTransaction();
      return result;
    } catch (err) {
      if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
      throw err;
    } finally {
      await runner.release();
    }
  }

  private async settle(): Promise<Storage> {
    const wanted = this.options.storage ?? 'auto';
    const storage = await this.inTransaction(async (runner): Promise<Storage> => {
      await runner.query(`SELECT pg_advisory_xact_lock(${STORAGE_LOCK})`);
      const current = await columnStorage(runner);
      let target: Storage = { kind: 'bytea' };
      if (wanted !== 'bytea') {
        const schema = current.kind === 'pgvector' ? current.schema : await createPgvectorExtension(runner);
        if (schema) target = { kind: 'pgvector', schema };
        else if (wanted === 'pgvector') {
          throw new Error(
            'VECTOR_STORAGE is pgvector but this PostgreSQL cannot CREATE EXTENSION vector (not installed, or the role may not create it): install pgvector (scripts/install-pgvector.sh) or use VECTOR_STORAGE=auto or bytea',
          );
        }
      }
      if (target.kind !== current.kind) await convert(runner, current, target, this.options.scanBatchSize ?? CONVERT_BATCH);
      // Under the same lock: replicas starting together would otherwise each build the same index.
      if (target.kind === 'pgvector') await this.ensureIndexes(runner, target);
      return target;
    });
    return storage;
  }

  /** The name of this model's HNSW index on the table. */
  private indexName(table: 'node_embeddings' | 'document_embeddings'): string {
    const hash = createHash('sha256').update(`${this.options.model}/${this.options.dimensions}`).digest('hex').slice(0, 16);
    return `${table}_hnsw_${hash}`;
  }

  /** This model's HNSW indexes, over node and document vectors (idempotent). */
  private async ensureIndexes(db: Db, storage: { schema: string }): Promise<void> {
    const dims = this.options.dimensions;
    if (dims > HNSW_MAX_DIMS) return;
    const model = this.options.model.replace(/'/g, "''");
    for (const [table, column] of [
      ['node_embeddings', 'embedding'],
      ['document_embeddings', 'embedding_sum'],
    ] as const) {
      if (!(await tableExists(db, table))) continue;
      await db.query(
        `CREATE INDEX IF NOT EXISTS ${this.indexName(table)} ON ${table}
         USING hnsw ((${column}::"${storage.schema}".vector(${dims})) "${storage.schema}".vector_cosine_ops)
         WHERE model = '${model}' AND dims = ${dims}`,
      );
    }
  }
}

/** What the embedding column holds. */
async function columnStorage(db: Db): Promise<Storage> {
  const rows = (await db.query(
    `SELECT t.typname AS type, n.nspname AS schema FROM pg_attribute a
     JOIN pg_type t ON t.oid = a.atttypid JOIN pg_namespace n ON n.oid = t.typnamespace
     WHERE a.attrelid = 'node_embeddings'::regclass AND a.attname = 'embedding' AND NOT a.attisdropped`,
  )) as { type: string; schema: string }[];
  return rows[0]?.type === 'vector' ? { kind: 'pgvector', schema: rows[0].schema } : { kind: 'bytea' };
}

async function tableExists(db: Db, table: string): Promise<boolean> {
  const [{ found }] = (await db.query(`SELECT to_regclass($1) IS NOT NULL AS found`, [table])) as { found: boolean }[];
  return found;
}

/**
 * Rewrites every node vector into the other storage, in the caller's transaction: a new column is
 * filled batch by batch from a cursor (its snapshot predates the updates), then replaces the old
 * one. The table is locked for the duration; HNSW indexes go with the old column and are rebuilt
 * by ensureIndexes. Document vectors are float8[] either way and need no conversion, only their
 * HNSW indexes dropped when pgvector goes.
 */
async function convert(runner: QueryRunner, from: Storage, to: Storage, batch: number): Promise<void> {
  await runner.query('LOCK TABLE node_embeddings IN ACCESS EXCLUSIVE MODE');
  const toType = to.kind === 'pgvector' ? `"${to.schema}".vector` : 'bytea';
  await runner.query(`ALTER TABLE node_embeddings ADD COLUMN embedding_converted ${toType}`);
  const read = from.kind === 'pgvector' ? 'embedding::text AS embedding' : 'embedding';
  await runner.query(
    `DECLARE node_embeddings_convert NO SCROLL CURSOR FOR SELECT namespace_id, model, node_id, dims, ${read} FROM node_embeddings`,
  );
  const [paramType, value] = to.kind === 'pgvector' ? ['text', `u.embedding::"${to.schema}".vector`] : ['bytea', 'u.embedding'];
  for (;;) {
    const rows = (await runner.query(`FETCH ${batch} FROM node_embeddings_convert`)) as {
      namespace_id: string;
      model: string;
      node_id: string;
      dims: number;
      embedding: Buffer | string;
    }[];
    if (rows.length) {
      const encoded = rows.map((r) => {
        const v = decode(r.embedding, r.dims);
        return to.kind === 'pgvector' ? vectorLiteral(v) : toBytes(v);
      });
      await runner.query(
        `UPDATE node_embeddings e SET embedding_converted = ${value}
           FROM unnest($1::uuid[], $2::text[], $3::uuid[], $4::${paramType}[]) AS u (namespace_id, model, node_id, embedding)
          WHERE e.namespace_id = u.namespace_id AND e.model = u.model AND e.node_id = u.node_id`,
        [rows.map((r) => r.namespace_id), rows.map((r) => r.model), rows.map((r) => r.node_id), encoded],
      );
    }
    if (rows.length < batch) break;
  }
  await runner.query('CLOSE node_embeddings_convert');
  await runner.query('ALTER TABLE node_embeddings DROP COLUMN embedding');
  await runner.query('ALTER TABLE node_embeddings RENAME COLUMN embedding_converted TO embedding');
  await runner.query('ALTER TABLE node_embeddings ALTER COLUMN embedding SET NOT NULL');
  if (to.kind === 'bytea') {
    // See CreateNodeEmbeddings: keep the floats in the row for the scan.
    await runner.query('ALTER TABLE node_embeddings ALTER COLUMN embedding SET STORAGE MAIN');
    const indexes = (await runner.query(
      `SELECT indexrelid::regclass::text AS name FROM pg_index WHERE indrelid = to_regclass('document_embeddings') AND indexrelid::regclass::text LIKE '%document_embeddings_hnsw_%'`,
    )) as { name: string }[];
    for (const { name } of indexes) await runner.query(`DROP INDEX ${name}`);
  }
}

/** A stored vector, as bytea (float32 bytes) or pgvector's text form, into floats. */
function decode(embedding: Buffer | string, dims: number): Float32Array {
  if (typeof embedding === 'string') return Float32Array.from(embedding.slice(1, -1).split(','), Number);
  const v = new Float32Array(dims);
  new Uint8Array(v.buffer).set(embedding.subarray(0, dims * 4));
  return v;
}

function vectorLiteral(v: ArrayLike<number>): string {
  return `[${Array.prototype.join.call(v, ',')}]`;
}

function normalizeOrNull(v: ArrayLike<number>): Float32Array | null {
  try {
    return normalize(v);
  } catch {
    return null;
  }
}

async function explain(db: Db, sql: string, params: unknown[]): Promise<string> {
  const rows = (await db.query(`EXPLAIN ${sql}`, params)) as { 'QUERY PLAN': string }[];
  return rows.map((r) => r['QUERY PLAN']).join('\n');
}
