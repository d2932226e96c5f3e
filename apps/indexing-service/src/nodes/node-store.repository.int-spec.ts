import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { connect, type NatsConnection } from 'nats';
import type { DataSource } from 'typeorm';
import { ErrorCode, type NodeRecord, type NodeType, type RpcContext, type StoredNode } from '@docintel/contracts';
import { domainRejection, type TestInfrastructure } from '@docintel/testing';
import { FilesRepository } from '../files/files.repository';
import { IndexationStateRepository } from '../indexation/indexation-state.repository';
import { treeWriter } from '../testing/indexing-test-app';
import { indexedFileDraft, startIndexingDatabase, type IndexingDatabase } from '../testing/indexing-database';
import { DocumentService } from './document.service';
import { NodeStoreRepository } from './node-store.repository';

let db: IndexingDatabase;
let infra: TestInfrastructure;
let ds: DataSource;
let nc: NatsConnection;
let files: FilesRepository;
let store: NodeStoreRepository;

beforeAll(async () => {
  db = await startIndexingDatabase('idxnodes', 20);
  ({ infra, ds } = db);
  nc = await connect({ servers: infra.natsUrl });
  files = new FilesRepository(ds);
  store = new NodeStoreRepository(ds, new IndexationStateRepository(ds));
});
afterAll(async () => {
  await nc?.close();
  await db?.close();
});

async function newFile(ns: string): Promise<string> {
  const { file } = await files.createOrGet(ns, indexedFileDraft());
  return file.id;
}

/** A document of `n` paragraphs whose texts start with `label`. */
function paragraphs(label: string, n: number): NodeRecord[] {
  const w = treeWriter();
  const root = w.add('document', '', null);
  for (let i = 0; i < n; i++) w.add('paragraph', `${label}-${i}`, root);
  return w.records;
}

const texts = (root: StoredNode | null): string[] => (root ? root.children.map((c) => c.text) : []);

async function writeTree(fileId: string, records: NodeRecord[], batchSize = 1000): Promise<number> {
  const g = await store.beginGeneration(fileId);
  for (let i = 0; i < records.length; i += batchSize) await store.insertBatch(fileId, g, records.slice(i, i + batchSize));
  return g;
}

describe('NodeStoreRepository', () => {
  it('keeps a tree written in batches invisible until it is committed, then shows it whole', async () => {
    const ns = randomUUID();
    const fileId = await newFile(ns);
    const w = treeWriter();
    const root = w.add('document', '', null);
    const section = w.add('section', '', root);
    w.add('heading', 'Methods', section, {
      level: 2,
      positions: [{ type: 'BBOX', page_number: 1, bbox: { x0: 72, y0: 90, x1: 300, y1: 104 } }],
    });
    w.add('paragraph', 'We enrolled 120 patients.', section, { attributes: { confidence: 97 } });
    w.add('paragraph', 'Closing words.', root, {
      positions: [{ type: 'LINE', line_number: 3, column_index_start: 0, column_index_stop: 14 }],
    });
    // Children before their parents: batches may come in any order.
    const g = await store.beginGeneration(fileId);
    await store.insertBatch(fileId, g, w.records.slice(2));
    expect(await store.readTree(ns, fileId)).toEqual({ indexed: false, status: 'PENDING', generation: null, root: null });
    await store.insertBatch(fileId, g, w.records.slice(0, 2));
    await store.commitGeneration(fileId, g, { checksum: 'ab'.repeat(32), title: 'A trial' });

    const read = await store.readTree(ns, fileId);
    expect(read).toMatchObject({ indexed: true, status: 'SUCCESS', generation: g });
    expect(read?.root).toEqual({
      id: root,
      type: 'document',
      text: '',
      positions: [],
      children: [
        {
          id: section,
          type: 'section',
          text: '',
          positions: [],
          children: [
            {
              id: w.records[2].id,
              type: 'heading',
              text: 'Methods',
              level: 2,
              positions: [{ type: 'BBOX', page_number: 1, bbox: { x0: 72, y0: 90, x1: 300, y1: 104 } }],
              children: [],
            },
            {
              id: w.records[3].id,
              type: 'paragraph',
              text: 'We enrolled 120 patients.',
              positions: [],
              attributes: { confidence: 97 },
              children: [],
            },
          ],
        },
        {
          id: w.records[4].id,
          type: 'paragraph',
          text: 'Closing words.',
          positions: [{ type: 'LINE', line_number: 3, column_index_start: 0, column_index_stop: 14 }],
          children: [],
        },
      ],
    });
    expect(await files.findById(ns, fileId)).toMatchObject({
      checksum: 'ab'.repeat(32),
      title: 'A trial',
      indexed: true,
      reparseRequested: false,
    });
  });

  it('shows a reader during a reindex the old tree or the new one, never a mix', async () => {
    const ns = randomUUID();
    const fileId = await newFile(ns);
    const oldTree = paragraphs('old', 300);
    const newTree = paragraphs('new', 300);
    await store.commitGeneration(fileId, await writeTree(fileId, oldTree));
    const oldTexts = texts((await store.readTree(ns, fileId))!.root);
    const newTexts = newTree.slice(1).map((r) => r.text);
    expect(oldTexts).toEqual(oldTree.slice(1).map((r) => r.text));

    let writing = true;
    const seen = { old: 0, new: 0 };
    const reader = async () => {
      while (writing) {
        const got = texts((await store.readTree(ns, fileId))!.root);
        if (JSON.stringify(got) === JSON.stringify(oldTexts)) seen.old++;
        else if (JSON.stringify(got) === JSON.stringify(newTexts)) seen.new++;
        else throw new Error(`a reader saw a mixed tree of ${got.length} nodes: ${got.slice(0, 3).join(', ')} ...`);
      }
    };
    const writer = async () => {
      try {
        // Small batches, so that readers run between them.
        const g = await writeTree(fileId, newTree, 20);
        await store.commitGeneration(fileId, g);
        // A few more reads after the switch.
        await new Promise((r) => setImmediate(r));
      } finally {
        writing = false;
      }
    };
    await Promise.all([writer(), reader(), reader(), reader()]);
    expect(seen.old + seen.new).toBeGreaterThanOrEqual(3);
    expect(texts((await store.readTree(ns, fileId))!.root)).toEqual(newTexts);
    const generations = await ds.query(`SELECT DISTINCT generation FROM nodes WHERE file_id = $1`, [fileId]);
    expect(generations).toHaveLength(1);
  });

  it('refuses writes to a committed generation and the commit of a superseded one', async () => {
    const ns = randomUUID();
    const fileId = await newFile(ns);
    const g1 = await store.beginGeneration(fileId);
    const g2 = await store.beginGeneration(fileId);
    expect(g2).toBe(g1 + 1);
    await store.insertBatch(fileId, g1, paragraphs('one', 2));
    await store.insertBatch(fileId, g2, paragraphs('two', 2));
    await store.commitGeneration(fileId, g2);

    expect((await domainRejection(store.insertBatch(fileId, g2, paragraphs('late', 1)))).code).toBe(ErrorCode.CONFLICT);
    expect((await domainRejection(store.commitGeneration(fileId, g1))).code).toBe(ErrorCode.CONFLICT);
    expect((await domainRejection(store.commitGeneration(fileId, g2 + 5))).code).toBe(ErrorCode.CONFLICT);
    expect((await domainRejection(store.insertBatch(fileId, g2 + 5, paragraphs('never', 1)))).code).toBe(ErrorCode.CONFLICT);
    expect((await domainRejection(store.beginGeneration(randomUUID()))).code).toBe(ErrorCode.NOT_FOUND);
    expect(texts((await store.readTree(ns, fileId))!.root)).toEqual(['two-0', 'two-1']);
    const [{ n }] = await ds.query(`SELECT count(*)::int AS n FROM nodes WHERE file_id = $1`, [fileId]);
    expect(n).toBe(3);
  });

  it('discards an abandoned generation but never the current tree', async () => {
    const ns = randomUUID();
    const fileId = await newFile(ns);
    const g1 = await writeTree(fileId, paragraphs('kept', 1));
    await store.commitGeneration(fileId, g1);
    const g2 = await writeTree(fileId, paragraphs('failed', 5));
    await store.discardGeneration(fileId, g2);
    await store.discardGeneration(fileId, g1);
    const rows = await ds.query(`SELECT generation FROM nodes WHERE file_id = $1`, [fileId]);
    expect(rows).toHaveLength(2);
    expect(texts((await store.readTree(ns, fileId))!.root)).toEqual(['kept-0']);
  });

  it('rejects nodes with unknown types or ids that are not UUIDs', async () => {
    const fileId = await newFile(randomUUID());
    const g = await store.beginGeneration(fileId);
    const bad = (n: Partial<NodeRecord>) =>
      store.insertBatch(fileId, g, [{ id: randomUUID(), parentId: null, ordinal: 0, type: 'paragraph', text: '', ...n }]);
    expect((await domainRejection(bad({ type: 'video' as NodeType }))).code).toBe(ErrorCode.VALIDATION_FAILED);
    expect((await domainRejection(bad({ id: 'n1' }))).code).toBe(ErrorCode.VALIDATION_FAILED);
  });

  it('reads nothing for another namespace', async () => {
    const ns = randomUUID();
    const fileId = await newFile(ns);
    await store.commitGeneration(fileId, await writeTree(fileId, paragraphs('x', 1)));
    expect(await store.readTree(randomUUID(), fileId)).toBeNull();
    expect(await store.readTree(ns, 'not-a-uuid')).toBeNull();
  });
});

describe('DocumentService on stored trees', () => {
  let documents: DocumentService;
  const ctx = (ns: string): RpcContext => ({ requestId: randomUUID(), namespaceId: ns, userId: randomUUID() });

  beforeAll(() => {
    documents = new DocumentService(store, nc);
  });

  /** A small report: title, section with a paragraph, a table with a header row, a list. */
  async function storeReport(ns: string): Promise<string> {
    const fileId = await newFile(ns);
    const w = treeWriter();
    const root = w.add('document', '', null);
    w.add('heading', 'Trial report', root, { level: 1 });
    const section = w.add('section', '', root);
    w.add('heading', 'Outcomes', section, { level: 2 });
    w.add('paragraph', 'Both arms improved.', section);
    const table = w.add('table', '', section);
    for (const cells of [
      ['Arm', 'Patients'],
      ['A', '60'],
      ['B', '58'],
    ]) {
      const row = w.add('row', '', table);
      cells.forEach((text, col) => w.add('cell', text, row, { positions: [{ type: 'CELL', sheet_name: 'Sheet1', row: 0, col }] }));
    }
    const list = w.add('list', '', root, { attributes: { ordered: true } });
    w.add('list_item', 'Recruit', list);
    w.add('list_item', 'Follow up', list);
    await store.commitGeneration(fileId, await writeTree(fileId, w.records, 4));
    return fileId;
  }

  it('renders the committed tree as Markdown and as text in reading order', async () => {
    const ns = randomUUID();
    const fileId = await storeReport(ns);
    expect(await documents.read(ctx(ns), fileId, 'markdown')).toEqual({
      format: 'markdown',
      content: [
        '# Trial report',
        '',
        '## Outcomes',
        '',
        'Both arms improved.',
        '',
        '| Arm | Patients |',
        '| --- | --- |',
        '| A | 60 |',
        '| B | 58 |',
        '',
        '1. Recruit',
        '2. Follow up',
        '',
      ].join('\n'),
    });
    expect(await documents.read(ctx(ns), fileId, 'text')).toEqual({
      format: 'text',
      content: 'Trial report\n\nOutcomes\n\nBoth arms improved.\n\nArm\tPatients\nA\t60\nB\t58\n\n1. Recruit\n2. Follow up\n',
    });
    const json = await documents.read(ctx(ns), fileId, 'json');
    expect(json.format).toBe('json');
    const root = (json as { root: StoredNode }).root;
    expect(root.type).toBe('document');
    expect(root.children.map((c) => c.type)).toEqual(['heading', 'section', 'list']);
    expect(root.children[1].children[2].children[0].children[1].positions).toEqual([
      { type: 'CELL', sheet_name: 'Sheet1', row: 0, col: 1 },
    ]);
  });

  it('answers 404 for an unknown file or another namespace, 409 while the file is not indexed', async () => {
    const ns = randomUUID();
    const fileId = await storeReport(ns);
    expect((await domainRejection(documents.read(ctx(randomUUID()), fileId, 'json'))).code).toBe(ErrorCode.NOT_FOUND);
    expect((await domainRejection(documents.read(ctx(ns), randomUUID(), 'json'))).code).toBe(ErrorCode.NOT_FOUND);
    const pending = await newFile(ns);
    const err = await domainRejection(documents.read(ctx(ns), pending, 'markdown'));
    expect(err.code).toBe(ErrorCode.CONFLICT);
    expect(err.message).toContain('not indexed yet (status PENDING)');
  });

  it('keeps serving the previous tree while a reindex is pending', async () => {
    const ns = randomUUID();
    const fileId = await storeReport(ns);
    await new IndexationStateRepository(ds).requestIndexation(ns, fileId, { reparse: true });
    const md = await documents.read(ctx(ns), fileId, 'markdown');
    expect((md as { content: string }).content).toContain('# Trial report');
  });

  it('says the document is too large instead of sending a message NATS would refuse', async () => {
    const ns = randomUUID();
    const fileId = await newFile(ns);
    const big = paragraphs('x'.repeat(1000), Math.ceil(nc.info!.max_payload / 1000) + 10);
    await store.commitGeneration(fileId, await writeTree(fileId, big));
    const err = await domainRejection(documents.read(ctx(ns), fileId, 'json'));
    expect(err.code).toBe(ErrorCode.PAYLOAD_TOO_LARGE);
    expect(err.message).toContain('format=text');
  });
});
