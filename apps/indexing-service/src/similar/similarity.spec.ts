import 'reflect-metadata';
import { MeanVector } from '@docintel/ai';
import type { OntologyDto } from '@docintel/contracts';
import { authorKey, factsOf, profileOf, rank, shownOntologies, similarity, titleWords, type DocumentProfile } from './similarity';

const vec = (...xs: number[]) => {
  const m = new MeanVector();
  m.add(xs);
  return m.result();
};

const profile = (p: Partial<{ vector: Float32Array | null; title: string; authors: string[]; keyphrases: string[] }>): DocumentProfile =>
  profileOf({ title: p.title, authors: p.authors ?? [], keyphrases: p.keyphrases ?? [] }, p.vector ?? null);

describe('similarity signals', () => {
  it('reads title words without case, accents or stop words', () => {
    expect([...titleWords('The Évolution of the Word Processor')]).toEqual(['evolution', 'word', 'processor']);
  });

  it('meets spellings of one author', () => {
    expect(authorKey('Gernot Wolf')).toBe('wolf g');
    expect(authorKey('Wolf, Gernot')).toBe('wolf g');
    expect(authorKey('G. Wolf')).toBe('wolf g');
    expect(authorKey('Alberto de Iaco')).toBe('iaco a');
  });

  it('averages node vectors into a unit document vector', () => {
    const m = new MeanVector();
    m.add([1, 0]);
    m.add([0, 1]);
    const v = m.result() as Float32Array;
    expect(v[0]).toBeCloseTo(Math.SQRT1_2);
    expect(v[1]).toBeCloseTo(Math.SQRT1_2);
    expect(new MeanVector().result()).toBeNull();
  });
});

describe('similarity', () => {
  const paper = profile({
    vector: vec(1, 0.1, 0),
    title: 'Dense Passage Retrieval for Open-Domain Question Answering',
    authors: ['Vladimir Karpukhin', 'Danqi Chen'],
    keyphrases: ['passage retrieval', 'question answering', 'dense vectors'],
  });

  it('is 1 for the same document and ranks a related one above an unrelated one', () => {
    expect(similarity(paper, paper).score).toBe(1);
    const related = profile({
      vector: vec(0.9, 0.3, 0),
      title: 'Passage Retrieval with Dense Vectors',
      authors: ['Danqi Chen'],
      keyphrases: ['passage retrievals'],
    });
    const unrelated = profile({
      vector: vec(0, 0.1, 1),
      title: 'The Evolution of the Word Processor',
      authors: ['Jane Doe'],
      keyphrases: ['word processor'],
    });
    const r = similarity(paper, related);
    const u = similarity(paper, unrelated);
    expect(r.score).toBeGreaterThan(u.score);
    expect(r.signals).toMatchObject({ authors: expect.any(Number), keyphrases: expect.any(Number) });
    expect(r.signals.keyphrases).toBeGreaterThan(0); // the plural meets the singular
    expect(u.signals.title).toBe(0);
  });

  it('leaves a signal out of the mean when a side lacks it, instead of counting it as 0', () => {
    const noVector = profile({
      title: 'Dense Passage Retrieval for Open-Domain Question Answering',
      authors: ['Vladimir Karpukhin', 'Danqi Chen'],
    });
    const s = similarity(paper, noVector);
    expect(s.signals.embedding).toBeUndefined();
    expect(s.score).toBe(1); // title and authors identical; keyphrases unknown
    expect(similarity(profile({}), profile({})).score).toBe(0);
  });

  it('ranks best first, drops candidates below the minimum, and keeps at most limit', () => {
    const a = { item: 'a', profile: profile({ vector: vec(1, 0, 0) }) };
    const b = { item: 'b', profile: profile({ vector: vec(0.7, 0.7, 0) }) };
    const c = { item: 'c', profile: profile({ vector: vec(0, 0, 1) }) };
    const source = profile({ vector: vec(1, 0, 0) });
    expect(rank(source, [c, b, a], 10, 0.1).map((r) => r.item)).toEqual(['a', 'b']);
    expect(rank(source, [c, b, a], 1, 0).map((r) => r.item)).toEqual(['a']);
  });
});

describe('ontology facts', () => {
  const ontologies: OntologyDto[] = [
    {
      conceptId: { id: '1', entityType: 'CONCEPT_NOTE' },
      name: 'Document metadata',
      metas: {
        title: { metaName: 'title', metaValue: 'KRAB zinc finger genes' },
        authors: { metaName: 'authors', metaValue: ['Gernot Wolf', 'Ming-An Sun'] },
        doi: { metaName: 'doi', metaValue: '10.7554/elife.56337' },
      },
    },
    {
      conceptId: { id: '2', entityType: 'CONCEPT_NOTE' },
      name: 'zinc finger',
      metas: { type: { metaName: 'type', metaValue: 'KEYPHRASE' } },
    },
    { conceptId: { id: '3', entityType: 'CONCEPT_NOTE' }, name: 'Gernot Wolf', metas: { type: { metaName: 'type', metaValue: 'PERSON' } } },
  ];

  it('reads title, authors, DOI and keyphrases, and shows the metadata and keyphrases only', () => {
    expect(factsOf(ontologies)).toEqual({
      title: 'KRAB zinc finger genes',
      authors: ['Gernot Wolf', 'Ming-An Sun'],
      doi: '10.7554/elife.56337',
      keyphrases: ['zinc finger'],
    });
    expect(shownOntologies(ontologies, 12).map((o) => o.name)).toEqual(['Document metadata', 'zinc finger']);
  });
});
