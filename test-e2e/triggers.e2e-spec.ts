import type { DocumentNode } from '@docintel/api-client';
import { TestStack } from '@docintel/testing';
import { eventually, Indexer, IndexingDb } from './support/indexing';

/** Paragraphs of plain text, `n` of them. */
const paragraphs = (n: number, word = 'text') =>
  Array.from({ length: n }, (_, i) => `Paragraph ${i + 1} of some ${word} to embed.`).join('\n\n') + '\n';

describe('rules and triggers at work', () => {
  let stack: TestStack;
  let acme: Indexer;
  let globex: Indexer;
  let db: IndexingDb;

  beforeAll(async () => {
    stack = await TestStack.start({ label: 'triggers', apps: ['storage-service', 'rules-engine', 'indexing-service', 'api-gateway'] });
    acme = await Indexer.forNamespace(stack, 'acme', 'alice@acme.test');
    globex = await Indexer.forNamespace(stack, 'globex', 'gary@globex.test');
    db = await IndexingDb.connect(stack);
  });
  afterAll(async () => {
    await db?.close();
    await stack?.stop();
  });

  describe('corpus_parsing (critical)', () => {
    afterAll(async () => {
      expect(await acme.rule('corpus_parsing', {})).toBe(200);
    });

    it('restricted to application/pdf: a txt file ends ABORTED unparsed, a PDF reaches SUCCESS', async () => {
      expect(await acme.rule('corpus_parsing', { mime_types: ['application/pdf'] })).toBe(200);
      const txt = await acme.index('only-pdf/notes.txt', { bytes: 'Plain notes that must not be parsed.\n' });
      const pdf = await acme.index('only-pdf/paper.pdf', { corpus: 'pdf/docling_2305.03393v1-pg9.pdf' });

      const aborted = await acme.settled(txt.id.id);
      expect(aborted.lastIndexationInfos.status).toBe('ABORTED');
      expect(aborted.lastIndexationInfos.errorMessage).toMatch(/corpus_parsing rule/);
      expect(aborted.lastIndexationInfos.errorMessage).toMatch(/text\/plain is not among the rule's mime_types \(application\/pdf\)/);
      expect(aborted.indexed).toBe(false);
      expect(aborted.checksum).toBeNull();
      expect(await db.nodes(txt.id.id)).toBe(0);
      expect((await acme.document(txt.id.id)).response.status).toBe(409);

      const parsed = await acme.settled(pdf.id.id);
      expect(parsed.lastIndexationInfos.status).toBe('SUCCESS');
      expect(parsed.indexed).toBe(true);

      // Rules are per namespace: globex still parses everything.
      const other = await globex.index('only-pdf/notes.txt', { bytes: 'Globex notes are parsed.\n' });
      expect((await globex.settled(other.id.id)).lastIndexationInfos.status).toBe('SUCCESS');
    });

    it('disabled (rule deleted): the file ends ABORTED saying so; restoring the rule and reparsing indexes it', async () => {
      expect(await acme.rule('corpus_parsing', null)).toBe(204);
      const file = await acme.index('disabled/notes.txt', { bytes: 'Not parsed while the trigger is disabled.\n' });
      const aborted = await acme.settled(file.id.id);
      expect(aborted.lastIndexationInfos.status).toBe('ABORTED');
      expect(aborted.lastIndexationInfos.errorMessage).toMatch(/disabled in this namespace/);
      expect(await acme.rule('corpus_parsing', {})).toBe(201);
      expect(await acme.reindex(file.id.id, true)).toBe(202);
      const done = await eventually(
        'the reparse',
        () => acme.get(file.id.id),
        (f) => f.lastIndexationInfos.status === 'SUCCESS',
      );
      expect(done.indexed).toBe(true);
    });

    it('exclude_mime_types skips images (large scans) while other files go through', async () => {
      expect(await acme.rule('corpus_parsing', { exclude_mime_types: ['image/*'] })).toBe(200);
      const scan = await acme.index('scans/page.png', { corpus: 'images/tesseractjs_testocr.png' });
      const text = await acme.index('scans/notes.txt', { bytes: 'A note beside the scan.\n' });
      const aborted = await acme.settled(scan.id.id);
      expect(aborted.lastIndexationInfos).toMatchObject({
        status: 'ABORTED',
        errorMessage: expect.stringMatching(/image\/png is excluded/),
      });
      expect((await acme.settled(text.id.id)).lastIndexationInfos.status).toBe('SUCCESS');
    });
  });

  describe('node_embedding (asynchronous)', () => {
    afterAll(async () => {
      expect([200, 201]).toContain(await acme.rule('node_embedding', {}));
    });

    it('max_file_size: the larger file is SKIPPED with no vectors, the smaller one gets vectors; both files are SUCCESS', async () => {
      expect(await acme.rule('node_embedding', { max_file_size: 1000 })).toBe(200);
      const small = await acme.index('sizes/small.txt', { bytes: paragraphs(3) });
      const large = await acme.index('sizes/large.txt', { bytes: paragraphs(60, 'longer text') });

      const s = await acme.stepsSettled(small.id.id, ['node_embedding']);
      expect(s.lastIndexationInfos.status).toBe('SUCCESS');
      expect(s.additionalInfos.node_embedding).toMatchObject({ status: 'SUCCESS', lastError: null });
      expect(s.additionalInfos.node_embedding?.embeddedNodes).toBeGreaterThan(0);
      expect(await db.vectors(small.id.id)).toBe(s.additionalInfos.node_embedding?.embeddedNodes);

      const l = await acme.stepsSettled(large.id.id, ['node_embedding']);
      expect(l.lastIndexationInfos.status).toBe('SUCCESS');
      expect(l.indexed).toBe(true);
      expect(l.additionalInfos.node_embedding).toMatchObject({ status: 'SKIPPED', embeddedNodes: 0 });
      expect(l.additionalInfos.node_embedding?.reason).toMatch(/above the rule's max_file_size \(1000\)/);
      expect(await db.vectors(large.id.id)).toBe(0);
    });

    it('deleted: no vectors are written, and the change applies to the very next batch', async () => {
      expect(await acme.rule('node_embedding', null)).toBe(204);
      const off = await acme.index('no-embeddings/a.txt', { bytes: paragraphs(4) });
      const skipped = await acme.stepsSettled(off.id.id, ['node_embedding']);
      expect(skipped.lastIndexationInfos.status).toBe('SUCCESS');
      expect(skipped.additionalInfos.node_embedding).toMatchObject({ status: 'SKIPPED', embeddedNodes: 0 });
      expect(skipped.additionalInfos.node_embedding?.reason).toMatch(/disabled in this namespace/);
      expect(await db.vectors(off.id.id)).toBe(0);

      expect(await acme.rule('node_embedding', {})).toBe(201);
      const on = await acme.index('no-embeddings/b.txt', { bytes: paragraphs(4) });
      const embedded = await acme.stepsSettled(on.id.id, ['node_embedding']);
      expect(embedded.additionalInfos.node_embedding?.status).toBe('SUCCESS');
      expect(await db.vectors(on.id.id)).toBeGreaterThan(0);
    });

    it('node_types and content_patterns pick the nodes embedded', async () => {
      expect(await acme.rule('node_embedding', { node_types: ['paragraph'], content_patterns: ['invoice'] })).toBe(200);
      const file = await acme.index('picked/mixed.txt', {
        bytes: 'An invoice paragraph.\n\nA receipt paragraph.\n\nAnother invoice here.\n\nNothing to see.\n',
      });
      const done = await acme.stepsSettled(file.id.id, ['node_embedding']);
      expect(done.additionalInfos.node_embedding).toMatchObject({ status: 'SUCCESS', embeddedNodes: 2 });
      expect(await db.vectors(file.id.id)).toBe(2);
    });
  });

  describe('formula_augmentation (asynchronous)', () => {
    const walk = (n: DocumentNode): DocumentNode[] => [n, ...n.children.flatMap(walk)];
    const tree = async (indexer: Indexer, id: string) => walk(await indexer.tree(id));

    afterAll(async () => {
      expect([200, 201]).toContain(await acme.rule('formula_augmentation', {}));
    });

    it('adds normalised LaTeX and a plain-text reading to formulas of a docx and to LaTeX inside text', async () => {
      const docx = await acme.index('formulas/equations.docx', { corpus: 'docx/docling_equations.docx' });
      const txt = await acme.index('formulas/physics.txt', {
        bytes: 'Mass and energy.\n\nThe relation $E = mc^2$ is famous, and so is $a^2 + b^2 = c^2$.\n',
      });

      const d = await acme.stepsSettled(docx.id.id, ['formula_augmentation']);
      expect(d.additionalInfos.formula_augmentation).toMatchObject({ status: 'SUCCESS' });
      expect(d.additionalInfos.formula_augmentation?.augmentedNodes).toBeGreaterThan(0);
      const formulas = (await tree(acme, docx.id.id)).filter((n) => n.type === 'formula');
      expect(formulas.length).toBeGreaterThan(0);
      expect(
        formulas.filter((n) => typeof n.attributes?.latex === 'string' && typeof n.attributes?.reading === 'string').length,
      ).toBeGreaterThan(0);

      const t = await acme.stepsSettled(txt.id.id, ['formula_augmentation']);
      expect(t.additionalInfos.formula_augmentation).toMatchObject({ status: 'SUCCESS', augmentedNodes: 1, totalNodes: 1 });
      const paragraph = (await tree(acme, txt.id.id)).find((n) => n.text.includes('E = mc^2'));
      expect(paragraph?.attributes?.formulas).toEqual([
        { latex: 'E = mc^{2}', reading: 'E = mc^2', display: false, start: 13, end: 23 },
        { latex: 'a^{2} + b^{2} = c^{2}', reading: 'a^2 + b^2 = c^2', display: false, start: 45, end: 62 },
      ]);
    });

    it('skips files its rule excludes, leaving the nodes unchanged', async () => {
      expect(await acme.rule('formula_augmentation', { mime_types: ['application/pdf'] })).toBe(200);
      const txt = await acme.index('formulas/skipped.txt', { bytes: 'Here $x^2$ stays as written.\n' });
      const t = await acme.stepsSettled(txt.id.id, ['formula_augmentation']);
      expect(t.lastIndexationInfos.status).toBe('SUCCESS');
      expect(t.additionalInfos.formula_augmentation).toMatchObject({ status: 'SKIPPED', augmentedNodes: 0 });
      expect(t.additionalInfos.formula_augmentation?.reason).toMatch(/text\/plain is not among the rule's mime_types/);
      expect((await tree(acme, txt.id.id)).some((n) => n.attributes?.formulas)).toBe(false);
    });

    it('records a document without formulas as SKIPPED, with the reason', async () => {
      const txt = await acme.index('formulas/prose.txt', { bytes: 'Only prose, costing $5 and $10.\n' });
      const t = await acme.stepsSettled(txt.id.id, ['formula_augmentation']);
      expect(t.additionalInfos.formula_augmentation).toMatchObject({ status: 'SKIPPED', reason: 'the document has no formulas' });
    });
  });
});
