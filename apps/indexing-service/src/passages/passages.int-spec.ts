import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import type { TestingModule } from '@nestjs/testing';
import type { DataSource } from 'typeorm';
import { EmbeddingsEnv } from '@docintel/ai';
import type { PassageRetriever } from '@docintel/retrieval';
import {
  ErrorCode,
  FilesResolve,
  PassagesAround,
  PassagesSearch,
  type NodeRecord,
  type PassageDto,
  type PassagesAroundRequest,
  type Position,
  type RpcContext,
} from '@docintel/contracts';
import { RpcClient } from '@docintel/messaging';
import { FilesRepository } from '../files/files.repository';
import { IndexationStateRepository } from '../indexation/indexation-state.repository';
import { NodeStoreRepository } from '../nodes/node-store.repository';
import {
  commitAndAnnounce,
  newFile as newTestFile,
  startIndexingTestApp,
  treeWriter,
  until,
  WordGroupEmbedder,
  type IndexingTestApp,
} from '../testing/indexing-test-app';
import { MAX_PASSAGE_CHARS, textWindows, windowId } from './passage-builder';
import { PASSAGE_INDEXING_KEY, type PassageIndexingProgress } from './passage-indexing-progress';
import { PASSAGE_RETRIEVER } from './passage-retriever.provider';
import { PassagesModule } from './passages.module';
import { PassagesRepository } from './passages.repository';

/**
 * The passages feature on real PostgreSQL and NATS: trees are committed and announced as the
 * parser does (node.batch.created), passage_indexing and node_embedding run as durable consumers
 * (the embedder is a small deterministic one, the rules engine a handler that lets everything
 * through), and the two calls are made over NATS as the job orchestrator makes them.
 */

/** Words grouped by meaning: a text's vector counts each group's words, so synonyms are close and unrelated texts far. */
const CONCEPTS = [
  ['cat', 'cats', 'feline', 'kitten', 'kittens'],
  ['car', 'cars', 'automobile', 'vehicle', 'vehicles'],
  ['rent', 'payment', 'invoice', 'price', 'prices'],
  ['ocean', 'sea', 'marine', 'waves'],
  ['widget', 'gadget', 'device'],
];

let testApp: IndexingTestApp;
let app: TestingModule;
let rpc: RpcClient;
let ds: DataSource;
let files: FilesRepository;
let nodes: NodeStoreRepository;
let state: IndexationStateRepository;
let passages: PassagesRepository;

beforeAll(async () => {
  testApp = await startIndexingTestApp({
    name: 'passages',
    imports: [PassagesModule.forRoot(new EmbeddingsEnv())],
    env: { NODE_BATCH_SIZE: 4, PIPELINE_MAX_DELIVER: 3 },
    embedder: new WordGroupEmbedder('test:concepts', CONCEPTS),
  });
  ({ app, ds } = testApp);
  rpc = app.get(RpcClient);
  files = new FilesRepository(ds);
  state = app.get(IndexationStateRepository);
  nodes = app.get(NodeStoreRepository);
  passages = app.get(PassagesRepository);
}, 60_000);

afterAll(async () => {
  await testApp?.close();
});

const ctxOf = (namespaceId: string): RpcContext => ({ requestId: 'passages-test', namespaceId });

const newFile = (ns: string, name?: string): Promise<string> => newTestFile(ds, ns, name);

/** Writes and commits a tree as corpus_parsing does, announces it, and waits until passages and vectors are written. */
async function index(ns: string, fileId: string, records: NodeRecord[]): Promise<number> {
  const g = await announce(ns, fileId, records);
  await until(async () => {
    const file = await state.load(fileId);
    const p = file?.additionalInfo[PASSAGE_INDEXING_KEY] as PassageIndexingProgress | undefined;
    const e = file?.additionalInfo.node_embedding as { status?: string } | undefined;
    return p?.generation === g && p.status === 'SUCCESS' && e?.status === 'SUCCESS';
  }, `file ${fileId} indexed`);
  return g;
}

/**
 * Writes and commits a tree as corpus_parsing does and announces it; returns its generation. No
 * ontologies step runs here, so the file is SUCCESS at the commit rather than waiting for it.
 */
async function announce(ns: string, fileId: string, records: NodeRecord[]): Promise<number> {
  return (await commitAndAnnounce(app, ns, fileId, records, 'SUCCESS')).generation;
}

const bbox = (page: number, y: number): Position => ({ type: 'BBOX', page_number: page, bbox: { x0: 72, y0: y, x1: 520, y1: y + 12 } });

/** A PDF-like tree: pages holding headings and paragraphs, with boxes. */
function pdfTree(paragraphs: string[]) {
  const w = treeWriter();
  const root = w.add('document', '', null);
  const page = w.add('page', '', root);
  w.add('heading', 'Lease terms', page, { level: 1, positions: [bbox(1, 60)] });
  const ids = paragraphs.map((text, i) => w.add('paragraph', text, page, { positions: [bbox(1, 90 + 20 * i)] }));
  return { records: w.records, ids };
}

/** A spreadsheet-like tree: a section per sheet headed by its name, a table of rows of cells. */
function sheetTree(sheet: string, rows: string[][]) {
  const w = treeWriter();
  const root = w.add('document', '', null);
  const section = w.add('section', '', root);
  w.add('heading', sheet, section, { level: 1 });
  const table = w.add('table', '', section);
  const rowIds = rows.map((cells, r) => {
    const row = w.add('row', '', table);
    cells.forEach((text, col) => w.add('cell', text, row, { positions: [{ type: 'CELL', sheet_name: sheet, row: r, col }] }));
    return row;
  });
  return { records: w.records, rowIds };
}

const search = (ns: string, query: string, fileIds: string[], extra: { limit?: number; dense?: boolean } = {}) =>
  rpc.call(
    PassagesSearch,
    { query, fileIds, limit: extra.limit ?? 10, ...(extra.dense === undefined ? {} : { dense: extra.dense }) },
    ctxOf(ns),
  );

const passageRecord = async (fileId: string): Promise<PassageIndexingProgress | undefined> =>
  (await state.load(fileId))?.additionalInfo[PASSAGE_INDEXING_KEY] as PassageIndexingProgress | undefined;

describe('passage_indexing lanes', () => {
  it("indexes a small file's passages while a large file's batch is held up", async () => {
    const ns = randomUUID();
    const big = await newFile(ns, 'big.pdf');
    const small = await newFile(ns, 'small.pdf');
    // The large file's batches stop in the lexical index until released: a slow 400-page PDF.
    let release = (): void => undefined;
    const released = new Promise<void>((r) => (release = r));
    let heldBatches = 0;
    const retriever = app.get<PassageRetriever>(PASSAGE_RETRIEVER);
    const add = retriever.add.bind(retriever);
    const spy = jest.spyOn(retriever, 'add').mockImplementation(async (namespaceId, fileId, items, tx) => {
      if (fileId === big) {
        heldBatches++;
        await released;
      }
      return add(namespaceId, fileId, items, tx);
    });
    try {
      // 62 nodes in batches of 4: 16 batches, at least PIPELINE_LARGE_FILE_BATCHES (10).
      const bigGeneration = await announce(
        ns,
        big,
        pdfTree(Array.from({ length: 60 }, (_, i) => `Clause ${i} of the long contract.`)).records,
      );
      await until(async () => heldBatches > 0, 'a batch of the large file to be held');
      const smallGeneration = await announce(ns, small, pdfTree(['The short note about the invoice.']).records);

      await until(async () => (await passageRecord(small))?.status === 'SUCCESS', 'the small file indexed');
      expect(await passageRecord(small)).toMatchObject({ generation: smallGeneration, batchesDone: 1 });
      expect(await passageRecord(big)).toMatchObject({ generation: bigGeneration, status: 'RUNNING', batchesDone: 0 });

      release();
      await until(async () => (await passageRecord(big))?.status === 'SUCCESS', 'the large file indexed');
      expect(await passageRecord(big)).toMatchObject({ batches: 16, batchesDone: 16, indexedPassages: 61 });
    } finally {
      release();
      spy.mockRestore();
    }
  });
});

describe('indexing.passages.search', () => {
  const ns = randomUUID();
  const other = randomUUID();
  let lease: string;
  let sheet: string;
  let theirs: string;
  let leaseTree: ReturnType<typeof pdfTree>;
  let sheetRows: ReturnType<typeof sheetTree>;

  beforeAll(async () => {
    lease = await newFile(ns, 'lease.pdf');
    leaseTree = pdfTree([
      'The tenant pays the rent on the first day of each month.',
      'Termination requires a notice period of three months, sent by registered letter.',
      'The feline companion of the tenant is allowed in the apartment.',
      'Quarantined zyxomorphic substances are forbidden on the premises.',
      'The ocean view balcony is shared.',
    ]);
    await index(ns, lease, leaseTree.records);
    sheet = await newFile(ns, 'prices.xlsx');
    sheetRows = sheetTree('Prices', [
      ['Item', 'Price'],
      ['Widget', '4.50 EUR'],
      ['Gizmo', '', '12 EUR'],
    ]);
    await index(ns, sheet, sheetRows.records);
    theirs = await newFile(other, 'secret.pdf');
    await index(other, theirs, pdfTree(['The zyxomorphic formula of the competitor is secret.']).records);
  }, 60_000);

  it('finds a passage by a rare term, with its headings and BBOX positions', async () => {
    const { passages: found } = await search(ns, 'zyxomorphic substances', [lease, sheet]);
    const top = found[0];
    expect(top).toEqual({
      id: leaseTree.ids[3],
      fileId: lease,
      fileName: 'lease.pdf',
      nodeType: 'paragraph',
      text: 'Quarantined zyxomorphic substances are forbidden on the premises.',
      headings: ['Lease terms'],
      segments: [{ nodeId: leaseTree.ids[3], nodeType: 'paragraph', start: 0, end: 65, positions: [bbox(1, 150)] }],
      score: expect.any(Number) as number,
    });
  });

  it('finds a passage by meaning alone (dense), unless dense is off', async () => {
    const { passages: found } = await search(ns, 'kittens', [lease]);
    expect(found[0].id).toBe(leaseTree.ids[2]);
    const { passages: lexicalOnly } = await search(ns, 'kittens', [lease], { dense: false });
    expect(lexicalOnly).toEqual([]);
  });

  it('returns row passages with one segment per cell and CELL positions', async () => {
    const { passages: found } = await search(ns, 'widget price', [sheet]);
    const row = found.find((p) => p.id === sheetRows.rowIds[1]) as PassageDto;
    // The table's first row is the row's innermost heading.
    expect(row).toMatchObject({
      fileId: sheet,
      fileName: 'prices.xlsx',
      nodeType: 'row',
      text: 'Widget | 4.50 EUR',
      headings: ['Prices', 'Item | Price'],
    });
    expect(row.segments.map((s) => [row.text.slice(s.start, s.end), s.nodeType, s.positions])).toEqual([
      ['Widget', 'cell', [{ type: 'CELL', sheet_name: 'Prices', row: 1, col: 0 }]],
      ['4.50 EUR', 'cell', [{ type: 'CELL', sheet_name: 'Prices', row: 1, col: 1 }]],
    ]);
    // Empty cells leave no segment; cells are not passages of their own.
    const gizmo = (await search(ns, 'gizmo', [sheet])).passages[0];
    expect(gizmo.text).toBe('Gizmo | 12 EUR');
    expect(gizmo.segments[1].positions).toEqual([{ type: 'CELL', sheet_name: 'Prices', row: 2, col: 2 }]);
    expect(found.every((p) => p.nodeType !== 'cell')).toBe(true);
  });

  it('searches only the files named', async () => {
    // Dense hits are always some passages of the files named: only theirs.
    expect((await search(ns, 'widget', [lease], { limit: 50 })).passages.every((p) => p.fileId === lease)).toBe(true);
    expect((await search(ns, 'widget', [lease], { dense: false })).passages).toEqual([]);
    const { passages: both } = await search(ns, 'rent price', [lease, sheet], { limit: 50 });
    expect(new Set(both.map((p) => p.fileId))).toEqual(new Set([lease, sheet]));
    expect((await search(ns, 'rent', [lease], { limit: 1 })).passages).toHaveLength(1);
  });

  it('never returns another namespace’s passages, even when its file ids are named', async () => {
    const { passages: found } = await search(ns, 'zyxomorphic competitor secret formula', [lease, theirs]);
    expect(found.every((p) => p.fileId === lease)).toBe(true);
    expect((await search(ns, 'competitor', [theirs])).passages).toEqual([]);
    expect((await search(other, 'zyxomorphic', [theirs], { dense: false })).passages.map((p) => p.fileId)).toEqual([theirs]);
    const { passages: dense } = await search(ns, 'competitor', [theirs, lease], { limit: 50 });
    expect(dense.every((p) => p.fileId === lease)).toBe(true);
  });

  it('answers a question over ten files quickly', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) {
      const id = await newFile(ns, `contract-${i}.pdf`);
      await index(
        ns,
        id,
        pdfTree(Array.from({ length: 40 }, (_, j) => `Clause ${j} of contract ${i}: the vehicle rent is paid by invoice ${i * 100 + j}.`))
          .records,
      );
      ids.push(id);
    }
    await search(ns, 'warm up', ids);
    const times: number[] = [];
    for (let i = 0; i < 10; i++) {
      const t = performance.now();
      const { passages: found } = await search(ns, 'When is the rent for the automobile paid?', ids, { limit: 20 });
      times.push(performance.now() - t);
      expect(found).toHaveLength(20);
    }
    times.sort((a, b) => a - b);
    process.stdout.write(`passage search over 10 files (400 passages): median ${times[5].toFixed(1)} ms, max ${times[9].toFixed(1)} ms\n`);
    expect(times[5]).toBeLessThan(1000);
  }, 60_000);
});

describe('indexing.passages.around', () => {
  const ns = randomUUID();
  const other = randomUUID();
  let fileId: string;
  let doc: ReturnType<typeof readingTree>;

  /**
   * Two pages of a heading and paragraphs, then a section with a heading and a table, then a
   * closing paragraph with a text long enough to be read in windows. Records are added in an order
   * unlike reading order (the table's rows before the pages' paragraphs), so that nothing but the
   * tree's own order can put them in order.
   */
  function readingTree() {
    const w = treeWriter();
    const root = w.add('document', '', null);
    const page1 = w.add('page', '', root);
    const page2 = w.add('page', '', root);
    const prices = w.add('section', '', root);
    const closingText = Array.from({ length: 150 }, (_, i) => `Closing sentence number ${i} of the lease.`).join(' ');
    const closing = w.add('paragraph', closingText, root);
    const pricesHeading = w.add('heading', 'Prices', prices, { level: 1 });
    const table = w.add('table', '', prices);
    const rows = [
      ['Item', 'Price'],
      ['Widget', '4.50 EUR'],
      ['Gizmo', '12 EUR'],
    ].map((cells, r) => {
      const row = w.add('row', '', table);
      const cellIds = cells.map((text, col) =>
        w.add('cell', text, row, { positions: [{ type: 'CELL', sheet_name: 'Prices', row: r, col }] }),
      );
      return { row, cells: cellIds };
    });
    const heading = w.add('heading', 'Lease terms', page1, { level: 1, positions: [bbox(1, 60)] });
    const paragraphs = [
      ...[0, 1, 2].map((i) => w.add('paragraph', `Clause ${i} on page one.`, page1, { positions: [bbox(1, 90 + 20 * i)] })),
      ...[3, 4, 5].map((i) => w.add('paragraph', `Clause ${i} on page two.`, page2, { positions: [bbox(2, 90 + 20 * i)] })),
    ];
    const windows = textWindows(closingText).map((_, k) => (k === 0 ? closing : windowId(closing, k)));
    return { records: w.records, root, page2, prices, table, heading, paragraphs, pricesHeading, rows, closing, windows };
  }

  /** Reading order, as passage ids. */
  const order = () => [doc.heading, ...doc.paragraphs, doc.pricesHeading, ...doc.rows.map((r) => r.row), ...doc.windows];

  /** `before` and `after` left out take their defaults in the service (the payload class's). */
  const around = (nodeId: string, extra: { before?: number; after?: number } = {}, namespace = ns, file = fileId) =>
    rpc.call(PassagesAround, { fileId: file, nodeId, ...extra } as PassagesAroundRequest, ctxOf(namespace));

  beforeAll(async () => {
    fileId = await newFile(ns, 'lease.pdf');
    doc = readingTree();
    await index(ns, fileId, doc.records);
  }, 60_000);

  it('reads a node’s passage with `before` passages before it and `after` after it, in reading order', async () => {
    const reply = await around(doc.paragraphs[2], { before: 2, after: 2 });
    expect(reply.passages.map((p) => p.id)).toEqual(doc.paragraphs.slice(0, 5));
    expect(reply.index).toBe(2);
    // Passages as a search returns them, score 0.
    expect(reply.passages[reply.index]).toEqual({
      id: doc.paragraphs[2],
      fileId,
      fileName: 'lease.pdf',
      nodeType: 'paragraph',
      text: 'Clause 2 on page one.',
      headings: ['Lease terms'],
      segments: [{ nodeId: doc.paragraphs[2], nodeType: 'paragraph', start: 0, end: 21, positions: [bbox(1, 130)] }],
      score: 0,
    });

    const asymmetric = await around(doc.paragraphs[4], { before: 1, after: 4 });
    expect(asymmetric.passages.map((p) => p.id)).toEqual([
      doc.paragraphs[3],
      doc.paragraphs[4],
      doc.paragraphs[5],
      doc.pricesHeading,
      doc.rows[0].row,
      doc.rows[1].row,
    ]);
    expect(asymmetric.index).toBe(1);
    const alone = await around(doc.rows[1].row, { before: 0, after: 0 });
    expect(alone).toMatchObject({
      passages: [{ id: doc.rows[1].row, text: 'Widget | 4.50 EUR', headings: ['Prices', 'Item | Price'] }],
      index: 0,
    });
    // Defaults: two before, two after.
    const defaults = await around(doc.pricesHeading);
    expect(defaults.passages.map((p) => p.id)).toEqual([
      doc.paragraphs[4],
      doc.paragraphs[5],
      doc.pricesHeading,
      doc.rows[0].row,
      doc.rows[1].row,
    ]);
    expect(defaults.index).toBe(2);
  });

  it('follows the whole document in reading order, windows of a long text included', async () => {
    expect(doc.windows.length).toBeGreaterThan(1);
    expect(doc.records.find((r) => r.id === doc.closing)?.text.length).toBeGreaterThan(2 * MAX_PASSAGE_CHARS);
    const all = await around(doc.heading, { before: 20, after: 20 });
    expect(all.passages.map((p) => p.id)).toEqual(order());
    expect(all.index).toBe(0);
    // A window (as a search may return it) is read with the other windows of its text around it.
    const window = await around(doc.windows[1], { before: 1, after: 1 });
    expect(window.passages.map((p) => p.id)).toEqual(doc.windows.slice(0, 3));
    expect(window.index).toBe(1);
  });

  it('clips the window at the start and the end of the document', async () => {
    const start = await around(doc.heading, { before: 3, after: 1 });
    expect(start.passages.map((p) => p.id)).toEqual([doc.heading, doc.paragraphs[0]]);
    expect(start.index).toBe(0);
    const second = await around(doc.paragraphs[0], { before: 3, after: 0 });
    expect(second.passages.map((p) => p.id)).toEqual([doc.heading, doc.paragraphs[0]]);
    expect(second.index).toBe(1);
    const last = doc.windows[doc.windows.length - 1];
    const end = await around(last, { before: 1, after: 5 });
    expect(end.passages.map((p) => p.id)).toEqual([doc.windows[doc.windows.length - 2], last]);
    expect(end.index).toBe(1);
  });

  it('reads a node inside a passage through that passage, and a container through its first passage', async () => {
    const cell = await around(doc.rows[2].cells[1], { before: 1, after: 1 });
    expect(cell.passages.map((p) => p.id)).toEqual([doc.rows[1].row, doc.rows[2].row, doc.windows[0]]);
    expect(cell.index).toBe(1);
    expect(cell.passages[1].segments.map((s) => s.nodeId)).toEqual(doc.rows[2].cells);
    // A heading is a passage of its own (and the heading of the passages below it).
    const heading = await around(doc.pricesHeading, { before: 0, after: 1 });
    expect(heading.passages.map((p) => [p.id, p.text])).toEqual([
      [doc.pricesHeading, 'Prices'],
      [doc.rows[0].row, 'Item | Price'],
    ]);
    const section = await around(doc.prices, { before: 1, after: 1 });
    expect(section.passages.map((p) => p.id)).toEqual([doc.paragraphs[5], doc.pricesHeading, doc.rows[0].row]);
    expect(section.index).toBe(1);
    const table = await around(doc.table, { before: 1, after: 0 });
    expect(table.passages.map((p) => p.id)).toEqual([doc.pricesHeading, doc.rows[0].row]);
    expect(table.index).toBe(1);
    const page = await around(doc.page2, { before: 0, after: 0 });
    expect(page.passages.map((p) => p.id)).toEqual([doc.paragraphs[3]]);
  });

  it('reads around a node of a 10,000-node file without walking the file', async () => {
    // Written directly (not announced): passage_indexing of so many nodes is not what is measured.
    const big = await newFile(ns, 'big.pdf');
    const w = treeWriter();
    const root = w.add('document', '', null);
    const ids: string[][] = [];
    for (let p = 0; p < 100; p++) {
      const page = w.add('page', '', root);
      ids.push(Array.from({ length: 100 }, (_, i) => w.add('paragraph', `Paragraph ${i} of page ${p}.`, page)));
    }
    const g = await nodes.beginGeneration(big);
    for (let i = 0; i < w.records.length; i += 2000) await nodes.insertBatch(big, g, w.records.slice(i, i + 2000));
    await nodes.commitGeneration(big, g);
    const leaves = w.records.filter((r) => r.type === 'paragraph');
    await passages.upsert(
      ns,
      big,
      g,
      leaves.map((r) => ({ nodeId: r.id, nodeType: r.type, text: r.text, headings: [], segments: [] })),
    );

    // As autovacuum would after such a write: without statistics the planner takes 10,000 rows for one.
    await ds.query('ANALYZE nodes, passages');
    const wanted = [...ids[49].slice(-3), ...ids[50].slice(0, 4)];
    const times: number[] = [];
    for (let i = 0; i < 10; i++) {
      const t = performance.now();
      const reply = await around(ids[50][0], { before: 3, after: 3 }, ns, big);
      times.push(performance.now() - t);
      expect(reply.passages.map((p) => p.id)).toEqual(wanted);
      expect(reply.index).toBe(3);
    }
    times.sort((a, b) => a - b);
    process.stdout.write(`passages around a node of a 10,101-node file: median ${times[5].toFixed(1)} ms, max ${times[9].toFixed(1)} ms\n`);
    expect(times[5]).toBeLessThan(200);
  }, 60_000);

  it('does not find another namespace’s file, an unknown file, or a node that is not in the file', async () => {
    const theirs = await newFile(other, 'secret.pdf');
    const secret = pdfTree(['The secret formula of the competitor.']);
    await index(other, theirs, secret.records);
    const notFound = async (call: Promise<unknown>, named: string) => {
      const err = (await call.then(
        () => null,
        (e: unknown) => e,
      )) as { code?: string; message?: string } | null;
      expect(err).toMatchObject({ code: ErrorCode.NOT_FOUND });
      expect(err?.message).toContain(named);
      expect(JSON.stringify(err)).not.toContain('secret formula');
    };
    await notFound(around(secret.ids[0], {}, ns, theirs), theirs);
    await notFound(around(doc.paragraphs[0], {}, other, fileId), fileId);
    const unknownFile = randomUUID();
    await notFound(around(doc.paragraphs[0], {}, ns, unknownFile), unknownFile);
    const unknownNode = randomUUID();
    await notFound(around(unknownNode), unknownNode);
    await notFound(around('not-a-node-id'), 'not-a-node-id');
    // Their node named with our file is not in our file.
    await notFound(around(secret.ids[0]), secret.ids[0]);
    // Their owner still reads it.
    expect((await around(secret.ids[0], { before: 1 }, other, theirs)).passages.map((p) => p.text)).toEqual([
      'Lease terms',
      'The secret formula of the competitor.',
    ]);
  }, 30_000);
});

describe('removal of passages', () => {
  const lexicalCount = async (fileId: string) =>
    ((await ds.query(`SELECT count(*)::int AS n FROM retrieval_docs WHERE file_id = $1`, [fileId])) as Array<{ n: number }>)[0].n;
  const stats = async (ns: string) =>
    ((await ds.query(`SELECT doc_count::int AS n FROM retrieval_stats WHERE namespace_id = $1`, [ns])) as Array<{ n: number }>)[0]?.n ?? 0;

  it('removes a file’s passages when the file is deleted', async () => {
    const ns = randomUUID();
    const kept = await newFile(ns);
    await index(ns, kept, pdfTree(['Arbitration takes place in Geneva.']).records);
    const gone = await newFile(ns);
    await index(ns, gone, pdfTree(['Arbitration takes place in Paris.', 'Another clause.']).records);
    expect(await stats(ns)).toBe(5); // two headings, three paragraphs
    expect(await files.delete(ns, gone)).toBe(true);
    expect(await passages.countForFile(gone)).toBe(0);
    expect(await lexicalCount(gone)).toBe(0);
    expect(await stats(ns)).toBe(2);
    // Lexical only: the test embedder gives every text without a concept the same vector, and an
    // HNSW graph full of duplicates need not reach them all, so the dense leg's extras depend on the plan.
    const { passages: found } = await search(ns, 'arbitration', [kept, gone], { limit: 50, dense: false });
    expect(found.map((p) => p.fileId)).toEqual([kept]);
    expect(found[0].text).toBe('Arbitration takes place in Geneva.');
  }, 30_000);

  it('deletes a file while a batch of its passages waits for the namespace’s index lock (no deadlock)', async () => {
    const ns = randomUUID();
    const kept = await newFile(ns);
    await index(ns, kept, pdfTree(['Arbitration takes place in Geneva.']).records);
    const gone = await newFile(ns);
    // Another writer of the namespace (say, a batch of another file) holds the lexical index's lock.
    const holder = ds.createQueryRunner();
    await holder.connect();
    const waiting = async (n: number) =>
      (
        (await ds.query(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        )) as Array<{ n: number }>
      )[0].n >= n;
    try {
      await holder.startTransaction();
      await holder.query('SELECT 1 FROM retrieval_stats WHERE namespace_id = $1 FOR UPDATE', [ns]);
      await announce(ns, gone, pdfTree(['Arbitration takes place in Paris.']).records);
      await until(() => waiting(1), 'the batch to wait for the index lock');
      const deleting = files.delete(ns, gone);
      await until(() => waiting(2), 'the delete to wait too');
      await holder.commitTransaction();
      await expect(deleting).resolves.toBe(true);
    } finally {
      if (holder.isTransactionActive) await holder.rollbackTransaction();
      await holder.release();
    }
    await until(async () => !(await waiting(1)), 'no one waiting');
    expect(await passages.countForFile(gone)).toBe(0);
    expect(await lexicalCount(gone)).toBe(0);
    expect(await stats(ns)).toBe(2);
  }, 30_000);

  it('replaces a file’s passages when a reparse commits a new tree', async () => {
    const ns = randomUUID();
    const fileId = await newFile(ns);
    await index(ns, fileId, pdfTree(['The deposit is two months of rent.']).records);
    expect((await search(ns, 'deposit', [fileId], { dense: false })).passages).toHaveLength(1);
    const g2 = await index(ns, fileId, pdfTree(['The guarantee is one month of rent.', 'Pets are welcome.']).records);
    expect((await search(ns, 'deposit', [fileId], { dense: false })).passages).toEqual([]);
    expect((await search(ns, 'guarantee', [fileId])).passages[0].text).toBe('The guarantee is one month of rent.');
    expect(await passages.staleNodeIds(fileId, g2)).toEqual([]);
    expect(await passages.countForFile(fileId)).toBe(3);
    expect(await lexicalCount(fileId)).toBe(3);
    expect(await stats(ns)).toBe(3);
  }, 30_000);
});

describe('indexing.files.resolve', () => {
  const ns = randomUUID();
  const other = randomUUID();

  async function collection(namespace: string, fileIds: string[]): Promise<string> {
    const id = randomUUID();
    await ds.query(`INSERT INTO collections (id, namespace_id, name, owner_id, policy_id, created_time) VALUES ($1, $2, 'c', $3, $3, 0)`, [
      id,
      namespace,
      randomUUID(),
    ]);
    for (const [i, f] of fileIds.entries()) {
      await ds.query(`INSERT INTO collection_files (collection_id, file_id, added_time) VALUES ($1, $2, $3)`, [id, f, i]);
    }
    return id;
  }

  it('resolves files and collections in the order first named, without duplicates', async () => {
    const [a, b, c, d] = [await newFile(ns, 'a.pdf'), await newFile(ns, 'b.pdf'), await newFile(ns, 'c.pdf'), await newFile(ns, 'd.pdf')];
    await index(ns, a, pdfTree(['indexed']).records);
    await ds.query(`UPDATE files SET status = 'FAILED', error_message = 'broken' WHERE id = $1`, [d]);
    const c1 = await collection(ns, [c, a, d]);
    const empty = await collection(ns, []);
    const theirFile = await newFile(other, 'x.pdf');
    const theirCollection = await collection(other, [theirFile]);
    const unknown = randomUUID();

    const reply = await rpc.call(
      FilesResolve,
      { fileIds: [b, a, b, theirFile, unknown.toUpperCase()], collectionIds: [c1, empty, theirCollection] },
      ctxOf(ns),
    );
    expect(reply).toEqual({
      files: [
        { fileId: b, name: 'b.pdf', status: 'PENDING', indexed: false },
        { fileId: a, name: 'a.pdf', status: 'SUCCESS', indexed: true },
        { fileId: c, name: 'c.pdf', status: 'PENDING', indexed: false },
        { fileId: d, name: 'd.pdf', status: 'FAILED', indexed: false },
      ],
      missingFileIds: [theirFile, unknown.toUpperCase()],
      missingCollectionIds: [theirCollection],
    });
    expect(await rpc.call(FilesResolve, {}, ctxOf(ns))).toEqual({ files: [], missingFileIds: [], missingCollectionIds: [] });
    // The other namespace resolves its own ids, and not ours.
    expect(await rpc.call(FilesResolve, { fileIds: [theirFile, a], collectionIds: [theirCollection, c1] }, ctxOf(other))).toEqual({
      files: [{ fileId: theirFile, name: 'x.pdf', status: 'PENDING', indexed: false }],
      missingFileIds: [a],
      missingCollectionIds: [c1],
    });
  }, 30_000);
});
