import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { EmbeddingsEnv, NodeVectorStore } from '@docintel/ai';
import { SimilarFilesBySource, SimilarFilesByWork, type RpcContext, type SourceIdentifierDto } from '@docintel/contracts';
import { RpcClient } from '@docintel/messaging';
import { conceptId, toOntologies } from '@docintel/ontologies';
import { FilesRepository } from '../files/files.repository';
import { OntologiesRepository } from '../files/ontologies.repository';
import { IndexationStateRepository } from '../indexation/indexation-state.repository';
import { NodeStoreRepository } from '../nodes/node-store.repository';
import { indexedFileDraft } from '../testing/indexing-database';
import { startIndexingTestApp, WordGroupEmbedder, type IndexingTestApp } from '../testing/indexing-test-app';
import { SimilarModule } from './similar.module';

/**
 * indexing.similar.* on real PostgreSQL and NATS. Files are written as the pipeline leaves them
 * (indexed, with node vectors in node_embeddings, ontologies computed by libs/ontologies, and
 * nodes of their current tree); the embedder is a small deterministic one whose dimensions are
 * topics, so that which documents are close is known without a model.
 */

const TOPICS = [
  ['cat', 'cats', 'feline', 'kitten', 'kittens', 'whiskers'],
  ['car', 'cars', 'automobile', 'vehicle', 'engine'],
  ['ocean', 'sea', 'marine', 'waves', 'coral'],
];

let testApp: IndexingTestApp;
let rpc: RpcClient;
let ds: DataSource;
let files: FilesRepository;
let ontologies: OntologiesRepository;
const embedder = new WordGroupEmbedder('test:topics', TOPICS);
let store: NodeVectorStore;

beforeAll(async () => {
  testApp = await startIndexingTestApp({ name: 'similar', imports: [SimilarModule.forRoot(new EmbeddingsEnv())], embedder });
  ds = testApp.ds;
  rpc = testApp.app.get(RpcClient);
  files = new FilesRepository(ds);
  ontologies = new OntologiesRepository(ds);
  store = new NodeVectorStore(ds, { model: embedder.model, dimensions: embedder.dimensions, storage: 'bytea' });
}, 60_000);

afterAll(async () => {
  await testApp?.close();
});

const ctxOf = (namespaceId: string): RpcContext => ({ requestId: 'similar-test', namespaceId });

interface Doc {
  name: string;
  /** Paragraphs: embedded one vector each, as node_embedding does, and written as the tree's nodes (line by line). */
  paragraphs: string[];
  title?: string;
  authors?: string[];
  doi?: string;
  keyphrases?: string[];
  indexed?: boolean;
}

/** A file as the pipeline leaves it: indexed, its tree's nodes, their vectors and the file's ontologies. */
async function addFile(ns: string, doc: Doc): Promise<string> {
  const { file } = await files.createOrGet(
    ns,
    indexedFileDraft({
      namespaceName: 'acme',
      key: `papers/${doc.name}`,
      name: doc.name,
      extension: doc.name.split('.').pop() ?? '',
      mediaType: 'text/plain',
    }),
  );
  const indexed = doc.indexed ?? true;
  await ds.query(`UPDATE files SET status = $2, indexed = $3, current_generation = 1, checksum = 'abc' WHERE id = $1`, [
    file.id,
    indexed ? 'SUCCESS' : 'RUNNING',
    indexed,
  ]);
  const nodeIds = doc.paragraphs.map(() => randomUUID());
  await ds.query(
    `INSERT INTO nodes (file_id, generation, id, parent_id, ordinal, type, text, positions)
     SELECT $1, 1, n.id, NULL, n.ordinal, 'paragraph', n.text, n.positions
       FROM jsonb_to_recordset($2::jsonb) AS n (id uuid, ordinal int, text text, positions jsonb)`,
    [
      file.id,
      JSON.stringify(
        doc.paragraphs.map((text, i) => ({
          id: nodeIds[i],
          ordinal: i,
          text,
          // The last paragraph is the references section, far down the document.
          positions: [
            {
              type: 'LINE',
              line_number: i === doc.paragraphs.length - 1 && i > 0 ? 900 : i + 1,
              column_index_start: 0,
              column_index_stop: text.length,
            },
          ],
        })),
      ),
    ],
  );
  const vectors = await embedder.embed(doc.paragraphs);
  await store.upsert(
    ns,
    nodeIds.map((nodeId, i) => ({ nodeId, fileId: file.id, vector: vectors[i] })),
  );
  const computed = toOntologies({
    title: doc.title,
    authors: doc.authors,
    doi: doc.doi,
    keyphrases: (doc.keyphrases ?? []).map((text, i) => ({ text, score: 1 - i / 10, occurrences: 1, firstOffset: 0, explanation: 'test' })),
    entities: [],
    explanations: {},
  });
  await ontologies.replaceForFile(
    file.id,
    computed.map((o) => ({ conceptId: o.conceptId.id, name: o.name, metas: o.metas })),
  );
  return file.id;
}

const bySource = (ns: string, source: SourceIdentifierDto, limit = 10, minScore = 0.2) =>
  rpc.call(SimilarFilesBySource, { source, limit, minScore }, ctxOf(ns));

describe('indexing.similar.by-source', () => {
  const ns = randomUUID();
  const other = randomUUID();
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    ids.cats = await addFile(ns, {
      name: 'cats.txt',
      paragraphs: [
        'Cats and kittens: a feline behaviour study.',
        'Whiskers help cats sense the world.',
        'References: arXiv:1111.22222 on cars.',
      ],
      title: 'Feline behaviour of domestic cats',
      authors: ['Ada Lovelace', 'Alan Turing'],
      doi: '10.5555/cats.2020',
      keyphrases: ['feline behaviour', 'domestic cats'],
    });
    ids.kittens = await addFile(ns, {
      name: 'kittens.txt',
      paragraphs: ['Kittens grow into cats.', 'The feline diet of kittens, and their whiskers.'],
      title: 'Growth of domestic kittens',
      authors: ['A. Lovelace'],
      keyphrases: ['domestic cat', 'kitten growth'],
    });
    ids.cars = await addFile(ns, {
      name: '2305.03393v1-engines.txt',
      paragraphs: ['Cars and their engines.', 'The automobile vehicle industry.'],
      title: 'Engines of modern cars',
      authors: ['Henry Ford'],
      keyphrases: ['car engine'],
    });
    ids.ocean = await addFile(ns, {
      name: 'reef.txt',
      paragraphs: ['PMC7000123', 'Coral reefs in the ocean.', 'Marine waves and the sea.'],
      title: 'Coral reefs',
      authors: ['Rachel Carson'],
      keyphrases: ['coral reef'],
    });
    ids.draft = await addFile(ns, { name: 'draft-cats.txt', paragraphs: ['Cats, cats, kittens.'], title: 'Cats draft', indexed: false });
    ids.citing = await addFile(ns, {
      name: 'citing.txt',
      paragraphs: ['Something about the sea.', 'Cited: PMC7999999 and arXiv:2401.00001.'],
    });
    ids.theirs = await addFile(other, {
      name: 'their-cats.txt',
      paragraphs: ['Cats and kittens, feline whiskers.'],
      title: 'Feline behaviour of domestic cats',
      authors: ['Ada Lovelace'],
      doi: '10.5555/theirs',
      keyphrases: ['feline behaviour'],
    });
  });

  it("puts the source file first, then ranks the namespace's indexed files by similarity, above the minimum only", async () => {
    const reply = await bySource(ns, { id: ids.cats });
    expect(reply.matchedBy).toBe('id');
    expect(reply.source).toMatchObject({
      fileId: ids.cats,
      name: 'cats.txt',
      path: 'papers/cats.txt',
      checksum: 'abc',
      score: 1,
      isSource: true,
    });
    expect(reply.source?.ontologies.map((o) => o.name)).toEqual(['Document metadata', 'feline behaviour', 'domestic cats']);
    const names = reply.similar.map((f) => f.name);
    expect(names[0]).toBe('kittens.txt');
    expect(names).not.toContain('cats.txt');
    expect(names).not.toContain('draft-cats.txt'); // not indexed
    expect(names).not.toContain('their-cats.txt'); // another namespace
    expect(names).not.toContain('reef.txt'); // nothing in common
    const kittens = reply.similar[0];
    expect(kittens.score).toBeGreaterThan(0.5);
    expect(kittens.score).toBeLessThan(1);
    expect(kittens.signals).toMatchObject({ embedding: expect.any(Number), authors: 0.6667, keyphrases: expect.any(Number) }); // Lovelace shared, Turing not
    expect(kittens.signals?.keyphrases).toBeGreaterThan(0); // "domestic cats" meets "domestic cat"
    for (let i = 1; i < reply.similar.length; i++) expect(reply.similar[i - 1].score).toBeGreaterThanOrEqual(reply.similar[i].score);
    expect((await bySource(ns, { id: ids.cats }, 1, 0)).similar).toHaveLength(1);
  });

  it('never matches a file of another namespace, by id or DOI', async () => {
    expect(await bySource(ns, { id: ids.theirs })).toEqual({ source: null, matchedBy: null, similar: [] });
    expect((await bySource(ns, { doi: '10.5555/theirs' })).source).toBeNull();
    expect((await bySource(other, { id: ids.cats })).source).toBeNull();
    const theirs = await bySource(other, { id: ids.theirs }, 10, 0);
    expect(theirs.similar).toEqual([]);
  });

  it('matches a DOI written in any form, and falls back from an unknown id to the DOI', async () => {
    for (const doi of ['10.5555/cats.2020', 'https://doi.org/10.5555/CATS.2020', 'doi:10.5555/cats.2020']) {
      const reply = await bySource(ns, { doi });
      expect([reply.matchedBy, reply.source?.fileId]).toEqual(['doi', ids.cats]);
    }
    expect((await bySource(ns, { id: randomUUID(), doi: '10.5555/cats.2020' })).matchedBy).toBe('doi');
    expect((await bySource(ns, { doi: '10.5555/unknown' })).source).toBeNull();
  });

  it('matches an open-access id in the file name, the DOI arXiv registers, or the first text, not in the references', async () => {
    for (const openAccessId of ['2305.03393', 'arXiv:2305.03393v2']) {
      expect((await bySource(ns, { openAccessId })).source?.fileId).toBe(ids.cars);
    }
    expect((await bySource(ns, { doi: '10.48550/arXiv.2305.03393' })).source?.fileId).toBe(ids.cars);
    expect((await bySource(ns, { openAccessId: '2305.0339' })).source).toBeNull(); // a prefix is another id
    const reef = await bySource(ns, { openAccessId: 'pmc7000123' });
    expect([reef.matchedBy, reef.source?.fileId]).toEqual(['openAccessId', ids.ocean]);
    expect((await bySource(ns, { openAccessId: 'PMC7999999' })).source).toBeNull(); // cited at line 900
    expect((await bySource(ns, { openAccessId: '1111.22222' })).source).toBeNull();
  });
});

describe('indexing.similar.by-work', () => {
  const ns = randomUUID();
  let cats: string;
  let own: string;

  beforeAll(async () => {
    cats = await addFile(ns, {
      name: 'cats.txt',
      paragraphs: ['Cats and kittens.', 'Feline whiskers.'],
      title: 'Feline behaviour',
      authors: ['Ada Lovelace'],
      keyphrases: ['feline behaviour'],
    });
    await addFile(ns, {
      name: 'cars.txt',
      paragraphs: ['Cars and engines.'],
      title: 'Engines',
      authors: ['Henry Ford'],
      keyphrases: ['car engine'],
    });
    own = await addFile(ns, { name: 'the-work.txt', paragraphs: ['Marine waves.'], title: 'Waves', doi: '10.7554/elife.56337' });
  });

  it("ranks files against the work's embedded title and abstract, authors and keywords", async () => {
    const reply = await rpc.call(
      SimilarFilesByWork,
      {
        title: 'Whiskers of cats',
        abstract: 'We study feline kittens.',
        authors: ['Lovelace, Ada'],
        keywords: ['Feline behaviour'],
        limit: 10,
        minScore: 0.3,
      },
      ctxOf(ns),
    );
    expect(reply.source).toBeNull();
    expect(reply.similar.map((f) => f.fileId)).toEqual([cats]);
    expect(reply.similar[0].signals).toMatchObject({ authors: 1, keyphrases: 1, embedding: expect.any(Number) });
  });

  it("recognises a file carrying the work's DOI as the work itself", async () => {
    const reply = await rpc.call(
      SimilarFilesByWork,
      { title: 'Ocean waves', authors: [], keywords: [], doi: '10.7554/eLife.56337', limit: 10, minScore: 0.9 },
      ctxOf(ns),
    );
    expect(reply.source).toMatchObject({ fileId: own, isSource: true, score: 1 });
    expect(reply.similar.map((f) => f.fileId)).not.toContain(own);
  });
});

describe('document vectors kept with the files', () => {
  const ns = randomUUID();

  it('follows a reindexed file’s new text and forgets a deleted file', async () => {
    const cats = await addFile(ns, { name: 'cats.txt', paragraphs: ['Cats and kittens.', 'Feline whiskers.'] });
    const other = await addFile(ns, { name: 'other.txt', paragraphs: ['Kittens and cats.'] });
    const signal = async () => (await bySource(ns, { id: cats }, 10, 0)).similar.find((f) => f.fileId === other)?.signals?.embedding;
    expect(await signal()).toBeGreaterThan(0.9);

    // Reindexed as a text about cars: a new generation's nodes and vectors, then the reparse's clean-up of the old ones.
    const nodeId = randomUUID();
    await ds.query(
      `INSERT INTO nodes (file_id, generation, id, parent_id, ordinal, type, text, positions) VALUES ($1, 2, $2, NULL, 0, 'paragraph', $3, '[]')`,
      [other, nodeId, 'Cars and engines.'],
    );
    await ds.query('UPDATE files SET current_generation = 2 WHERE id = $1', [other]);
    const [vector] = await embedder.embed(['Cars and engines.']);
    await store.upsert(ns, [{ nodeId, fileId: other, vector }]);
    await new NodeStoreRepository(ds, new IndexationStateRepository(ds)).deleteVectorsOfReplacedNodes(other, 2);
    expect(await signal()).toBeLessThan(0.1);

    await ds.query('DELETE FROM files WHERE id = $1', [other]);
    expect(await ds.query('SELECT file_id FROM document_embeddings WHERE namespace_id = $1', [ns])).toEqual([{ file_id: cats }]);
  });
});

// conceptId is what gives files and remote works the same concept ids.
it('gives a keyphrase the same concept id everywhere', () => {
  expect(conceptId('keyphrase', 'Feline behaviour')).toEqual(conceptId('keyphrase', 'feline behaviour'));
});
