import type { DataSource, EntityManager } from 'typeorm';
import { termFrequencies, analyze } from '../analysis/analyzer';
import type { Passage, PassageHit, PassageRetriever, PassageSearchOptions } from '../passage-retriever';

export interface Bm25Parameters {
  /** Term-frequency saturation: how quickly repeated occurrences stop adding to the score. */
  k1?: number;
  /** Length normalisation, 0 (none) to 1 (full). */
  b?: number;
}

export const DEFAULT_BM25: Required<Bm25Parameters> = { k1: 0.9, b: 0.4 };

/**
 * What the services configure: tuned on the SciFact *train* qrels only (bench/retrieval/run.js
 * --tune), a grid over k1 and b; see docs/benchmarks.md. Passages there are abstracts, longer than
 * most document nodes, so these favour length normalisation a little more than Anserini's defaults.
 */
export const RECOMMENDED_BM25: Required<Bm25Parameters> = { k1: 1.2, b: 0.75 };

const MAX_LIMIT = 1000;
/** Rows per INSERT, keeping each statement's arrays at a few hundred KiB. */
const INSERT_CHUNK = 5000;

/**
 * Okapi BM25 over PostgreSQL tables (CreateRetrievalTables): term statistics are stored, not held in
 * memory, so every replica ranks the same way and nothing is rebuilt at start-up. A score is
 *
 *   Σ over distinct query terms t in the passage  idf(t) · tf·(k1+1) / (tf + k1·(1 − b + b·len/avglen))
 *   idf(t) = ln(1 + (N − df(t) + 0.5) / (df(t) + 0.5))
 *
 * with N, df and avglen taken over the whole namespace (also when the search is restricted to some
 * files, so a passage's score does not depend on the filter).
 *
 * Writes within one namespace are serialised by a row lock on its retrieval_stats row, which keeps
 * N and the total length exact; writes to different namespaces do not wait for each other.
 */
export class PostgresBm25Retriever implements PassageRetriever {
  private readonly k1: number;
  private readonly b: number;

  constructor(
    private readonly dataSource: DataSource,
    parameters: Bm25Parameters = {},
  ) {
    this.k1 = parameters.k1 ?? DEFAULT_BM25.k1;
    this.b = parameters.b ?? DEFAULT_BM25.b;
    if (!Number.isFinite(this.k1) || this.k1 < 0) throw new RangeError('k1 must be a finite number >= 0');
    if (!Number.isFinite(this.b) || this.b < 0 || this.b > 1) throw new RangeError('b must be between 0 and 1');
  }

  /**
   * Replaces the file's passages. A node id already indexed under another file of the namespace
   * moves to this one; given twice, the last passage wins. Passages without any term (empty, only
   * stop words or punctuation) are not indexed. Pass a transaction's manager to join it.
   */
  async index(namespaceId: string, fileId: string, passages: Passage[], manager?: EntityManager): Promise<void> {
    await this.write(manager, (db) => this.store(db, namespaceId, fileId, passages, 'replace-file'));
  }

  /**
   * Adds passages to the file: those with the same node ids are replaced (also when they were indexed
   * under another file of the namespace), the file's others are kept. A passage whose new text has no
   * term is removed. Pass a transaction's manager to join it.
   */
  async add(namespaceId: string, fileId: string, passages: Passage[], manager?: EntityManager): Promise<void> {
    if (!passages.length) return;
    await this.write(manager, (db) => this.store(db, namespaceId, fileId, passages, 'these-nodes'));
  }

  /** Removes these passages of the file; ids it does not have are ignored. Pass a transaction's manager to join it. */
  async removePassages(namespaceId: string, fileId: string, nodeIds: string[], manager?: EntityManager): Promise<void> {
    if (!nodeIds.length) return;
    await this.write(manager, async (db) => {
      if (!(await lockNamespace(db, namespaceId))) return;
      const removed = await deleteDocs(db, namespaceId, fileId, nodeIds, 'nodes-of-file');
      if (removed.count) await updateStats(db, namespaceId, -removed.count, -removed.length);
    });
  }

  private async store(db: EntityManager, namespaceId: string, fileId: string, passages: Passage[], scope: 'replace-file' | 'these-nodes') {
    const given = [...new Map(passages.map((p) => [p.nodeId, p])).values()];
    const docs: Array<{ nodeId: string; length: number; tf: Map<string, number> }> = [];
    let analysed = 0;
    for (const p of given) {
      const d = { nodeId: p.nodeId, ...termFrequencies(p.text) };
      if (d.length > 0) docs.push(d);
      // Analysis is CPU work (about 1 µs a character): let the process answer requests between slices.
      if ((analysed += p.text.length) > 50_000) {
        analysed = 0;
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    await db.query(
      'INSERT INTO retrieval_stats (namespace_id, doc_count, total_length) VALUES ($1, 0, 0) ON CONFLICT (namespace_id) DO NOTHING',
      [namespaceId],
    );
    await lockNamespace(db, namespaceId);
    // Replacing the file: everything of the file goes, and the given nodes wherever they are. Adding:
    // only the given nodes (also those without terms now, whose old text must not stay findable).
    const removed =
      scope === 'replace-file'
        ? await deleteDocs(
            db,
            namespaceId,
            fileId,
            docs.map((d) => d.nodeId),
            'file-and-nodes',
          )
        : await deleteDocs(
            db,
            namespaceId,
            fileId,
            given.map((p) => p.nodeId),
            'nodes-anywhere',
          );

    for (let i = 0; i < docs.length; i += INSERT_CHUNK) {
      const slice = docs.slice(i, i + INSERT_CHUNK);
      await db.query(
        `INSERT INTO retrieval_docs (namespace_id, node_id, file_id, length)
         SELECT $1::uuid, u.node_id, $2::uuid, u.length FROM unnest($3::uuid[], $4::int[]) AS u(node_id, length)`,
        [namespaceId, fileId, slice.map((d) => d.nodeId), slice.map((d) => d.length)],
      );
    }
    const postings = docs.flatMap((d) => [...d.tf].map(([term, tf]) => ({ nodeId: d.nodeId, term, tf })));
    for (let i = 0; i < postings.length; i += INSERT_CHUNK) {
      const slice = postings.slice(i, i + INSERT_CHUNK);
      await db.query(
        `INSERT INTO retrieval_postings (namespace_id, term, node_id, file_id, tf)
         SELECT $1::uuid, u.term, u.node_id, $2::uuid, u.tf FROM unnest($3::text[], $4::uuid[], $5::int[]) AS u(term, node_id, tf)`,
        [namespaceId, fileId, slice.map((p) => p.term), slice.map((p) => p.nodeId), slice.map((p) => p.tf)],
      );
    }
    const added = { count: docs.length, length: docs.reduce((sum, d) => sum + d.length, 0) };
    await updateStats(db, namespaceId, added.count - removed.count, added.length - removed.length);
  }

  /** Removes every passage of the file. Pass a transaction's manager to join it. */
  async remove(namespaceId: string, fileId: string, manager?: EntityManager): Promise<void> {
    await this.write(manager, async (db) => {
      // No stats row: nothing was ever indexed in this namespace.
      if (!(await lockNamespace(db, namespaceId))) return;
      const removed = await deleteDocs(db, namespaceId, fileId, [], 'file-and-nodes');
      if (removed.count) await updateStats(db, namespaceId, -removed.count, -removed.length);
    });
  }

  async search(namespaceId: string, query: string, options: PassageSearchOptions): Promise<PassageHit[]> {
    const { limit, fileIds } = options;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw new RangeError(`limit must be an integer from 1 to ${MAX_LIMIT}`);
    // Each query term counts once, however often the query repeats it.
    const terms = [...new Set(analyze(query))];
    if (!terms.length || fileIds?.length === 0) return [];
    const params: unknown[] = [namespaceId, terms, this.k1, this.b, limit];
    let fileFilter = '';
    if (fileIds) {
      params.push(fileIds);
      fileFilter = 'AND p.file_id = ANY($6::uuid[])';
    }
    const rows = (await this.dataSource.query(
      `WITH stats AS (
         SELECT doc_count::float8 AS n, total_length::float8 / doc_count AS avglen
         FROM retrieval_stats WHERE namespace_id = $1 AND doc_count > 0
       ), idf AS (
         SELECT p.term, ln(1 + (s.n - count(*) + 0.5) / (count(*) + 0.5)) AS idf
         FROM retrieval_postings p CROSS JOIN stats s
         WHERE p.namespace_id = $1 AND p.term = ANY($2::text[])
         GROUP BY p.term, s.n
       )
       SELECT p.node_id AS "nodeId", p.file_id AS "fileId",
              sum(i.idf * p.tf * ($3::float8 + 1) / (p.tf + $3::float8 * (1 - $4::float8 + $4::float8 * d.length / s.avglen))) AS score
       FROM retrieval_postings p
       JOIN idf i ON i.term = p.term
       JOIN retrieval_docs d ON d.namespace_id = p.namespace_id AND d.node_id = p.node_id
       CROSS JOIN stats s
       WHERE p.namespace_id = $1 AND p.term = ANY($2::text[]) ${fileFilter}
       GROUP BY p.node_id, p.file_id
       ORDER BY score DESC, p.node_id
       LIMIT $5`,
      params,
    )) as { nodeId: string; fileId: string; score: number | string }[];
    return rows.map((r) => ({ nodeId: r.nodeId, fileId: r.fileId, score: Number(r.score) }));
  }

  private async write(manager: EntityManager | undefined, work: (db: EntityManager) => Promise<void>): Promise<void> {
    if (manager) await work(manager);
    else await this.dataSource.transaction(work);
  }
}

/** Locks the namespace's stats row until the transaction ends; false when it has none. */
async function lockNamespace(db: EntityManager, namespaceId: string): Promise<boolean> {
  const rows: unknown[] = await db.query('SELECT 1 FROM retrieval_stats WHERE namespace_id = $1 FOR UPDATE', [namespaceId]);
  return rows.length > 0;
}

/**
 * Deletes passages and returns their count and total length: the file's and these nodes wherever
 * they are (file-and-nodes), these nodes wherever they are (nodes-anywhere), or these nodes if they
 * are the file's (nodes-of-file).
 */
async function deleteDocs(
  db: EntityManager,
  namespaceId: string,
  fileId: string,
  nodeIds: string[],
  scope: 'file-and-nodes' | 'nodes-anywhere' | 'nodes-of-file',
): Promise<{ count: number; length: number }> {
  const [where, params] = {
    'file-and-nodes': ['(file_id = $2 OR node_id = ANY($3::uuid[]))', [namespaceId, fileId, nodeIds]],
    'nodes-anywhere': ['node_id = ANY($2::uuid[])', [namespaceId, nodeIds]],
    'nodes-of-file': ['(file_id = $2 AND node_id = ANY($3::uuid[]))', [namespaceId, fileId, nodeIds]],
  }[scope] as [string, unknown[]];
  const [row] = (await db.query(
    `WITH gone AS (
       DELETE FROM retrieval_docs
       WHERE namespace_id = $1 AND ${where}
       RETURNING node_id, file_id, length
     ), gone_postings AS (
       DELETE FROM retrieval_postings p USING gone g
       WHERE p.namespace_id = $1 AND p.file_id = g.file_id AND p.node_id = g.node_id
     )
     SELECT count(*)::int AS count, coalesce(sum(length), 0)::bigint::text AS length FROM gone`,
    params,
  )) as { count: number; length: string }[];
  return { count: row.count, length: Number(row.length) };
}

async function updateStats(db: EntityManager, namespaceId: string, countDelta: number, lengthDelta: number): Promise<void> {
  await db.query('UPDATE retrieval_stats SET doc_count = doc_count + $2, total_length = total_length + $3 WHERE namespace_id = $1', [
    namespaceId,
    countDelta,
    lengthDelta,
  ]);
}
