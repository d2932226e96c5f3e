import { createHash } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { MeanVector, TopK, dot, normalize, toBytes } from './vector-math';

/** One node's vector. */
export interface NodeEmbedding {
  nodeId: string;
  fileId: string;
  vector: ArrayLike<number>;
}

export interface VectorSearchOptions {
  /** How many nodes to return at most (1..1000). */
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

export interface NodeVectorStoreOptions {
  /** The embedder's model id: vectors are written and searched for this model only. */
  model: string;
  dimensions: number;
  /** Rows fetched per round trip by the stock-PostgreSQL scan. */
  scanBatchSize?: number;
}

type Storage = { kind: 'bytea' } | { kind: 'pgvector'; schema: string };

const UPSERT_CHUNK = 500;
/** pgvector's HNSW index handles at most 2000 dimensions; larger vectors are searched exactly. */
const HNSW_MAX_DIMS = 2000;

/**
 * Node vectors of one embedding model, per namespace, in the table of CreateNodeEmbeddings.
 *
 * Search on stock PostgreSQL: vectors are stored normalised as float32 bytes and scored by a
 * streaming scan in Node (a server-side cursor, a dot product per row, a top-k heap). Measured on
 * 100k vectors of 512 dimensions (libs/ai/bench/vector-search.js), that is about 5x faster than computing
 * the cosine in SQL with unnest() over real[] arrays: the SQL version spends its time in the
 * executor's per-element tuple machinery, while the scan's cost is mostly moving 2 KiB a row.
 *
 * With pgvector, the column is a vector and search uses the <=> cosine distance with an HNSW index
 * per model (an expression index, because the column holds vectors of every model's length).
 */
export class NodeVectorStore {
  private storage?: Promise<Storage>;
  private indexed = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly options: NodeVectorStoreOptions,
  ) {
    if (!Number.isInteger(options.dimensions) || options.dimensions <= 0) throw new RangeError('dimensions must be a positive integer');
  }

  /** Writes (or replaces) the vectors of these nodes. Pass a transaction's manager to join it. */
  async upsert(namespace: string, rows: NodeEmbedding[], manager?: EntityManager): Promise<void> {
    if (!rows.length) return;
    const storage = await this.detect();
    const db = manager ?? this.dataSource.manager;
    for (const row of rows) this.checkLength(row.vector, `node ${row.nodeId}`);
    // One statement may not touch a row twice: the last vector given for a node wins.
    rows = [...new Map(rows.map((r) => [r.nodeId, r])).values()];
    if (storage.kind === 'pgvector') await this.ensureIndex(storage);
    // pgvector parses its text form '[x,y,...]'; bytea takes the float32 bytes as they are.
    const [paramType, value] = storage.kind === 'pgvector' ? ['text', `n.embedding::"${storage.schema}".vector`] : ['bytea', 'n.embedding'];
    for (let i = 0; i < rows.length; i += UPSERT_CHUNK) {
      const slice = rows.slice(i, i + UPSERT_CHUNK);
      const vectors = slice.map((r) => normalize(r.vector));
      const encoded = storage.kind === 'pgvector' ? vectors.map((v) => `[${v.join(',')}]`) : vectors.map(toBytes);
      await db.query(
        `INSERT INTO node_embeddings (namespace_id, model, node_id, file_id, dims, embedding)
         SELECT $1::uuid, $2::text, n.node_id, n.file_id, $3::int, ${value}
         FROM unnest($4::uuid[], $5::uuid[], $6::${paramType}[]) AS n (node_id, file_id, embedding)
         ON CONFLICT (namespace_id, model, node_id)
         DO UPDATE SET file_id = EXCLUDED.file_id, dims = EXCLUDED.dims, embedding = EXCLUDED.embedding, updated_at = now()`,
        [namespace, this.options.model, this.options.dimensions, slice.map((r) => r.nodeId), slice.map((r) => r.fileId), encoded],
      );
    }
  }

  /** Removes every vector of the file, of every model. Returns how many were removed. */
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
    const k = options.k;
    if (!Number.isInteger(k) || k < 1 || k > 1000) throw new RangeError('k must be an integer from 1 to 1000');
    this.checkLength(query, 'the query');
    if (options.fileIds && options.fileIds.length === 0) return [];
    const q = normalize(query);
    const storage = await this.detect();
    return storage.kind === 'pgvector'
      ? this.searchPgvector(storage, namespace, q, k, options.fileIds)
      : this.scan(namespace, q, k, options.fileIds);
  }

  private checkLength(vector: ArrayLike<number>, what: string): void {
    if (vector.length !== this.options.dimensions) {
      throw new RangeError(`${what} has ${vector.length} dimensions; model ${this.options.model} has ${this.options.dimensions}`);
    }
  }

  /**
   * Each file's document vector: the normalised mean of its node vectors of this model, for the
   * namespace's files (or these). Vectors are streamed and summed per file, so memory holds one sum
   * per file; the cost is one pass over the vectors read.
   */
  async meanVectors(namespace: string, fileIds?: string[]): Promise<Map<string, Float32Array>> {
    const out = new Map<string, Float32Array>();
    if (fileIds && fileIds.length === 0) return out;
    const storage = await this.detect();
    const sums = new Map<string, MeanVector>();
    const v = new Float32Array(this.options.dimensions);
    const bytes = new Uint8Array(v.buffer);
    const column = storage.kind === 'pgvector' ? 'embedding::text AS embedding' : 'embedding';
    await this.streamVectors<{ file_id: string; embedding: Buffer | string }>(column, namespace, fileIds, (row) => {
      let sum = sums.get(row.file_id);
      if (!sum) sums.set(row.file_id, (sum = new MeanVector()));
      if (typeof row.embedding === 'string') sum.add(row.embedding.slice(1, -1).split(',').map(Number));
      else {
        bytes.set(row.embedding.subarray(0, bytes.length));
        sum.add(v);
      }
    });
    for (const [fileId, sum] of sums) {
      const mean = sum.result();
      if (mean) out.set(fileId, mean);
    }
    return out;
  }

  private async scan(namespace: string, q: Float32Array, k: number, fileIds?: string[]): Promise<VectorSearchHit[]> {
    const top = new TopK<{ nodeId: string; fileId: string }>(k);
    // Rows arrive as Buffers at arbitrary offsets; copying each into one aligned array is cheaper than DataView reads.
    const v = new Float32Array(this.options.dimensions);
    const bytes = new Uint8Array(v.buffer);
    await this.streamVectors<{ node_id: string; file_id: string; embedding: Buffer }>('node_id, embedding', namespace, fileIds, (row) => {
      bytes.set(row.embedding);
      const score = dot(v, q);
      if (score > top.threshold) top.offer(score, { nodeId: row.node_id, fileId: row.file_id });
    });
    return top.sorted().map(({ score, item }) => ({ ...item, score }));
  }

  /** Every vector of this model in the namespace (or these files), through a server-side cursor, `columns` and file_id per row. */
  private async streamVectors<R>(
    columns: string,
    namespace: string,
    fileIds: string[] | undefined,
    onRow: (row: R) => void,
  ): Promise<void> {
    const params: unknown[] = [namespace, this.options.model, this.options.dimensions];
    let filter = '';
    if (fileIds) {
      params.push(fileIds);
      filter = 'AND file_id = ANY($4::uuid[])';
    }
    const batch = this.options.scanBatchSize ?? 2000;
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      await runner.query(
        `DECLARE node_embeddings_scan NO SCROLL CURSOR FOR
         SELECT file_id, ${columns} FROM node_embeddings
         WHERE namespace_id = $1 AND model = $2 AND dims = $3 ${filter}`,
        params,
      );
      for (;;) {
        const rows = (await runner.query(`FETCH ${batch} FROM node_embeddings_scan`)) as R[];
        for (const row of rows) onRow(row);
        if (rows.length < batch) break;
      }
      await runner.commitTransaction();
    } catch (err) {
      if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
      throw err;
    } finally {
      await runner.release();
    }
  }

  private async searchPgvector(storage: { schema: string }, namespace: string, q: Float32Array, k: number, fileIds?: string[]) {
    const typed = `"${storage.schema}".vector(${this.options.dimensions})`;
    const distance = `embedding::${typed} OPERATOR("${storage.schema}".<=>) $1::${typed}`;
    const params: unknown[] = [`[${q.join(',')}]`, namespace, this.options.model, this.options.dimensions];
    let filter = '';
    if (fileIds) {
      params.push(fileIds);
      filter = 'AND file_id = ANY($5::uuid[])';
    }
    const rows = (await this.dataSource.query(
      `SELECT node_id, file_id, 1 - (${distance}) AS score FROM node_embeddings
       WHERE namespace_id = $2 AND model = $3 AND dims = $4 ${filter}
       ORDER BY ${distance} LIMIT ${k}`,
      params,
    )) as { node_id: string; file_id: string; score: number }[];
    return rows.map((r) => ({ nodeId: r.node_id, fileId: r.file_id, score: Number(r.score) }));
  }

  /** Reads the column type the migration chose. */
  private detect(): Promise<Storage> {
    this.storage ??= (async (): Promise<Storage> => {
      const rows = (await this.dataSource.query(
        `SELECT t.typname AS type, n.nspname AS schema FROM pg_attribute a
         JOIN pg_type t ON t.oid = a.atttypid JOIN pg_namespace n ON n.oid = t.typnamespace
         WHERE a.attrelid = 'node_embeddings'::regclass AND a.attname = 'embedding'`,
      )) as { type: string; schema: string }[];
      return rows[0]?.type === 'vector' ? { kind: 'pgvector', schema: rows[0].schema } : { kind: 'bytea' };
    })().catch((err: unknown) => {
      this.storage = undefined;
      throw err;
    });
    return this.storage;
  }

  /** One HNSW index per model, created the first time the model writes (idempotent across replicas). */
  private async ensureIndex(storage: { schema: string }): Promise<void> {
    if (this.indexed || this.options.dimensions > HNSW_MAX_DIMS) return;
    const dims = this.options.dimensions;
    const name = `node_embeddings_hnsw_${createHash('sha256').update(`${this.options.model}/${dims}`).digest('hex').slice(0, 16)}`;
    const model = this.options.model.replace(/'/g, "''");
    try {
      await this.dataSource.query(
        `CREATE INDEX IF NOT EXISTS ${name} ON node_embeddings
         USING hnsw ((embedding::"${storage.schema}".vector(${dims})) "${storage.schema}".vector_cosine_ops)
         WHERE model = '${model}' AND dims = ${dims}`,
      );
    } catch (err) {
      // Two replicas creating it at once: the loser sees a duplicate; the index exists either way.
      if (!['42P07', '23505'].includes((err as { code?: string }).code ?? '')) throw err;
    }
    this.indexed = true;
  }
}
