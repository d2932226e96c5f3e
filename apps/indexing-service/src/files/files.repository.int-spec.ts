import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { CollectionsRepository } from '../collections/collections.repository';
import { IndexationStateRepository } from '../indexation/indexation-state.repository';
import { NodeStoreRepository } from '../nodes/node-store.repository';
import { startIndexingDatabase, type IndexingDatabase } from '../testing/indexing-database';
import { FilesRepository, type NewIndexedFile } from './files.repository';
import { toIndexedFileDto } from './indexed-file.mapper';
import { OntologiesRepository } from './ontologies.repository';

let db: IndexingDatabase;
let ds: DataSource;
let files: FilesRepository;
let state: IndexationStateRepository;

beforeAll(async () => {
  db = await startIndexingDatabase('idxfiles', 30);
  ds = db.ds;
  files = new FilesRepository(ds);
  state = new IndexationStateRepository(ds);
});
afterAll(async () => {
  await db?.close();
});

const PROVIDER = randomUUID();
const owner = { id: randomUUID(), email: 'alice@example.com', firstName: 'Alice', lastName: 'Martin', avatarUrl: '' };

/** A provider item to index; each call names a different key unless told. */
function itemDraft(overrides: Partial<NewIndexedFile> = {}): NewIndexedFile {
  const key = overrides.key ?? `docs/${randomUUID()}.pdf`;
  return {
    providerId: PROVIDER,
    providerName: 'Local storage',
    key,
    name: key.slice(key.lastIndexOf('/') + 1),
    extension: key.slice(key.lastIndexOf('.') + 1),
    size: 1000,
    mediaType: 'application/pdf',
    owner,
    ...overrides,
  };
}

describe('FilesRepository', () => {
  it('creates a PENDING file from a provider item, with the owner shown beside it', async () => {
    const ns = randomUUID();
    const { file, created } = await files.createOrGet(ns, itemDraft({ key: 'reports/q1.pdf' }));
    expect(created).toBe(true);
    expect(file).toMatchObject({
      namespaceId: ns,
      providerId: PROVIDER,
      key: 'reports/q1.pdf',
      name: 'q1.pdf',
      extension: 'pdf',
      status: 'PENDING',
      errorMessage: null,
      indexed: false,
      checksum: null,
      ownerId: owner.id,
      ownerEmail: 'alice@example.com',
      ownerFirstName: 'Alice',
      indexationRequests: 1,
      reparseRequested: true,
      currentGeneration: null,
    });
    expect(typeof file.createdTime).toBe('number');
  });

  it('records the namespace name with the first request, and again with every later one', async () => {
    const ns = randomUUID();
    const { file } = await files.createOrGet(ns, itemDraft({ namespaceName: 'acme' }));
    expect(file).toMatchObject({ namespaceName: 'acme', claimedRequestTime: null, requestedTime: file.createdTime });
    expect(await state.requestIndexation(ns, file.id, { reparse: false, namespaceName: 'acme-renamed' })).toMatchObject({
      namespaceName: 'acme-renamed',
    });
    expect(await state.requestIndexation(ns, file.id, { reparse: false })).toMatchObject({ namespaceName: 'acme-renamed' });
  });

  it('gives every concurrent creator of the same item the one file created', async () => {
    const ns = randomUUID();
    const draft = itemDraft();
    const results = await Promise.all(Array.from({ length: 24 }, () => files.createOrGet(ns, draft)));
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(results.map((r) => r.file.id)).size).toBe(1);
    const [{ n }] = await ds.query(`SELECT count(*)::int AS n FROM files WHERE namespace_id = $1`, [ns]);
    expect(n).toBe(1);
  });

  it('keeps one file per namespace for the same item', async () => {
    const draft = itemDraft();
    const a = await files.createOrGet(randomUUID(), draft);
    const b = await files.createOrGet(randomUUID(), draft);
    expect(b.created).toBe(true);
    expect(b.file.id).not.toBe(a.file.id);
  });

  it('never shows, lists, changes or deletes a file for another namespace', async () => {
    const ns = randomUUID();
    const other = randomUUID();
    const { file } = await files.createOrGet(ns, itemDraft());
    expect(await files.findById(other, file.id)).toBeNull();
    expect(await files.list(other, { providerId: PROVIDER }, { page: 0, pageSize: 10, sortBy: 'name', sortOrder: 'asc' })).toEqual({
      rows: [],
      total: 0,
    });
    expect(await state.requestIndexation(other, file.id, { reparse: true })).toBeNull();
    expect(await state.requestOntologies(other, file.id)).toBeNull();
    expect(await files.delete(other, file.id)).toBe(false);
    expect(await files.findById(ns, file.id)).not.toBeNull();
  });

  it('treats ids that are not UUIDs as unknown', async () => {
    const ns = randomUUID();
    expect(await files.findById(ns, 'not-a-uuid')).toBeNull();
    expect(await files.delete(ns, "1' OR '1'='1")).toBe(false);
  });

  it('lists the files of a provider, sorted by each property with a stable order, page by page', async () => {
    const ns = randomUUID();
    const specs = [
      { key: 'b/Charlie.pdf', size: 300 },
      { key: 'a/alpha.txt', size: 100 },
      { key: 'c/bravo.docx', size: 200 },
      { key: 'a/delta.csv', size: 200 },
    ];
    for (const s of specs) await files.createOrGet(ns, itemDraft(s));
    await files.createOrGet(ns, itemDraft({ providerId: randomUUID() }));
    const names = async (sortBy: 'name' | 'path' | 'createdTime' | 'size', sortOrder: 'asc' | 'desc') =>
      (await files.list(ns, { providerId: PROVIDER }, { page: 0, pageSize: 10, sortBy, sortOrder })).rows.map((r) => r.name);
    expect(await names('name', 'asc')).toEqual(['alpha.txt', 'bravo.docx', 'Charlie.pdf', 'delta.csv']);
    expect(await names('name', 'desc')).toEqual(['delta.csv', 'Charlie.pdf', 'bravo.docx', 'alpha.txt']);
    expect(await names('path', 'asc')).toEqual(['alpha.txt', 'delta.csv', 'Charlie.pdf', 'bravo.docx']);
    expect(await names('createdTime', 'asc')).toHaveLength(4);
    const bySize = await names('size', 'asc');
    expect(bySize[0]).toBe('alpha.txt');
    expect(bySize[3]).toBe('Charlie.pdf');

    const seen: string[] = [];
    for (let page = 0; page < 2; page++) {
      const { rows, total } = await files.list(ns, { providerId: PROVIDER }, { page, pageSize: 3, sortBy: 'size', sortOrder: 'asc' });
      expect(total).toBe(4);
      seen.push(...rows.map((r) => r.id));
    }
    expect(new Set(seen).size).toBe(4);
  });

  it("lists a page of a provider filtered by name (any case) and by folder, with the filtered total, never another namespace's", async () => {
    const ns = randomUUID();
    for (const key of [
      'reports/2026/Q1 Summary.pdf',
      'reports/2026/q2 summary.pdf',
      'reports/2025/Q4 summary.pdf',
      'reports/2026x/other.pdf',
      'misc/summary_100%.txt',
    ])
      await files.createOrGet(ns, itemDraft({ key }));
    await files.createOrGet(randomUUID(), itemDraft({ key: 'reports/2026/Q3 summary.pdf' }));
    const page = (q: string | undefined, keyPrefix: string | undefined, p = 0, pageSize = 10) =>
      files.listProviderPage(ns, PROVIDER, { page: p, pageSize, sortBy: 'path', sortOrder: 'asc', q, keyPrefix });

    const folder = await page(undefined, 'reports/2026/');
    expect(folder.rows.map((r) => r.key)).toEqual(['reports/2026/Q1 Summary.pdf', 'reports/2026/q2 summary.pdf']);
    expect(folder.total).toBe(2);
    const named = await page('SUMMARY', undefined);
    expect(named.total).toBe(4);
    // LIKE's wildcards in q are plain characters.
    expect((await page('_100%', undefined)).rows.map((r) => r.key)).toEqual(['misc/summary_100%.txt']);
    expect((await page('%', 'reports/')).rows).toEqual([]);
    expect((await page('q2', 'reports/2026/')).rows.map((r) => r.name)).toEqual(['q2 summary.pdf']);
    // Past the last page: no rows, the filtered total still.
    expect(await page('summary', undefined, 5, 1)).toEqual({ rows: [], total: 4 });
  });

  it('records reindex and recompute requests; a pending reparse is not cancelled by a plain reindex', async () => {
    const ns = randomUUID();
    const { file } = await files.createOrGet(ns, itemDraft());
    await ds.query(`UPDATE files SET status = 'FAILED', error_message = 'broken', reparse_requested = false WHERE id = $1`, [file.id]);
    const again = await state.requestIndexation(ns, file.id, { reparse: true });
    expect(again).toMatchObject({ status: 'PENDING', errorMessage: null, indexationRequests: 2, reparseRequested: true });
    const plain = await state.requestIndexation(ns, file.id, { reparse: false });
    expect(plain).toMatchObject({ indexationRequests: 3, reparseRequested: true });
    expect(plain!.requestedTime).toBeGreaterThanOrEqual(file.requestedTime);
    expect(await state.requestOntologies(ns, file.id)).toMatchObject({ ontologyRequests: 1 });
  });

  it('lets the pipeline record RUNNING and FAILED with a message', async () => {
    const ns = randomUUID();
    const { file } = await files.createOrGet(ns, itemDraft());
    expect(await state.claim(file.id, file.requestedTime, 0, 'RUNNING')).toBe(true);
    expect(await state.end(file.id, file.requestedTime, 'FAILED', 'The PDF is encrypted')).toBe(true);
    expect(await files.findById(ns, file.id)).toMatchObject({ status: 'FAILED', errorMessage: 'The PDF is encrypted', indexed: false });
  });

  it('lets the ontology computation record title, authors and description, shown as displayName', async () => {
    const ns = randomUUID();
    const { file } = await files.createOrGet(ns, itemDraft({ key: 'papers/otsl.pdf' }));
    expect(await files.recordMetadata(file.id, { title: 'Optimized Table Tokenization', authors: 'M. Lysak; A. Nassar' })).toBe(true);
    expect(await files.recordMetadata(file.id, { description: 'Table structure recognition' })).toBe(true);
    const after = await files.findById(ns, file.id);
    expect(after).toMatchObject({
      title: 'Optimized Table Tokenization',
      authors: 'M. Lysak; A. Nassar',
      description: 'Table structure recognition',
    });
    expect(toIndexedFileDto(after!)).toMatchObject({ displayName: 'Optimized Table Tokenization', dbName: 'otsl.pdf', name: 'otsl.pdf' });
    expect(await files.recordMetadata(randomUUID(), { title: 'x' })).toBe(false);
  });

  it('deletes a file with its nodes, ontologies and collection links in one go; collections stay', async () => {
    const ns = randomUUID();
    const collections = new CollectionsRepository(ds);
    const nodes = new NodeStoreRepository(ds, state);
    const ontologies = new OntologiesRepository(ds);
    const { file } = await files.createOrGet(ns, itemDraft());
    const { file: kept } = await files.createOrGet(ns, itemDraft());
    const c1 = await collections.create(ns, { name: 'one', description: null, icon: null, owner });
    const c2 = await collections.create(ns, { name: 'two', description: null, icon: null, owner });
    for (const c of [c1, c2]) {
      await collections.addFile(ns, c.collection.id, file.id);
      await collections.addFile(ns, c.collection.id, kept.id);
    }
    const g = await nodes.beginGeneration(file.id);
    await nodes.insertBatch(file.id, g, [{ id: randomUUID(), parentId: null, ordinal: 0, type: 'document', text: '' }]);
    await nodes.commitGeneration(file.id, g);
    await ontologies.replaceForFile(file.id, [{ conceptId: randomUUID(), name: 'oncology' }]);

    expect(await files.delete(ns, file.id)).toBe(true);
    const count = async (table: string) =>
      (await ds.query(`SELECT count(*)::int AS n FROM ${table} WHERE file_id = $1`, [file.id]))[0].n as number;
    expect(await count('nodes')).toBe(0);
    expect(await count('ontologies')).toBe(0);
    expect(await count('collection_files')).toBe(0);
    expect((await collections.findById(ns, c1.collection.id))?.filesCount).toBe(1);
    expect((await collections.findById(ns, c2.collection.id))?.filesCount).toBe(1);
    expect(await files.findById(ns, file.id)).toBeNull();
    expect(await files.delete(ns, file.id)).toBe(false);
  });

  it('lists ontologies in the order computed, only for the namespace of the file', async () => {
    const ns = randomUUID();
    const ontologies = new OntologiesRepository(ds);
    const { file } = await files.createOrGet(ns, itemDraft());
    expect(await ontologies.listForFile(ns, file.id)).toEqual([]);
    const [a, b] = [randomUUID(), randomUUID()];
    await ontologies.replaceForFile(file.id, [
      { conceptId: a, name: 'language', metas: { language: { metaName: 'language', metaValue: 'en' } } },
      { conceptId: b, name: 'keyphrase' },
    ]);
    expect(await ontologies.listForFile(ns, file.id)).toEqual([
      {
        conceptId: { id: a, entityType: 'CONCEPT_NOTE' },
        name: 'language',
        metas: { language: { metaName: 'language', metaValue: 'en' } },
      },
      { conceptId: { id: b, entityType: 'CONCEPT_NOTE' }, name: 'keyphrase' },
    ]);
    expect(await ontologies.listForFile(randomUUID(), file.id)).toBeNull();
  });
});
