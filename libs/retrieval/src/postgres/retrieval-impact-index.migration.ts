import type { MigrationInterface, QueryRunner } from 'typeorm';
import { IMPACT_BM25, IMPACT_SCALE } from './impact';
import { REMOVE_FILE_BY_ROW_POSTINGS } from './retrieval-file-removal.migration';

/**
 * The compact, impact-ordered lexical index (see PostgresBm25Retriever), converted from the tables
 * of CreateRetrievalTables in place, so a deployment keeps what it indexed:
 *
 * - retrieval_terms: per namespace, each term's integer id and its document frequency, maintained
 *   by every write in the same transaction (a search reads df here instead of counting postings).
 *   Half-full pages leave room for those updates to stay on their page (HOT), which keeps its
 *   indexes from growing with every write.
 * - retrieval_docs gains an integer doc_id and the passage's terms as parallel arrays (term ids,
 *   their frequencies, their impacts): a search scores a candidate exactly from its own row, and
 *   removing a passage finds its postings by key. The table itself stays (other migrations add
 *   constraints to it, e.g. indexing-service's foreign key to files).
 * - retrieval_postings becomes (term_id, impact, doc_id, tf, length): no uuid and no text per
 *   posting, read in impact order through its one index (which includes tf and length, so a search
 *   weighs what it reads without visiting the table), so a search reads the best postings of a
 *   frequent term first instead of all of them.
 *
 * The impact is BM25's term-frequency part with IMPACT_BM25's k1 and b and the namespace's average
 * length when written, quantised to IMPACT_SCALE; it only orders a term's postings.
 * retrieval_remove_file() is redefined over the new tables (same signature, same locking order).
 */
export class RetrievalImpactIndex1764100000000 implements MigrationInterface {
  name = 'RetrievalImpactIndex1764100000000';

  async up(q: QueryRunner): Promise<void> {
    const { k1, b } = IMPACT_BM25;
    await q.query(`
      CREATE TABLE retrieval_terms (
        namespace_id uuid NOT NULL,
        term text NOT NULL,
        term_id bigint GENERATED ALWAYS AS IDENTITY,
        df integer NOT NULL CHECK (df >= 0),
        PRIMARY KEY (namespace_id, term),
        UNIQUE (term_id)
      ) WITH (fillfactor = 50)`);
    await q.query(`
      INSERT INTO retrieval_terms (namespace_id, term, df)
      SELECT namespace_id, term, count(*) FROM retrieval_postings GROUP BY namespace_id, term`);
    await q.query(`
      ALTER TABLE retrieval_docs
        ADD COLUMN doc_id bigint GENERATED ALWAYS AS IDENTITY,
        ADD COLUMN term_ids bigint[],
        ADD COLUMN tfs smallint[],
        ADD COLUMN impacts smallint[]`);
    await q.query(`
      UPDATE retrieval_docs d
      SET term_ids = f.term_ids, tfs = f.tfs, impacts = f.impacts
      FROM (
        SELECT p.namespace_id, p.node_id,
               array_agg(t.term_id ORDER BY t.term_id) AS term_ids,
               array_agg(least(p.tf, 32767)::smallint ORDER BY t.term_id) AS tfs,
               array_agg(greatest(1, round(${IMPACT_SCALE} * p.tf / (p.tf + ${k1} * (1 - ${b} + ${b} * dd.length * s.doc_count::float8 / s.total_length))))::smallint
                         ORDER BY t.term_id) AS impacts
        FROM retrieval_postings p
        JOIN retrieval_terms t ON t.namespace_id = p.namespace_id AND t.term = p.term
        JOIN retrieval_docs dd ON dd.namespace_id = p.namespace_id AND dd.node_id = p.node_id
        JOIN retrieval_stats s ON s.namespace_id = p.namespace_id
        GROUP BY p.namespace_id, p.node_id
      ) f
      WHERE d.namespace_id = f.namespace_id AND d.node_id = f.node_id`);
    // A passage without postings cannot exist (its length counts its terms), but an inconsistent
    // row must not block the migration: it is dropped, and the statistics are recounted below.
    await q.query('DELETE FROM retrieval_docs WHERE term_ids IS NULL');
    await q.query(`
      UPDATE retrieval_stats s
      SET doc_count = (SELECT count(*) FROM retrieval_docs d WHERE d.namespace_id = s.namespace_id),
          total_length = (SELECT coalesce(sum(length), 0) FROM retrieval_docs d WHERE d.namespace_id = s.namespace_id)`);
    await q.query(`
      ALTER TABLE retrieval_docs
        ALTER COLUMN term_ids SET NOT NULL,
        ALTER COLUMN tfs SET NOT NULL,
        ALTER COLUMN impacts SET NOT NULL,
        ADD CONSTRAINT retrieval_docs_doc_id_key UNIQUE (doc_id)`);
    await q.query('DROP TABLE retrieval_postings');
    await q.query(`
      CREATE TABLE retrieval_postings (
        term_id bigint NOT NULL,
        doc_id bigint NOT NULL,
        impact smallint NOT NULL CHECK (impact > 0),
        tf smallint NOT NULL CHECK (tf > 0),
        length integer NOT NULL CHECK (length > 0)
      )`);
    await q.query(`
      INSERT INTO retrieval_postings (term_id, doc_id, impact, tf, length)
      SELECT t.term_id, d.doc_id, t.impact, t.tf, d.length
      FROM retrieval_docs d, unnest(d.term_ids, d.impacts, d.tfs) AS t(term_id, impact, tf)
      ORDER BY t.term_id, t.impact DESC, d.doc_id`);
    // Unique rather than a primary key: a primary key cannot be declared with a descending column.
    // tf and length are included so that a search weighs what it reads from the index alone.
    await q.query(
      'CREATE UNIQUE INDEX retrieval_postings_impact_idx ON retrieval_postings (term_id, impact DESC, doc_id) INCLUDE (tf, length)',
    );
    await q.query(DELETE_DOCS_FUNCTION);
    await q.query(`
      CREATE OR REPLACE FUNCTION retrieval_remove_file(p_namespace uuid, p_file uuid) RETURNS integer
      LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
      DECLARE
        gone record;
      BEGIN
        PERFORM 1 FROM retrieval_stats WHERE namespace_id = p_namespace FOR UPDATE;
        IF NOT FOUND THEN
          RETURN 0;
        END IF;
        SELECT * INTO gone FROM retrieval_delete_docs(p_namespace, p_file, '{}', 'file-and-nodes');
        IF gone.removed > 0 THEN
          UPDATE retrieval_stats SET doc_count = doc_count - gone.removed, total_length = total_length - gone.removed_length
          WHERE namespace_id = p_namespace;
        END IF;
        RETURN gone.removed;
      END
      $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE retrieval_postings_old (
        namespace_id uuid NOT NULL,
        term text NOT NULL,
        node_id uuid NOT NULL,
        file_id uuid NOT NULL,
        tf integer NOT NULL CHECK (tf > 0),
        PRIMARY KEY (namespace_id, term, node_id)
      )`);
    await q.query(`
      INSERT INTO retrieval_postings_old (namespace_id, term, node_id, file_id, tf)
      SELECT d.namespace_id, t.term, d.node_id, d.file_id, x.tf
      FROM retrieval_docs d, unnest(d.term_ids, d.tfs) AS x(term_id, tf)
      JOIN retrieval_terms t ON t.term_id = x.term_id`);
    await q.query('DROP TABLE retrieval_postings');
    await q.query('ALTER TABLE retrieval_postings_old RENAME TO retrieval_postings');
    await q.query('ALTER INDEX retrieval_postings_old_pkey RENAME TO retrieval_postings_pkey');
    await q.query('CREATE INDEX retrieval_postings_file_idx ON retrieval_postings (namespace_id, file_id)');
    await q.query(`
      CREATE OR REPLACE FUNCTION ${REMOVE_FILE_BY_ROW_POSTINGS}`);
    await q.query('DROP FUNCTION retrieval_delete_docs(uuid, uuid, uuid[], text)');
    await q.query(`
      ALTER TABLE retrieval_docs
        DROP COLUMN doc_id, DROP COLUMN term_ids, DROP COLUMN tfs, DROP COLUMN impacts`);
    await q.query('DROP TABLE retrieval_terms');
  }
}

/**
 * `retrieval_delete_docs(namespace, file, node_ids, scope)`: deletes passages with their postings,
 * lowers the document frequencies of their terms (dropping terms no passage has any more) and returns
 * how many passages went and their total length; the caller holds the namespace's stats row lock
 * and updates the stats. Scopes: the file's passages and these nodes wherever they are
 * ('file-and-nodes'), these nodes wherever they are ('nodes-anywhere'), these nodes if they are the
 * file's ('nodes-of-file'). One definition for PostgresBm25Retriever and retrieval_remove_file().
 *
 * Postings are deleted through their index, by the (term, impact, doc) keys the passage's row
 * lists; hash and merge joins are off so that no estimate can turn that into a scan of every posting.
 */
const DELETE_DOCS_FUNCTION = `
  CREATE FUNCTION retrieval_delete_docs(p_namespace uuid, p_file uuid, p_nodes uuid[], p_scope text,
                                        OUT removed integer, OUT removed_length bigint)
  LANGUAGE plpgsql SET search_path FROM CURRENT SET enable_hashjoin = off SET enable_mergejoin = off AS $$
  DECLARE
    ids bigint[];
    emptied bigint[];
  BEGIN
    IF p_scope = 'file-and-nodes' THEN
      SELECT array_agg(doc_id) INTO ids FROM retrieval_docs
      WHERE namespace_id = p_namespace AND (file_id = p_file OR node_id = ANY(p_nodes));
    ELSIF p_scope = 'nodes-anywhere' THEN
      SELECT array_agg(doc_id) INTO ids FROM retrieval_docs WHERE namespace_id = p_namespace AND node_id = ANY(p_nodes);
    ELSIF p_scope = 'nodes-of-file' THEN
      SELECT array_agg(doc_id) INTO ids FROM retrieval_docs
      WHERE namespace_id = p_namespace AND file_id = p_file AND node_id = ANY(p_nodes);
    ELSE
      RAISE EXCEPTION 'unknown scope %', p_scope;
    END IF;
    removed := 0;
    removed_length := 0;
    IF ids IS NULL THEN
      RETURN;
    END IF;
    WITH gone AS (
      DELETE FROM retrieval_docs WHERE namespace_id = p_namespace AND doc_id = ANY(ids)
      RETURNING doc_id, length, term_ids, impacts
    ), gone_postings AS (
      SELECT x.term_id, x.impact, g.doc_id FROM gone g, unnest(g.term_ids, g.impacts) AS x(term_id, impact)
    ), deleted AS (
      DELETE FROM retrieval_postings p USING gone_postings g
      WHERE p.term_id = g.term_id AND p.impact = g.impact AND p.doc_id = g.doc_id
    ), lowered AS (
      UPDATE retrieval_terms t SET df = t.df - c.n
      FROM (SELECT term_id, count(*)::int AS n FROM gone_postings GROUP BY term_id) c
      WHERE t.term_id = c.term_id AND t.namespace_id = p_namespace
      RETURNING t.term_id, t.df
    )
    SELECT (SELECT count(*) FROM gone), (SELECT coalesce(sum(length), 0) FROM gone),
           (SELECT array_agg(term_id) FROM lowered WHERE df = 0)
    INTO removed, removed_length, emptied;
    IF emptied IS NOT NULL THEN
      DELETE FROM retrieval_terms WHERE term_id = ANY(emptied) AND df = 0;
    END IF;
  END
  $$`;
