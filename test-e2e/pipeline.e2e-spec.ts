import { createHash } from 'node:crypto';
import type { DocumentNode } from '@docintel/api-client';
import { TestStack } from '@docintel/testing';
import { ok, statusOf } from './support/client';
import { eventually, Indexer, IndexingDb, type IndexedFile } from './support/indexing';

const walk = (n: DocumentNode): DocumentNode[] => [n, ...n.children.flatMap(walk)];
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('indexation pipeline', () => {
  let stack: TestStack;
  let alice: Indexer;
  let db: IndexingDb;

  beforeAll(async () => {
    stack = await TestStack.start({ label: 'pipeline', apps: ['storage-service', 'rules-engine', 'indexing-service', 'api-gateway'] });
    alice = await Indexer.forNamespace(stack, 'acme', 'alice@acme.test');
    db = await IndexingDb.connect(stack);
  });
  afterAll(async () => {
    await db?.close();
    await stack?.stop();
  });

  describe.each([
    { kind: 'txt', corpus: 'txt/unstructured_norwich-city.txt', mediaType: 'text/plain', position: 'LINE', phrase: 'Norwich City' },
    { kind: 'PDF', corpus: 'pdf/tika_testJournalParser.pdf', mediaType: 'application/pdf', position: 'BBOX', phrase: 'the' },
    {
      kind: 'docx',
      corpus: 'docx/docling_word_sample.docx',
      mediaType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      position: null,
      phrase: 'Summer activities',
    },
  ])('a $kind file', ({ kind, corpus, mediaType, position, phrase }) => {
    let file: IndexedFile;
    let bytes: Buffer;
    const key = `pipeline/${kind}/${corpus.split('/').pop()}`;

    beforeAll(async () => {
      bytes = await alice.upload(key, { corpus });
      file = await alice.create(key);
    });

    it('goes from PENDING to SUCCESS, indexed, with checksum, detected type and size from the content', async () => {
      expect(file.lastIndexationInfos.status).toBe('PENDING');
      expect(file.indexed).toBe(false);
      const done = await alice.settled(file.id.id);
      expect(done.lastIndexationInfos).toEqual({ status: 'SUCCESS', errorMessage: null, errorTraceback: null });
      expect(done.indexed).toBe(true);
      expect(done.checksum).toBe(sha256(bytes));
      expect(done.size).toBe(bytes.length);
      expect(done.mediaType).toBe(mediaType);
      expect(done.additionalInfos.parsing).toMatchObject({ mediaType, nodes: expect.any(Number) });
    });

    it('serves the tree as JSON with positions, and as Markdown and text', async () => {
      const json = await alice.document(file.id.id, 'json');
      expect(json.response.status).toBe(200);
      const root = json.data as DocumentNode;
      expect(root.type).toBe('document');
      const nodes = walk(root);
      expect(nodes.length).toBeGreaterThan(1);
      expect(new Set(nodes.map((n) => n.id)).size).toBe(nodes.length);
      if (position) expect(nodes.some((n) => n.positions.some((p) => p.type === position))).toBe(true);
      const markdown = await alice.document(file.id.id, 'markdown');
      expect(markdown.response.status).toBe(200);
      expect(markdown.response.headers.get('content-type')).toMatch(/^text\/markdown/);
      expect(markdown.data).toContain(phrase);
      const text = await alice.document(file.id.id, 'text');
      expect(text.response.status).toBe(200);
      expect(text.data).toContain(phrase);
    });

    it('computes ontologies and the file metadata after indexation', async () => {
      const done = await alice.stepsSettled(file.id.id, ['ontologies']);
      expect(done.additionalInfos.ontologies).toMatchObject({ status: 'SUCCESS', lastError: null });
      const { data: ontologies = [], response } = await alice.api.GET('/api/core/files/{id}/ontologies', {
        params: { path: { id: file.id.id } },
      });
      expect(response.status).toBe(200);
      expect(ontologies.length).toBeGreaterThan(0);
      expect(ontologies[0]).toMatchObject({ conceptId: { entityType: 'CONCEPT_NOTE' }, name: expect.any(String) });
      expect(done.title).toEqual(expect.any(String));
    });

    it('embeds the nodes with the built-in model (default rule: everything)', async () => {
      const done = await alice.stepsSettled(file.id.id, ['node_embedding']);
      expect(done.additionalInfos.node_embedding).toMatchObject({
        status: 'SUCCESS',
        lastError: null,
        model: expect.stringMatching(/^builtin:/),
      });
      expect(done.additionalInfos.node_embedding?.embeddedNodes).toBeGreaterThan(0);
      expect(await db.vectors(file.id.id)).toBe(done.additionalInfos.node_embedding?.embeddedNodes);
    });
  });

  it('reindex with reparse builds a new tree and returns to SUCCESS; the old tree and its vectors are gone', async () => {
    const file = await alice.index('pipeline/reparse/notes.txt', { bytes: 'First version.\n\nA second paragraph.\n' });
    const first = await alice.stepsSettled(file.id.id, ['node_embedding']);
    const before = await alice.tree(file.id.id);
    // New content at the same key: the reparse must read it.
    await alice.upload('pipeline/reparse/notes.txt', {
      bytes: 'Second version, rewritten.\n\nWith other words.\n\nAnd a third paragraph.\n',
    });
    expect(await alice.reindex(file.id.id, true)).toBe(202);
    const done = await eventually(
      'the reparse',
      () => alice.get(file.id.id),
      (f) => f.lastIndexationInfos.status === 'SUCCESS' && f.checksum !== first.checksum,
    );
    expect(done.indexed).toBe(true);
    const after = await alice.tree(file.id.id);
    expect(after.id).not.toBe(before.id);
    expect(await alice.text(file.id.id)).toContain('Second version');
    const ids = new Set(walk(after).map((n) => n.id));
    expect(walk(before).some((n) => ids.has(n.id))).toBe(false);
    const settled = await alice.stepsSettled(file.id.id, ['node_embedding']);
    expect(await db.vectors(file.id.id)).toBe(settled.additionalInfos.node_embedding?.embeddedNodes);
    expect(await db.nodes(file.id.id)).toBe(walk(after).length);
  });

  it('reindex without reparse keeps the tree and re-runs the steps after parsing', async () => {
    const file = await alice.index('pipeline/keep/notes.txt', { bytes: 'Kept paragraph.\n\nAnother kept one.\n' });
    const first = await alice.stepsSettled(file.id.id, ['node_embedding', 'ontologies']);
    const before = await alice.tree(file.id.id);
    expect(await alice.reindex(file.id.id)).toBe(202);
    const again = await eventually(
      'the re-run steps',
      () => alice.get(file.id.id),
      (f) =>
        f.lastIndexationInfos.status === 'SUCCESS' &&
        f.additionalInfos.node_embedding?.requestedTime !== first.additionalInfos.node_embedding?.requestedTime &&
        f.additionalInfos.node_embedding?.status === 'SUCCESS',
    );
    expect(again.checksum).toBe(first.checksum);
    const after = await alice.tree(file.id.id);
    expect(after).toEqual(before);
    expect(again.additionalInfos.node_embedding?.embeddedNodes).toBe(first.additionalInfos.node_embedding?.embeddedNodes);
  });

  it('recomputes ontologies on request', async () => {
    const file = await alice.index('pipeline/onto/paper.txt', {
      bytes: 'Graph Neural Networks for Molecules\n\nGraph neural networks learn molecular properties.\n',
    });
    const first = await alice.stepsSettled(file.id.id, ['ontologies']);
    expect(await statusOf(alice.api.POST('/api/core/files/{id}/recompute-ontologies', { params: { path: { id: file.id.id } } }))).toBe(202);
    const again = await eventually(
      'recomputed ontologies',
      () => alice.get(file.id.id),
      (f) => f.additionalInfos.ontologies?.updatedTime !== first.additionalInfos.ontologies?.updatedTime,
    );
    expect(again.additionalInfos.ontologies).toMatchObject({ status: 'SUCCESS' });
    expect(again.lastIndexationInfos.status).toBe('SUCCESS');
  });

  it('deletes an indexed file with its nodes and vectors; the provider item stays', async () => {
    const file = await alice.index('pipeline/delete/gone.txt', { bytes: 'Soon deleted.\n\nTwo paragraphs.\n' });
    await alice.stepsSettled(file.id.id, ['node_embedding']);
    expect(await db.vectors(file.id.id)).toBeGreaterThan(0);
    const id = { params: { path: { id: file.id.id } } };
    expect(await statusOf(alice.api.DELETE('/api/core/files/{id}', id))).toBe(204);
    expect(await statusOf(alice.api.GET('/api/core/files/{id}', id))).toBe(404);
    expect(await db.nodes(file.id.id)).toBe(0);
    expect(await db.vectors(file.id.id)).toBe(0);
    const items = await ok(
      alice.api.GET('/api/core/providers/{providerId}/items', {
        params: { path: { providerId: alice.providerId }, query: { key: 'pipeline/delete/' } },
      }),
    );
    expect(items.items.map((i) => i.key)).toEqual(['pipeline/delete/gone.txt']);
  });

  it('ends a broken file FAILED with a message a user understands, and keeps serving', async () => {
    const encrypted = await alice.index('pipeline/broken/locked.pdf', { corpus: 'broken/pdfminer_aes-256.pdf' });
    const empty = await alice.index('pipeline/broken/empty.pdf', { corpus: 'broken/pdfplumber_empty.pdf' });
    const truncated = await alice.index('pipeline/broken/truncated.docx', { corpus: 'broken/derived_truncated_word_sample.docx' });
    for (const f of [encrypted, empty, truncated]) {
      const done = await alice.settled(f.id.id);
      expect(done.lastIndexationInfos.status).toBe('FAILED');
      expect(done.lastIndexationInfos.errorMessage).toEqual(expect.any(String));
      expect(done.indexed).toBe(false);
      expect(await db.nodes(f.id.id)).toBe(0);
      expect((await alice.document(f.id.id)).response.status).toBe(409);
    }
    expect((await alice.get(encrypted.id.id)).lastIndexationInfos.errorMessage).toMatch(/password/i);
    expect((await alice.get(empty.id.id)).lastIndexationInfos.errorMessage).toMatch(/empty/i);
    // The service goes on: a good file right after indexes.
    const good = await alice.index('pipeline/broken/after.txt', { bytes: 'Still working.\n' });
    expect((await alice.settled(good.id.id)).lastIndexationInfos.status).toBe('SUCCESS');
  });

  it('ends FAILED when the provider item vanished before it was read', async () => {
    await alice.upload('pipeline/vanish/soon.txt', { bytes: 'here now\n' });
    // Stop indexing from taking the request until the item is gone: the rule is asked first.
    expect(await alice.rule('corpus_parsing', { mime_types: ['application/x-nothing'] })).toBe(200);
    const aborted = await alice.create('pipeline/vanish/soon.txt');
    expect((await alice.settled(aborted.id.id)).lastIndexationInfos.status).toBe('ABORTED');
    expect(await alice.rule('corpus_parsing', {})).toBe(200);
    const del = await alice.api.DELETE('/api/core/providers/{providerId}/items', {
      params: { path: { providerId: alice.providerId } },
      body: { key: 'pipeline/vanish/soon.txt' },
    });
    expect(del.response.status).toBe(204);
    expect(await alice.reindex(aborted.id.id, true)).toBe(202);
    const done = await eventually(
      'the failed reparse',
      () => alice.get(aborted.id.id),
      (f) => f.lastIndexationInfos.status === 'FAILED',
    );
    expect(done.lastIndexationInfos.errorMessage).toMatch(/could not be read from its provider/);
  });
});
