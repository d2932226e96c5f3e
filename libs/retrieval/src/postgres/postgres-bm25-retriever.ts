import type { DataSource, EntityManager } from 'typeorm';
import { termFrequencies, analyze } from '../analysis/analyzer';
import type { Passage, PassageHit, PassageRetriever, PassageSearchOptions } from '../passage-retriever';
import { MAX_STORED_TF, impactOf } from './impact';

export interface Bm25Parameters {
  /** Term-frequency saturation: how quickly repeated occurrences stop adding to the score. */
  k1?: number;
  /** Length normalisation, 0 (none) to 1 (full). */
  b?: number;
}

/** One file's passages, for PostgresBm25Retriever.indexFiles. */
export interface FilePassages {
  fileId: string;
  passages: Passage[];
}

export const DEFAULT_BM25: Required<Bm25Parameters> = { k1: 0.9, b: 0.4 };

/**
 * What the services configure: tuned on the SciFact *train* qrels only (bench/retrieval/run.js
 * --tune), a grid over k1 and b; see docs/benchmarks.md. Passages there are abstracts, longer than
 * most document nodes, so these favour length normalisation a little more than Anserini's defaults.
 */
export const RECOMMENDED_BM25: Required<Bm25Parameters> = { k1: 1.2, b: 0.75 };

/** Options of PostgresBm25Retriever: the BM25 parameters and how much of each term's postings a search reads. */
export interface PostgresBm25Options extends Bm25Parameters {
  /**
   * The least number of postings read per query term, best impact first (at least 10 × the limit
   * is read); a term with no more postings than that is read entirely. Default 1000.
   */
  candidatesPerTerm?: number;
}

export const DEFAULT_CANDIDATES_PER_TERM = 1000;

const MAX_LIMIT = 1000;
/**
 * Postings per INSERT (its arrays a few MiB). One statement inserts them sorted in index order, so the
 * larger the chunk, the more of a term's new postings land on the same index page: a bulk write of
 * thousands of passages touches each term's pages once rather than once per chunk.
 */
const INSERT_CHUNK = 200_000;
/**
 * A search restricted to files counts their passages up to this many times the postings read per
 * term, to choose between scoring those passages directly and reading postings in impact order.
 */
const FILTER_COUNT_CAP_FACTOR = 20;
/**
 * Passages scored exactly after the postings are read: the best by the weights read (at least
 * RESCORED_MIN, and RESCORED_FACTOR × the limit). Measured on 100,000 passages, limit 100, against
 * exhaustive BM25: 3 × kept 92% of the top 10, 5 × 95%, 10 × 97%; each exact score costs a visit
 * to the passage's row, so time grows about linearly with the factor.
 */
const RESCORED_FACTOR = 5;
const RESCORED_MIN = 100;
/** work_mem of a search's transaction: the postings read and their grouping by passage (a few MB at most). */
const SEARCH_WORK_MEM = '32MB';

/** BM25's term-frequency part, in SQL ($3 = k1, $4 = b; s.avglen from QUERY_TERMS). */
const tfPart = (tf: string, length: string) =>
  `${tf}::float8 * ($3::float8 + 1) / (${tf}::float8 + $3::float8 * (1 - $4::float8 + $4::float8 * ${length} / s.avglen))`;

/** The namespace's N and average length (s), and the query's terms with their idf (q). $1 namespace, $2 terms. */
const QUERY_TERMS = `
  WITH s AS (
    SELECT doc_count::float8 AS n, total_length::float8 / doc_count AS avglen
    FROM retrieval_stats WHERE namespace_id = $1 AND doc_count > 0
  ), q AS MATERIALIZED (
    SELECT t.term_id, ln(1 + (s.n - t.df + 0.5) / (t.df + 0.5)) AS idf
    FROM retrieval_terms t CROSS JOIN s
    WHERE t.namespace_id = $1 AND t.term = ANY($2::text[]) AND t.df > 0
  )`;

/** The exact score of passage d from its own row (its terms' frequencies and its length). */
const EXACT_SCORE = `(
  SELECT sum(q.idf * ${tfPart('x.tf', 'd.length')})
  FROM q CROSS JOIN LATERAL (SELECT d.tfs[array_position(d.term_ids, q.term_id)] AS tf) x
  WHERE x.tf IS NOT NULL
)`;

/**
 * Okapi BM25 over PostgreSQL tables (CreateRetrievalTables, RetrievalImpactIndex): term statistics
 * are stored, not held in memory, so every replica ranks the same way and nothing is rebuilt at
 * start-up. A score is
 *
 *   Σ over distinct query terms t in the passage  idf(t) · tf·(k1+1) / (tf + k1·(1 − b + b·len/avglen))
 *   idf(t) = ln(1 + (N − df(t) + 0.5) / (df(t) + 0.5))
 *
 * with N, df and avglen taken over the whole namespace (also when the search is restricted to some
 * files, so a passage's score does not depend on the filter).
 *
 * A search reads, per query term, its postings with the highest impacts (at least
 * candidatesPerTerm, and 10 × the limit): a term with fewer postings is read entirely. Every
 * passage so found is scored exactly from its own row (its terms' frequencies and its length). A
 * passage that is in no term's best postings is not considered: for queries whose terms are all
 * rarer than that the ranking is exact BM25, otherwise it can differ from it below the top.
 *
 * Writes within one namespace are serialised by a row lock on its retrieval_stats row, which keeps
 * N, the total length and every df exact; writes to different namespaces do not wait for each other.
 */
export class PostgresBm25Retriever implements PassageRetriever {
  private readonly k1: number;
  private readonly b: number;
  private readonly candidatesPerTerm: number;

  constructor(
    private readonly dataSource: DataSource,
    options: PostgresBm25Options = {},
  ) {
    this.k1 = options.k1 ?? DEFAULT_BM25.k1;
    this.b = options.b ?? DEFAULT_BM25.b;
    this.candidatesPerTerm = options.candidatesPerTerm ?? DEFAULT_CANDIDATES_PER_TERM;
    if (!Number.isFinite(this.k1) || this.k1 < 0) throw new RangeError('k1 must be a finite number >= 0');
    if (!Number.isFinite(this.b) || this.b < 0 || this.b > 1) throw new RangeError('b must be between 0 and 1');
    if (!Number.isInteger(this.candidatesPerTerm) || this.candidatesPerTerm < 1)
      throw new RangeError('candidatesPerTerm must be an integer >= 1');
  }

  /**
   * Replaces the file's passages. A node id already indexed under another file of the namespace
   * moves to this one; given twice, the last passage wins. Passages without any term (empty, only
   * stop words or punctuation) are not indexed. Pass a transaction's manager to join it.
   */
  async index(namespaceId: string, fileId: string, passages: Passage[], manager?: EntityManager): Promise<void> {
    await this.write(manager, (db) => this.store(db, namespaceId, [{ fileId, passages }], 'replace-file'));
  }

  /**
   * Replaces the passages of each of these files, as index() would file by file, in one
   * transaction (or the given manager's) that locks the namespace once, looks its terms up once and
   * writes the passages and postings of many files per statement: the bulk path for loading many
   * files. A file given twice is indexed with its last passages; a file with no passages is removed.
   */
  async indexFiles(namespaceId: string, files: FilePassages[], manager?: EntityManager): Promise<void> {
    if (!files.length) return;
    const byFile = [...new Map(files.map((f) => [f.fileId, f])).values()];
    await this.write(manager, (db) => this.store(db, namespaceId, byFile, 'replace-file'));
  }

  /**
   * Adds passages to the file: those with the same node ids are replaced (also when they were indexed
   * under another file of the namespace), the file's others are kept. A passage whose new text has no
   * term is removed. Pass a transaction's manager to join it.
   */
  async add(namespaceId: string, fileId: string, passages: Passage[], manager?: EntityManager): Promise<void> {
    if (!passages.length) return;
    await this.write(manager, (db) => this.store(db, namespaceId, [{ fileId, passages }], 'these-nodes'));
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

  private async store(db: EntityManager, namespaceId: string, files: FilePassages[], scope: 'replace-file' | 'these-nodes') {
    // A node id given twice (within a file or across files) is indexed once, with the last passage.
    const given = new Map<string, { fileId: string; passage: Passage }>();
    for (const f of files) for (const p of f.passages) given.set(p.nodeId, { fileId: f.fileId, passage: p });
    const docs: Array<{ nodeId: string; fileId: string; length: number; tf: Map<string, number> }> = [];
    let analysed = 0;
    for (const { fileId, passage: p } of given.values()) {
      const d = { nodeId: p.nodeId, fileId, ...termFrequencies(p.text) };
      if (d.length > 0) docs.push(d);
      // Analysis is CPU work (about 1 µs a character): let the process answer requests between slices.
      if ((analysed += p.text.length) > 50_000) {
        analysed = 0;
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    // Creates the namespace's stats row or locks it, in one statement (an upsert that updates locks the row).
    const [before] = (await db.query(
      `INSERT INTO retrieval_stats AS s (namespace_id, doc_count, total_length) VALUES ($1, 0, 0)
       ON CONFLICT (namespace_id) DO UPDATE SET doc_count = s.doc_count
       RETURNING doc_count::text AS "docCount", total_length::text AS "totalLength"`,
      [namespaceId],
    )) as { docCount: string; totalLength: string }[];
    // Replacing a file: everything of the file goes, and the nodes it is given wherever they are.
    // Adding: only the given nodes (also those without terms now, whose old text must not stay findable).
    const nodesWithTerms = new Map<string, string[]>();
    for (const d of docs) {
      const nodes = nodesWithTerms.get(d.fileId);
      if (nodes) nodes.push(d.nodeId);
      else nodesWithTerms.set(d.fileId, [d.nodeId]);
    }
    const removed = { count: 0, length: 0 };
    for (const f of files) {
      const r =
        scope === 'replace-file'
          ? await deleteDocs(db, namespaceId, f.fileId, nodesWithTerms.get(f.fileId) ?? [], 'file-and-nodes')
          : await deleteDocs(
              db,
              namespaceId,
              f.fileId,
              f.passages.map((p) => p.nodeId),
              'nodes-anywhere',
            );
      removed.count += r.count;
      removed.length += r.length;
    }
    const added = { count: docs.length, length: docs.reduce((sum, d) => sum + d.length, 0) };
    if (docs.length) {
      const termIds = await this.termIds(db, namespaceId, docs);
      // Impacts with the average length this write leaves, so a first write is ordered like later ones.
      const avglen = (Number(before.totalLength) - removed.length + added.length) / (Number(before.docCount) - removed.count + added.count);
      // Each term's df rises once for the whole write, after its postings are in.
      const df = new Map<string, number>();
      for (let i = 0; i < docs.length;) {
        const slice: typeof docs = [];
        for (let postings = 0; i < docs.length && postings < INSERT_CHUNK; i++) {
          slice.push(docs[i]);
          postings += docs[i].tf.size;
        }
        const ids: string[] = [];
        const tfs: number[] = [];
        const impacts: number[] = [];
        const bounds: Array<[number, number]> = [];
        for (const d of slice) {
          const from = ids.length + 1;
          for (const [term, tf] of d.tf) {
            const id = termIds.get(term)!;
            ids.push(id);
            tfs.push(Math.min(tf, MAX_STORED_TF));
            impacts.push(impactOf(tf, d.length, avglen));
            df.set(id, (df.get(id) ?? 0) + 1);
          }
          bounds.push([from, ids.length]);
        }
        await db.query(
          `WITH d AS (
             INSERT INTO retrieval_docs (namespace_id, node_id, file_id, length, term_ids, tfs, impacts)
             SELECT $1::uuid, u.node_id, u.file_id, u.length, ($5::bigint[])[u.lo:u.hi], ($6::smallint[])[u.lo:u.hi], ($7::smallint[])[u.lo:u.hi]
             FROM unnest($3::uuid[], $4::int[], $8::int[], $9::int[], $2::uuid[]) AS u(node_id, length, lo, hi, file_id)
             RETURNING doc_id, length, term_ids, impacts, tfs
           ), postings AS (
             INSERT INTO retrieval_postings (term_id, doc_id, impact, tf, length)
             SELECT x.term_id, d.doc_id, x.impact, x.tf, d.length FROM d, unnest(d.term_ids, d.impacts, d.tfs) AS x(term_id, impact, tf)
             -- In index order: the postings of one term land on neighbouring index pages.
             ORDER BY x.term_id, x.impact DESC, d.doc_id
           )
           SELECT count(*) FROM d`,
          [
            namespaceId,
            slice.map((d) => d.fileId),
            slice.map((d) => d.nodeId),
            slice.map((d) => d.length),
            ids,
            tfs,
            impacts,
            bounds.map((r) => r[0]),
            bounds.map((r) => r[1]),
          ],
        );
      }
      await db.query(
        `UPDATE retrieval_terms t SET df = t.df + c.n
         FROM unnest($2::bigint[], $3::int[]) AS c(term_id, n)
         WHERE t.namespace_id = $1 AND t.term_id = c.term_id`,
        [namespaceId, [...df.keys()], [...df.values()]],
      );
    }
    await updateStats(db, namespaceId, added.count - removed.count, added.length - removed.length);
  }

  /**
   * The ids of the documents' terms, creating those the namespace does not have yet (with df 0:
   * the caller counts them). The caller holds the namespace lock, so no other write adds terms to
   * it meanwhile, and no identity value is spent on a conflict.
   */
  private async termIds(db: EntityManager, namespaceId: string, docs: Array<{ tf: Map<string, number> }>): Promise<Map<string, string>> {
    const terms = [...new Set(docs.flatMap((d) => [...d.tf.keys()]))];
    const rows = (await db.query(
      `WITH known AS (
         SELECT term, term_id FROM retrieval_terms WHERE namespace_id = $1 AND term = ANY($2::text[])
       ), created AS (
         INSERT INTO retrieval_terms (namespace_id, term, df)
         SELECT $1::uuid, t, 0 FROM unnest($2::text[]) AS t WHERE t NOT IN (SELECT term FROM known)
         RETURNING term, term_id
       )
       SELECT term, term_id::text AS id FROM known UNION ALL SELECT term, term_id::text FROM created`,
      [namespaceId, terms],
    )) as { term: string; id: string }[];
    return new Map(rows.map((r) => [r.term, r.id]));
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
    const perTerm = Math.max(this.candidatesPerTerm, 10 * limit);
    const params: unknown[] = [namespaceId, terms, this.k1, this.b, limit];
    let sql: string;
    if (fileIds && (await this.scoreFilesDirectly(namespaceId, terms, fileIds, perTerm))) {
      // Few passages in these files: each of them that has a query term is scored, no posting read.
      params.push(fileIds);
      sql = `${QUERY_TERMS}
        SELECT d.node_id AS "nodeId", d.file_id AS "fileId", ${EXACT_SCORE} AS score
        FROM retrieval_docs d CROSS JOIN s
        WHERE d.namespace_id = $1 AND d.file_id = ANY($6::uuid[]) AND d.term_ids && (SELECT array_agg(term_id) FROM q)
        ORDER BY score DESC, d.node_id
        LIMIT $5`;
    } else {
      params.push(perTerm, Math.max(RESCORED_FACTOR * limit, RESCORED_MIN));
      let read = 'SELECT p.doc_id, p.tf, p.length FROM retrieval_postings p WHERE p.term_id = q.term_id ORDER BY p.impact DESC LIMIT $6';
      if (fileIds) {
        // Many passages: the best postings of the files' passages, the filter applied while reading.
        params.push(fileIds);
        read = `SELECT p.doc_id, p.tf, p.length FROM retrieval_postings p JOIN retrieval_docs f ON f.doc_id = p.doc_id
                WHERE p.term_id = q.term_id AND f.file_id = ANY($8::uuid[]) ORDER BY p.impact DESC LIMIT $6`;
      }
      sql = `${QUERY_TERMS}, hits AS MATERIALIZED (
          SELECT q.term_id, c.doc_id, q.idf * ${tfPart('c.tf', 'c.length')} AS w
          FROM q CROSS JOIN s CROSS JOIN LATERAL (${read}) c
        ), cut AS MATERIALIZED (
          -- Terms of which only the best postings were read: a passage not among them may still have the term.
          SELECT term_id FROM hits GROUP BY term_id HAVING count(*) >= $6
        ), ranked AS MATERIALIZED (
          -- Ranked by the weights read: ranking by them plus a bound on what the cut terms could add
          -- was measured worse (the bound is loose for long queries and lifts passages seen once).
          SELECT h.doc_id, sum(h.w) AS seen,
                 EXISTS (SELECT 1 FROM cut c WHERE c.term_id <> ALL (array_agg(h.term_id))) AS partial
          FROM hits h GROUP BY h.doc_id
          ORDER BY seen DESC
          LIMIT $7
        )
        SELECT d.node_id AS "nodeId", d.file_id AS "fileId", CASE WHEN r.partial THEN ${EXACT_SCORE} ELSE r.seen END AS score
        FROM ranked r JOIN retrieval_docs d ON d.doc_id = r.doc_id AND d.namespace_id = $1 CROSS JOIN s
        ORDER BY score DESC, d.node_id
        LIMIT $5`;
    }
    const rows = await this.dataSource.transaction(async (db) => {
      // The planner sees one average posting count for every term and, below the limit, prefers a
      // bitmap scan that reads all of a term's postings and sorts them: for a frequent term of a
      // large namespace that is every posting. Without bitmap scans a term's postings are read in
      // index (impact) order and the read stops at the limit. The grouping of what was read stays
      // in memory instead of spilling to disk.
      await db.query(`SELECT set_config('enable_bitmapscan', 'off', true), set_config('work_mem', '${SEARCH_WORK_MEM}', true)`);
      return (await db.query(sql, params)) as { nodeId: string; fileId: string; score: number | string }[];
    });
    return rows.map((r) => ({ nodeId: r.nodeId, fileId: r.fileId, score: Number(r.score) }));
  }

  /**
   * Whether a search in these files should score their passages directly rather than read postings in
   * impact order: directly costs one passage row per passage of the files; in impact order, each
   * term reads about perTerm · N / (the files' passages) postings (fewer if the term has fewer), each
   * checked against the filter.
   */
  private async scoreFilesDirectly(namespaceId: string, terms: string[], fileIds: string[], perTerm: number): Promise<boolean> {
    const cap = FILTER_COUNT_CAP_FACTOR * perTerm;
    const [row] = (await this.dataSource.query(
      `SELECT (SELECT count(*)::int FROM (
                 SELECT 1 FROM retrieval_docs WHERE namespace_id = $1 AND file_id = ANY($3::uuid[]) LIMIT $4
               ) f) AS in_files,
              (SELECT doc_count::float8 FROM retrieval_stats WHERE namespace_id = $1) AS n,
              (SELECT array_agg(df) FROM retrieval_terms WHERE namespace_id = $1 AND term = ANY($2::text[])) AS dfs`,
      [namespaceId, terms, fileIds, cap],
    )) as { in_files: number; n: number | null; dfs: number[] | null }[];
    if (row.in_files >= cap) return false;
    if (!row.n || !row.dfs || row.in_files === 0) return true;
    const readPerTerm = (perTerm * row.n) / row.in_files;
    const inImpactOrder = row.dfs.reduce((sum, df) => sum + Math.min(df, readPerTerm), 0);
    return row.in_files <= inImpactOrder;
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
 * Deletes passages with their postings (retrieval_delete_docs) and returns their count and total
 * length: the file's and these nodes wherever they are (file-and-nodes), these nodes wherever they
 * are (nodes-anywhere), or these nodes if they are the file's (nodes-of-file).
 */
async function deleteDocs(
  db: EntityManager,
  namespaceId: string,
  fileId: string,
  nodeIds: string[],
  scope: 'file-and-nodes' | 'nodes-anywhere' | 'nodes-of-file',
): Promise<{ count: number; length: number }> {
  const [row] = (await db.query('SELECT removed, removed_length::text AS length FROM retrieval_delete_docs($1, $2, $3::uuid[], $4)', [
    namespaceId,
    fileId,
    nodeIds,
    scope,
  ])) as { removed: number; length: string }[];
  return { count: row.removed, length: Number(row.length) };
}

async function updateStats(db: EntityManager, namespaceId: string, countDelta: number, lengthDelta: number): Promise<void> {
  await db.query('UPDATE retrieval_stats SET doc_count = doc_count + $2, total_length = total_length + $3 WHERE namespace_id = $1', [
    namespaceId,
    countDelta,
    lengthDelta,
  ]);
}
