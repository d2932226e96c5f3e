import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { startTestInfrastructure, type TestInfrastructure } from '@docintel/testing';
import { createDataSource, initializeDataSource, type PersistenceOptions } from '@docintel/persistence';
import type { Passage } from '../passage-retriever';
import { retrievalMigrations } from './migrations';
import { termFrequencies } from '../analysis/analyzer';
import { PostgresBm25Retriever } from './postgres-bm25-retriever';
import { CreateRetrievalTables1732600000000 } from './retrieval.migration';
import { RetrievalFileRemoval1732600000001 } from './retrieval-file-removal.migration';

/** The BM25 term weight, written out independently of the SQL. */
function bm25(tf: number, length: number, df: number, n: number, avglen: number, k1 = 0.9, b = 0.4): number {
  const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
  return (idf * (tf * (k1 + 1))) / (tf + k1 * (1 - b + (b * length) / avglen));
}

const passage = (text: string, nodeId = randomUUID()): Passage => ({ nodeId, text });

describe('PostgresBm25Retriever', () => {
  let infra: TestInfrastructure;
  let ds: DataSource;
  let retriever: PostgresBm25Retriever;

  const ns = () => randomUUID();
  const stats = async (namespaceId: string) => {
    const rows = (await ds.query('SELECT doc_count::int AS n, total_length::int AS total FROM retrieval_stats WHERE namespace_id = $1', [
      namespaceId,
    ])) as { n: number; total: number }[];
    return rows[0] ?? null;
  };
  /** The postings of the namespace's passages, and postings of no passage at all (which must never exist). */
  const postings = async (namespaceId: string) => {
    const [row] = (await ds.query(
      `SELECT (SELECT count(*)::int FROM retrieval_postings p JOIN retrieval_docs d ON d.doc_id = p.doc_id WHERE d.namespace_id = $1) AS count,
              (SELECT count(*)::int FROM retrieval_postings p WHERE NOT EXISTS (SELECT 1 FROM retrieval_docs d WHERE d.doc_id = p.doc_id)) AS orphans`,
      [namespaceId],
    )) as { count: number; orphans: number }[];
    return row;
  };
  /** The namespace's term dictionary: term -> df. */
  const dictionary = async (namespaceId: string) =>
    Object.fromEntries(
      (
        (await ds.query('SELECT term, df FROM retrieval_terms WHERE namespace_id = $1', [namespaceId])) as { term: string; df: number }[]
      ).map((r) => [r.term, r.df]),
    );

  /** Each term's df as stored, beside the number of the namespace's passages that have it (they must agree). */
  const dfDrift = async (namespaceId: string) =>
    (await ds.query(
      `SELECT t.term, t.df, (SELECT count(*)::int FROM retrieval_docs d WHERE d.namespace_id = t.namespace_id AND t.term_id = ANY (d.term_ids)) AS actual
       FROM retrieval_terms t WHERE t.namespace_id = $1 AND t.df <> (
         SELECT count(*) FROM retrieval_docs d WHERE d.namespace_id = t.namespace_id AND t.term_id = ANY (d.term_ids))`,
      [namespaceId],
    )) as unknown[];

  beforeAll(async () => {
    infra = await startTestInfrastructure('retrieval');
    const opts: PersistenceOptions = {
      url: infra.databaseUrl,
      schema: 'indexing',
      entities: [],
      migrations: retrievalMigrations,
      poolSize: 4,
    };
    ds = await initializeDataSource(createDataSource(opts), opts);
    retriever = new PostgresBm25Retriever(ds);
  });
  afterAll(async () => {
    if (ds?.isInitialized) await ds.destroy();
    await infra?.teardown();
  });

  it('creates its tables in the service schema', async () => {
    const tables = (await ds.query(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'indexing' AND table_name LIKE 'retrieval%' ORDER BY 1`,
    )) as { table_name: string }[];
    expect(tables.map((t) => t.table_name)).toEqual(['retrieval_docs', 'retrieval_postings', 'retrieval_stats', 'retrieval_terms']);
  });

  describe('scores', () => {
    const a = ns();
    const file = randomUUID();
    // Analysed: [notic, period, notic] (3), [termin, notic] (2), [payment, schedul, rent] (3), [rent, due] (2).
    // N = 4, total length 10, average 2.5.
    const p1 = passage('Notice period: notice.');
    const p2 = passage('Termination notice');
    const p3 = passage('Payment schedule for rent');
    const p4 = passage('The rent is due');

    beforeAll(async () => {
      await retriever.index(a, file, [p1, p2, p3, p4]);
      // Another namespace full of the same words must not move A's statistics.
      await retriever.index(ns(), file, [passage('notice notice notice'), passage('notice'), passage('rent notice'), passage('other')]);
    });

    it('match a hand computation of BM25 (k1 = 0.9, b = 0.4)', async () => {
      const hits = await retriever.search(a, 'notice', { limit: 10 });
      expect(hits.map((h) => h.nodeId)).toEqual([p1.nodeId, p2.nodeId]);
      // df(notic) = 2 of N = 4: idf = ln(1 + 2.5/2.5) = ln 2.
      // p1: tf 2, length 3: ln2 · 2·1.9 / (2 + 0.9·(0.6 + 0.4·3/2.5)) = ln2 · 3.8/2.972
      // p2: tf 1, length 2: ln2 · 1.9 / (1 + 0.9·(0.6 + 0.4·2/2.5)) = ln2 · 1.9/1.828
      expect(hits[0].score).toBeCloseTo((Math.LN2 * 3.8) / 2.972, 10);
      expect(hits[1].score).toBeCloseTo((Math.LN2 * 1.9) / 1.828, 10);
      expect(hits[0].score).toBeCloseTo(0.886258, 5);
      expect(hits[1].score).toBeCloseTo(0.720448, 5);
      expect(hits[0]).toEqual({ nodeId: p1.nodeId, fileId: file, score: expect.any(Number) as number });
    });

    it('sum the weights of the distinct query terms', async () => {
      const hits = await retriever.search(a, 'rent notices, NOTICE, rents', { limit: 10 });
      const byNode = Object.fromEntries(hits.map((h) => [h.nodeId, h.score]));
      expect(Object.keys(byNode)).toHaveLength(4);
      expect(byNode[p1.nodeId]).toBeCloseTo(bm25(2, 3, 2, 4, 2.5), 10);
      expect(byNode[p2.nodeId]).toBeCloseTo(bm25(1, 2, 2, 4, 2.5), 10);
      expect(byNode[p3.nodeId]).toBeCloseTo(bm25(1, 3, 2, 4, 2.5), 10);
      expect(byNode[p4.nodeId]).toBeCloseTo(bm25(1, 2, 2, 4, 2.5), 10);
      const both = await retriever.search(a, 'termination notice', { limit: 10 });
      expect(both[0].nodeId).toBe(p2.nodeId);
      // df(termin) = 1: idf = ln(1 + 3.5/1.5).
      expect(both[0].score).toBeCloseTo(bm25(1, 2, 1, 4, 2.5) + bm25(1, 2, 2, 4, 2.5), 10);
      expect(bm25(1, 2, 1, 4, 2.5)).toBeCloseTo((Math.log(1 + 3.5 / 1.5) * 1.9) / 1.828, 12);
    });

    it('saturate term frequency and normalise length as configured', async () => {
      const plain = new PostgresBm25Retriever(ds, { k1: 1.2, b: 0 });
      const hits = await plain.search(a, 'notice', { limit: 10 });
      // b = 0: no length normalisation; tf 2 weighs 2·2.2/3.2 = 1.375, not twice tf 1's 1.
      expect(hits[0].score).toBeCloseTo(Math.LN2 * 1.375, 10);
      expect(hits[1].score).toBeCloseTo(Math.LN2 * 1, 10);
      expect(() => new PostgresBm25Retriever(ds, { b: 1.5 })).toThrow('b must be between 0 and 1');
      expect(() => new PostgresBm25Retriever(ds, { k1: -1 })).toThrow('k1 must be');
    });

    it('return nothing for a query without terms or an unknown term, and respect the limit', async () => {
      expect(await retriever.search(a, 'the of and', { limit: 10 })).toEqual([]);
      expect(await retriever.search(a, '', { limit: 10 })).toEqual([]);
      expect(await retriever.search(a, 'zebra', { limit: 10 })).toEqual([]);
      expect((await retriever.search(a, 'notice rent', { limit: 1 })).map((h) => h.nodeId)).toEqual([p1.nodeId]);
      await expect(retriever.search(a, 'notice', { limit: 0 })).rejects.toThrow('limit must be an integer from 1 to 1000');
    });
  });

  it('never returns another namespace’s passages, even for the same file id', async () => {
    const [mine, theirs] = [ns(), ns()];
    const file = randomUUID();
    const own = passage('lease agreement');
    await retriever.index(mine, file, [own]);
    await retriever.index(theirs, file, [passage('lease lease lease agreement'), passage('confidential secret')]);
    expect((await retriever.search(mine, 'lease', { limit: 10 })).map((h) => h.nodeId)).toEqual([own.nodeId]);
    expect(await retriever.search(mine, 'confidential', { limit: 10 })).toEqual([]);
    expect(await retriever.search(ns(), 'lease', { limit: 10 })).toEqual([]);
    expect(await retriever.search(mine, 'lease', { limit: 10, fileIds: [file] })).toHaveLength(1);
  });

  it('restricts a search to files, with statistics of the whole namespace', async () => {
    const namespace = ns();
    const [f1, f2] = [randomUUID(), randomUUID()];
    const inF1 = passage('invoice overdue');
    await retriever.index(namespace, f1, [inF1, passage('invoice paid')]);
    await retriever.index(namespace, f2, [passage('invoice invoice overdue'), passage('unrelated text')]);
    const hits = await retriever.search(namespace, 'overdue', { limit: 10, fileIds: [f1] });
    expect(hits.map((h) => [h.nodeId, h.fileId])).toEqual([[inF1.nodeId, f1]]);
    // N = 4, df(overdu) = 2, lengths 2, 2, 3, 2: average 2.25.
    expect(hits[0].score).toBeCloseTo(bm25(1, 2, 2, 4, 2.25), 10);
    expect(await retriever.search(namespace, 'overdue', { limit: 10, fileIds: [] })).toEqual([]);
  });

  it('remove() removes a file’s passages and nothing else', async () => {
    const [namespace, other] = [ns(), ns()];
    const [gone, kept] = [randomUUID(), randomUUID()];
    const survivor = passage('warranty claim');
    await retriever.index(namespace, gone, [passage('warranty void'), passage('warranty period')]);
    await retriever.index(namespace, kept, [survivor]);
    await retriever.index(other, gone, [passage('warranty')]);
    expect(await stats(namespace)).toEqual({ n: 3, total: 6 });

    await retriever.remove(namespace, gone);
    const hits = await retriever.search(namespace, 'warranty', { limit: 10 });
    expect(hits.map((h) => h.nodeId)).toEqual([survivor.nodeId]);
    // Only the survivor is left: N = 1, df = 1, length = average.
    expect(hits[0].score).toBeCloseTo(bm25(1, 2, 1, 1, 2), 10);
    expect(await stats(namespace)).toEqual({ n: 1, total: 2 });
    expect(await retriever.search(other, 'warranty', { limit: 10 })).toHaveLength(1);
    expect(await postings(namespace)).toEqual({ count: 2, orphans: 0 });

    // Document frequencies follow: warranti is left in one passage, terms of no passage are gone.
    expect(await dictionary(namespace)).toEqual({ warranti: 1, claim: 1 });
    expect(await dfDrift(namespace)).toEqual([]);

    await retriever.remove(namespace, gone); // idempotent
    await retriever.remove(ns(), gone); // a namespace that never indexed anything
    expect(await stats(namespace)).toEqual({ n: 1, total: 2 });
  });

  it('re-indexing a file replaces its passages', async () => {
    const namespace = ns();
    const [file, other] = [randomUUID(), randomUUID()];
    const kept = passage('deposit refund', randomUUID());
    await retriever.index(namespace, file, [passage('old clause about arbitration'), kept]);
    const moved = passage('arbitration venue');
    await retriever.index(namespace, other, [moved]);

    // The same node id again with new text, and a node that was indexed under another file.
    await retriever.index(namespace, file, [
      passage('deposit returned within thirty days', kept.nodeId),
      passage('arbitration in Paris', moved.nodeId),
    ]);
    expect(await retriever.search(namespace, 'refund', { limit: 10 })).toEqual([]);
    expect((await retriever.search(namespace, 'deposit', { limit: 10 })).map((h) => h.nodeId)).toEqual([kept.nodeId]);
    const arbitration = await retriever.search(namespace, 'arbitration', { limit: 10 });
    expect(arbitration.map((h) => [h.nodeId, h.fileId])).toEqual([[moved.nodeId, file]]);
    // deposit, return, within, thirti, dai (5) + arbitr, pari (2).
    expect(await stats(namespace)).toEqual({ n: 2, total: 7 });

    await retriever.index(namespace, file, []);
    expect(await retriever.search(namespace, 'deposit arbitration', { limit: 10 })).toEqual([]);
    expect(await stats(namespace)).toEqual({ n: 0, total: 0 });
  });

  it('indexFiles() indexes many files as index() does file by file', async () => {
    const [bulk, oneByOne] = [ns(), ns()];
    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
    const moved = randomUUID();
    const files = [
      { fileId: a, passages: [passage('lease term of five years', randomUUID()), passage('rent review clause', moved)] },
      { fileId: b, passages: [passage('rent deposit held in escrow', randomUUID()), passage('the of and', randomUUID())] },
      // The same node in a later file: it belongs to the later one, with that text.
      { fileId: c, passages: [passage('rent paid monthly in advance', moved)] },
    ];
    await retriever.indexFiles(bulk, files);
    for (const f of files) await retriever.index(oneByOne, f.fileId, f.passages);
    const hits = async (namespace: string, query: string) =>
      (await retriever.search(namespace, query, { limit: 10 })).map((h) => [h.nodeId, h.fileId, h.score.toFixed(9)]);
    for (const query of ['rent', 'lease escrow', 'advance review']) expect(await hits(bulk, query)).toEqual(await hits(oneByOne, query));
    expect(await hits(bulk, 'review')).toEqual([]);
    expect(await stats(bulk)).toEqual(await stats(oneByOne));
    expect(await stats(bulk)).toEqual({ n: 3, total: 12 });
    expect(await dictionary(bulk)).toEqual(await dictionary(oneByOne));
    expect(await dfDrift(bulk)).toEqual([]);

    // Again over existing files: each given file is replaced, an empty one removed, others kept.
    await retriever.indexFiles(bulk, [
      { fileId: a, passages: [passage('lease renewal option', randomUUID())] },
      { fileId: b, passages: [] },
    ]);
    expect((await retriever.search(bulk, 'rent lease', { limit: 10 })).map((h) => h.fileId).sort()).toEqual([a, c].sort());
    expect(await stats(bulk)).toEqual({ n: 2, total: 7 });
    expect(await postings(bulk)).toEqual({ count: 7, orphans: 0 });
    expect(await dfDrift(bulk)).toEqual([]);
    await retriever.indexFiles(bulk, []); // nothing to do
    expect(await stats(bulk)).toEqual({ n: 2, total: 7 });
  });

  it('indexFiles() writes in the caller’s transaction when given its manager', async () => {
    const namespace = ns();
    await expect(
      ds.transaction(async (manager) => {
        await retriever.indexFiles(namespace, [{ fileId: randomUUID(), passages: [passage('rolled back')] }], manager);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await stats(namespace)).toBeNull();
  });

  it('add() adds a batch to a file and keeps the file’s other passages', async () => {
    const namespace = ns();
    const [file, other] = [randomUUID(), randomUUID()];
    const first = passage('indemnity clause');
    const second = passage('liability cap');
    await retriever.add(namespace, file, [first]);
    await retriever.add(namespace, file, [second]);
    expect((await retriever.search(namespace, 'indemnity liability', { limit: 10 })).map((h) => h.nodeId).sort()).toEqual(
      [first.nodeId, second.nodeId].sort(),
    );
    // The same node again: replaced, not counted twice; a node of another file moves here.
    const moved = passage('liability insurance');
    await retriever.add(namespace, other, [moved]);
    await retriever.add(namespace, file, [passage('indemnity only', first.nodeId), passage('insurance', moved.nodeId)]);
    expect(await retriever.search(namespace, 'clause', { limit: 10 })).toEqual([]);
    expect((await retriever.search(namespace, 'insurance', { limit: 10 })).map((h) => [h.nodeId, h.fileId])).toEqual([
      [moved.nodeId, file],
    ]);
    // indemn, onli (2) + liabil, cap (2) + insur (1).
    expect(await stats(namespace)).toEqual({ n: 3, total: 5 });
    // A passage whose new text has no terms is removed.
    await retriever.add(namespace, file, [passage('the', second.nodeId)]);
    expect(await retriever.search(namespace, 'liability', { limit: 10 })).toEqual([]);
    expect(await stats(namespace)).toEqual({ n: 2, total: 3 });
    await retriever.add(namespace, file, []); // nothing to do
    expect(await stats(namespace)).toEqual({ n: 2, total: 3 });
  });

  it('removePassages() removes only the named passages of the file', async () => {
    const namespace = ns();
    const [file, other] = [randomUUID(), randomUUID()];
    const [a, b] = [passage('force majeure'), passage('force of law')];
    const elsewhere = passage('force field');
    await retriever.add(namespace, file, [a, b]);
    await retriever.add(namespace, other, [elsewhere]);
    // elsewhere is not the file's: it stays.
    await retriever.removePassages(namespace, file, [a.nodeId, elsewhere.nodeId, randomUUID()]);
    expect((await retriever.search(namespace, 'force', { limit: 10 })).map((h) => h.nodeId).sort()).toEqual(
      [b.nodeId, elsewhere.nodeId].sort(),
    );
    expect(await stats(namespace)).toEqual({ n: 2, total: 4 });
    await retriever.removePassages(ns(), file, [b.nodeId]); // another namespace: nothing
    await retriever.removePassages(namespace, file, []);
    expect(await stats(namespace)).toEqual({ n: 2, total: 4 });
  });

  it('retrieval_remove_file() in SQL removes a file’s passages like remove()', async () => {
    const namespace = ns();
    const [gone, kept] = [randomUUID(), randomUUID()];
    await retriever.index(namespace, gone, [passage('escrow account'), passage('escrow agent fee')]);
    await retriever.index(namespace, kept, [passage('escrow release')]);
    const [{ removed }] = (await ds.query('SELECT retrieval_remove_file($1, $2) AS removed', [namespace, gone])) as { removed: number }[];
    expect(removed).toBe(2);
    expect(await stats(namespace)).toEqual({ n: 1, total: 2 });
    expect(await retriever.search(namespace, 'account fee', { limit: 10 })).toEqual([]);
    expect(await postings(namespace)).toEqual({ count: 2, orphans: 0 });
    expect(await dictionary(namespace)).toEqual({ escrow: 1, releas: 1 });
    const again = (await ds.query('SELECT retrieval_remove_file($1, $2) AS removed', [namespace, gone])) as { removed: number }[];
    expect(again[0].removed).toBe(0);
    const none = (await ds.query('SELECT retrieval_remove_file($1, $2) AS removed', [ns(), gone])) as { removed: number }[];
    expect(none[0].removed).toBe(0);
  });

  it('keeps the statistics exact under concurrent writes to one namespace', async () => {
    const namespace = ns();
    await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        retriever.index(namespace, randomUUID(), [passage(`clause ${i} text`), passage('another clause')]),
      ),
    );
    const [{ n, total }] = (await ds.query(
      'SELECT count(*)::int AS n, coalesce(sum(length), 0)::int AS total FROM retrieval_docs WHERE namespace_id = $1',
      [namespace],
    )) as { n: number; total: number }[];
    expect(await stats(namespace)).toEqual({ n, total });
    expect(n).toBe(12);
    expect(await dfDrift(namespace)).toEqual([]);
    expect((await dictionary(namespace)).claus).toBe(12);
  });

  it('writes in the caller’s transaction when given its manager', async () => {
    const namespace = ns();
    await expect(
      ds.transaction(async (manager) => {
        await retriever.index(namespace, randomUUID(), [passage('rolled back')], manager);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await retriever.search(namespace, 'rolled', { limit: 10 })).toEqual([]);
    expect(await stats(namespace)).toBeNull();
  });
  describe('on terms with more postings than a search reads', () => {
    // candidatesPerTerm 1 reads 10 × the limit postings per term: with limit 1, the 10 best.
    const namespace = ns();
    const file = randomUUID();
    const [small, other] = [randomUUID(), randomUUID()];
    // "alpha" k times in a passage of length k + 1: the more often, the higher its weight.
    const ladder = Array.from({ length: 30 }, (_, i) => passage(`${'alpha '.repeat(i + 1)}gamma`));
    // A rare term in a long passage that mentions alpha once: far down alpha's postings.
    const rare = passage('alpha zeta delta epsilon theta iota kappa lambda omicron sigma');
    let exhaustive: PostgresBm25Retriever;
    let truncating: PostgresBm25Retriever;

    beforeAll(async () => {
      await retriever.index(namespace, file, [...ladder, rare]);
      // 12 more passages with alpha, in a file of their own.
      await retriever.index(
        namespace,
        small,
        Array.from({ length: 12 }, (_, i) => passage(`alpha ${'beta '.repeat(i + 1)}`)),
      );
      await retriever.index(namespace, other, [passage('alpha alpha beta beta beta')]);
      exhaustive = new PostgresBm25Retriever(ds, { candidatesPerTerm: 1000 });
      truncating = new PostgresBm25Retriever(ds, { candidatesPerTerm: 1 });
    });

    it('rank the best passages of a frequent term as an exhaustive search does', async () => {
      for (const limit of [1, 3]) {
        const expected = await exhaustive.search(namespace, 'alpha', { limit });
        expect(await truncating.search(namespace, 'alpha', { limit })).toEqual(expected);
      }
      expect((await truncating.search(namespace, 'alpha', { limit: 1 }))[0].nodeId).toBe(ladder[29].nodeId);
    });

    it('find a passage by a rare term and score it exactly, also for terms whose postings were cut', async () => {
      const [hit] = await truncating.search(namespace, 'alpha zeta', { limit: 1 });
      expect(hit.nodeId).toBe(rare.nodeId);
      // N = 44; df(alpha) = 44, df(zeta) = 1; the rare passage has length 10.
      const stored = (await stats(namespace))!;
      const avglen = stored.total / stored.n;
      expect(hit.score).toBeCloseTo(bm25(1, 10, 44, 44, avglen) + bm25(1, 10, 1, 44, avglen), 10);
      expect(hit).toEqual((await exhaustive.search(namespace, 'alpha zeta', { limit: 1 }))[0]);
    });

    it('apply a file filter while reading postings in impact order, and directly on a few passages', async () => {
      // 31 of the 44 passages are in file: reading in impact order costs less than scoring them all.
      const inFile = await truncating.search(namespace, 'alpha', { limit: 2, fileIds: [file] });
      expect(inFile).toEqual(await exhaustive.search(namespace, 'alpha', { limit: 2, fileIds: [file] }));
      expect(inFile.map((h) => h.nodeId)).toEqual([ladder[29].nodeId, ladder[28].nodeId]);
      // The small file's 12: scored directly, best is the shortest (alpha once in 2 terms).
      const inSmall = await truncating.search(namespace, 'alpha', { limit: 1, fileIds: [small, randomUUID()] });
      expect(inSmall).toEqual(await exhaustive.search(namespace, 'alpha', { limit: 1, fileIds: [small] }));
      expect(inSmall[0].fileId).toBe(small);
      expect(inSmall[0].score).toBeCloseTo(bm25(1, 2, 44, 44, (await stats(namespace))!.total / 44), 10);
    });

    it('keeps a term’s document frequency exact through replacement and removal', async () => {
      expect((await dictionary(namespace)).alpha).toBe(44);
      await retriever.add(namespace, file, [passage('gamma only', rare.nodeId)]);
      await retriever.removePassages(namespace, file, [ladder[0].nodeId]);
      await retriever.remove(namespace, other);
      const dictionaryNow = await dictionary(namespace);
      expect(dictionaryNow.alpha).toBe(41);
      expect(dictionaryNow.zeta).toBeUndefined();
      expect(await dfDrift(namespace)).toEqual([]);
      expect(await postings(namespace)).toMatchObject({ orphans: 0 });
      expect(await truncating.search(namespace, 'zeta', { limit: 5 })).toEqual([]);
    });
  });

  it('converts an index written by the earlier tables, keeping its passages and statistics', async () => {
    // A deployment's schema before RetrievalImpactIndex, with rows as the earlier retriever wrote them.
    const schema = 'retrieval_legacy';
    const legacyOptions = (migrations: PersistenceOptions['migrations']): PersistenceOptions => ({
      url: infra.databaseUrl,
      schema,
      entities: [],
      migrations,
      poolSize: 2,
    });
    const before = legacyOptions([CreateRetrievalTables1732600000000, RetrievalFileRemoval1732600000001]);
    const legacy = await initializeDataSource(createDataSource(before), before);
    const [namespace, neighbour] = [ns(), ns()];
    const [file, otherFile] = [randomUUID(), randomUUID()];
    const written = [
      { namespace, file, p: passage('Notice period: notice.') },
      { namespace, file, p: passage('Termination notice') },
      { namespace, file: otherFile, p: passage('Payment schedule for rent') },
      { namespace, file: otherFile, p: passage('The rent is due') },
      { namespace: neighbour, file, p: passage('notice notice rent') },
    ];
    for (const w of written) {
      const { length, tf } = termFrequencies(w.p.text);
      await legacy.query('INSERT INTO retrieval_docs (namespace_id, node_id, file_id, length) VALUES ($1, $2, $3, $4)', [
        w.namespace,
        w.p.nodeId,
        w.file,
        length,
      ]);
      for (const [term, n] of tf) {
        await legacy.query('INSERT INTO retrieval_postings (namespace_id, term, node_id, file_id, tf) VALUES ($1, $2, $3, $4, $5)', [
          w.namespace,
          term,
          w.p.nodeId,
          w.file,
          n,
        ]);
      }
    }
    await legacy.query(
      `INSERT INTO retrieval_stats (namespace_id, doc_count, total_length)
       SELECT namespace_id, count(*), sum(length) FROM retrieval_docs GROUP BY namespace_id`,
    );
    await legacy.destroy();

    const after = legacyOptions(retrievalMigrations);
    const upgraded = await initializeDataSource(createDataSource(after), after);
    try {
      const converted = new PostgresBm25Retriever(upgraded);
      const hits = await converted.search(namespace, 'notice', { limit: 10 });
      expect(hits.map((h) => h.nodeId)).toEqual([written[0].p.nodeId, written[1].p.nodeId]);
      expect(hits[0].score).toBeCloseTo(bm25(2, 3, 2, 4, 2.5), 10);
      expect(hits[1].score).toBeCloseTo(bm25(1, 2, 2, 4, 2.5), 10);
      expect((await converted.search(neighbour, 'notice', { limit: 10 })).map((h) => h.nodeId)).toEqual([written[4].p.nodeId]);
      const [{ df }] = (await upgraded.query('SELECT df FROM retrieval_terms WHERE namespace_id = $1 AND term = $2', [
        namespace,
        'notic',
      ])) as {
        df: number;
      }[];
      expect(df).toBe(2);
      // Removal works on converted rows, from the retriever and from SQL.
      await converted.remove(namespace, otherFile);
      const [{ removed }] = (await upgraded.query('SELECT retrieval_remove_file($1, $2) AS removed', [namespace, file])) as {
        removed: number;
      }[];
      expect(removed).toBe(2);
      expect(await converted.search(namespace, 'notice rent', { limit: 10 })).toEqual([]);
      const [left] = (await upgraded.query(
        `SELECT (SELECT count(*)::int FROM retrieval_terms WHERE namespace_id = $1) AS terms,
                (SELECT doc_count::int FROM retrieval_stats WHERE namespace_id = $1) AS n`,
        [namespace],
      )) as { terms: number; n: number }[];
      expect(left).toEqual({ terms: 0, n: 0 });
      // New passages go in beside the converted ones.
      await converted.add(neighbour, otherFile, [passage('notice of rent review')]);
      expect(await converted.search(neighbour, 'notice', { limit: 10 })).toHaveLength(2);
    } finally {
      await upgraded.destroy();
    }
  });
});
