import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { NodeRecord, NodeType } from '@docintel/contracts';
import { FilesRepository } from '../files/files.repository';
import { IndexationStateRepository } from '../indexation/indexation-state.repository';
import { PassagesRepository } from '../passages/passages.repository';
import { ReadingOrderRepository, type NamespacedTree } from '../passages/reading-order.repository';
import { FileTablesRepository } from '../tables/file-tables.repository';
import { indexedFileDraft, startIndexingDatabase, type IndexingDatabase } from '../testing/indexing-database';
import { NodeStoreRepository } from './node-store.repository';

/**
 * The reads that need a whole tree in reading order, on a nodes table as a bulk load leaves it:
 * never analysed (autovacuum off, or not there yet), so that the planner knows nothing of its size.
 * A plan built on those figures used to walk a 400-page document for minutes.
 */

let db: IndexingDatabase;
let ds: DataSource;
let store: NodeStoreRepository;
let fileId: string;
let namespaceId: string;
let generation: number;
let written: NodeRecord[];

/** A long document: sections, each with a heading, paragraphs and a small table, about 20,000 nodes in all. */
function longDocument(): NodeRecord[] {
  const records: NodeRecord[] = [];
  const ordinals = new Map<string | null, number>();
  const add = (type: NodeType, text: string, parentId: string | null): string => {
    const id = randomUUID();
    const ordinal = ordinals.get(parentId) ?? 0;
    ordinals.set(parentId, ordinal + 1);
    records.push({ id, parentId, ordinal, type, text, ...(type === 'heading' ? { level: 1 } : {}) });
    return id;
  };
  const root = add('document', '', null);
  for (let s = 0; s < 400; s++) {
    const section = add('section', '', root);
    add('heading', `Section ${s}`, section);
    for (let p = 0; p < 30; p++) add('paragraph', `paragraph ${s}.${p}`, section);
    const table = add('table', '', section);
    for (let r = 0; r < 6; r++) {
      const row = add('row', '', table);
      for (let c = 0; c < 2; c++) add('cell', `cell ${s}.${r}.${c}`, row);
    }
  }
  return records; // added parent first, siblings in order: reading order
}

/** Every statement a call sends, with its parameters. */
async function statementsOf(call: () => Promise<unknown>): Promise<Array<{ sql: string; params: unknown[] }>> {
  const seen: Array<{ sql: string; params: unknown[] }> = [];
  const original = ds.query.bind(ds);
  const spy = jest.spyOn(ds, 'query').mockImplementation((sql: string, params?: unknown[]) => {
    seen.push({ sql, params: params ?? [] });
    return original(sql, params);
  });
  try {
    await call();
  } finally {
    spy.mockRestore();
  }
  return seen;
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}
const planNodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(planNodes)];

/** The plan PostgreSQL makes for a statement right now, flattened. */
async function plan(sql: string, params: unknown[]): Promise<PlanNode[]> {
  const [{ 'QUERY PLAN': out }] = (await ds.query(`EXPLAIN (FORMAT JSON) ${sql}`, params)) as Array<{
    'QUERY PLAN': Array<{ Plan: PlanNode }>;
  }>;
  return planNodes(out[0].Plan);
}

beforeAll(async () => {
  db = await startIndexingDatabase('treeorder', 4);
  ds = db.ds;
  store = new NodeStoreRepository(ds, new IndexationStateRepository(ds));
  namespaceId = randomUUID();
  const { file } = await new FilesRepository(ds).createOrGet(namespaceId, indexedFileDraft());
  fileId = file.id;
  written = longDocument();
  generation = await store.beginGeneration(fileId);
  // Written in an order unlike the tree's, as batches of a parse may land.
  const shuffled = [...written].sort((a, b) => a.id.localeCompare(b.id));
  for (let i = 0; i < shuffled.length; i += 1000) await store.insertBatch(fileId, generation, shuffled.slice(i, i + 1000));
  await store.commitGeneration(fileId, generation);
});
afterAll(async () => {
  await db?.close();
});

describe('whole-tree reads on a table the planner knows nothing about', () => {
  it('starts from a nodes table never analysed', async () => {
    const [{ analysed }] = (await ds.query(
      `SELECT last_analyze IS NOT NULL OR last_autoanalyze IS NOT NULL AS analysed FROM pg_stat_user_tables WHERE relname = 'nodes'`,
    )) as Array<{ analysed: boolean }>;
    expect(analysed).toBe(false);
    expect(written.length).toBeGreaterThan(19_000);
  });

  it('reads the outline in reading order, with depths, through the index', async () => {
    const outline = await new PassagesRepository(ds).outline(fileId, generation);
    expect(outline.map((n) => n.id)).toEqual(written.map((n) => n.id));
    const byId = new Map(written.map((n) => [n.id, n]));
    const depthOf = (id: string | null): number => (id === null ? -1 : 1 + depthOf(byId.get(id)!.parentId));
    expect(outline.map((n) => n.depth)).toEqual(written.map((n) => depthOf(n.parentId) + 1));
    expect(
      outline
        .filter((n) => n.type === 'heading')
        .slice(0, 2)
        .map((n) => n.text),
    ).toEqual(['Section 0', 'Section 1']);
  });

  it('reads the tree for a reindex and the table nodes in reading order', async () => {
    expect((await store.nodesInTreeOrder(fileId, generation)).map((n) => n.id)).toEqual(written.map((n) => n.id));
    const tableTypes = new Set(['heading', 'section', 'table', 'row', 'cell']);
    const tables = await new FileTablesRepository(ds).tableNodes(fileId, generation);
    expect(tables.map((n) => n.id)).toEqual(written.filter((n) => tableTypes.has(n.type)).map((n) => n.id));
    expect(tables.find((n) => n.type === 'cell')!.text).toBe('cell 0.0.0');
  });

  it('plans every statement of these reads without scanning the whole nodes table', async () => {
    const wholeTree = [
      ...(await statementsOf(() => new PassagesRepository(ds).outline(fileId, generation))),
      ...(await statementsOf(() => store.nodesInTreeOrder(fileId, generation))),
      ...(await statementsOf(() => new FileTablesRepository(ds).tableNodes(fileId, generation))),
    ];
    // Reading around a deep node (indexing.passages.around): its ancestors, a walk up bounded by
    // the tree's depth, then siblings on either side.
    const around = await statementsOf(async () => {
      const tree = { namespaceId, fileId, fileName: 'f', generation } as unknown as NamespacedTree;
      const reads = new ReadingOrderRepository(ds).reads(tree, ds.manager);
      const cell = written.filter((n) => n.type === 'cell')[1000];
      await reads.ancestry(cell.id);
      await reads.children(cell.parentId!, 'forward', null, 8);
    });
    expect(wholeTree.length).toBeGreaterThanOrEqual(3);
    expect(around.length).toBeGreaterThanOrEqual(2);
    for (const { sql, params } of [...wholeTree, ...around]) {
      const nodes = await plan(sql, params);
      expect(nodes.filter((n) => n['Relation Name'] === 'nodes').map((n) => n['Node Type'])).not.toContain('Seq Scan');
    }
    // A whole tree is one read of the file's rows, not a recursive walk whose join the planner guesses.
    for (const { sql, params } of wholeTree) expect((await plan(sql, params)).map((n) => n['Node Type'])).not.toContain('Recursive Union');
  });

  it('refreshes the statistics once a large tree is written', async () => {
    expect(await store.analyzeAfterBulkLoad(10)).toBe(false);
    expect(await store.analyzeAfterBulkLoad(written.length)).toBe(true);
    const [{ reltuples }] = (await ds.query(`SELECT reltuples FROM pg_class WHERE oid = 'nodes'::regclass`)) as Array<{
      reltuples: number;
    }>;
    expect(Number(reltuples)).toBeGreaterThan(10_000);
  });
});
