import type { Passage, PassageHit, PassageRetriever, PassageSearchOptions } from '../passage-retriever';
import { HybridPassageSearch, type DenseHit } from './hybrid-passage-search';

/** A retriever answering a fixed ranking, recording what it was asked. */
class FixedRetriever implements PassageRetriever {
  calls: Array<{ namespaceId: string; query: string; options: PassageSearchOptions }> = [];
  constructor(private readonly hits: PassageHit[]) {}
  index(_n: string, _f: string, _p: Passage[]): Promise<void> {
    return Promise.resolve();
  }
  add(_n: string, _f: string, _p: Passage[]): Promise<void> {
    return Promise.resolve();
  }
  removePassages(): Promise<void> {
    return Promise.resolve();
  }
  remove(): Promise<void> {
    return Promise.resolve();
  }
  search(namespaceId: string, query: string, options: PassageSearchOptions): Promise<PassageHit[]> {
    this.calls.push({ namespaceId, query, options });
    const allowed = options.fileIds ? new Set(options.fileIds) : null;
    return Promise.resolve(this.hits.filter((h) => !allowed || allowed.has(h.fileId)).slice(0, options.limit));
  }
}

const hit = (nodeId: string, score: number, fileId = 'f1'): PassageHit => ({ nodeId, fileId, score });

describe('HybridPassageSearch', () => {
  const lexical = [hit('a', 9), hit('b', 7), hit('c', 5)];
  const dense: DenseHit[] = [hit('b', 0.9), hit('d', 0.8, 'f2'), hit('a', 0.1)];
  const vectors = jest.fn((_ns: string, _v: ArrayLike<number>, o: { k: number; fileIds?: string[] }) =>
    Promise.resolve(dense.filter((h) => !o.fileIds || o.fileIds.includes(h.fileId)).slice(0, o.k)),
  );
  const embedQuery = jest.fn((_q: string) => Promise.resolve([1, 0]));

  beforeEach(() => jest.clearAllMocks());

  it('fuses the two rankings by weighted reciprocal rank', async () => {
    const retriever = new FixedRetriever(lexical);
    const search = new HybridPassageSearch({
      retriever,
      vectors,
      embedQuery,
      parameters: { fusion: 'rrf', lexicalWeight: 1, denseWeight: 1, rrfK: 60 },
    });
    const { hits, denseError } = await search.search('ns', 'query', { limit: 10, fileIds: ['f1', 'f2'] });
    expect(denseError).toBeUndefined();
    // b: 1/62 + 1/61; a: 1/61 + 1/63; d: 1/62; c: 1/63.
    expect(hits.map((h) => h.nodeId)).toEqual(['b', 'a', 'd', 'c']);
    expect(hits[0].score).toBeCloseTo(1 / 62 + 1 / 61, 12);
    expect(hits[0]).toMatchObject({ fileId: 'f1', lexical: { rank: 2, score: 7 }, dense: { rank: 1, score: 0.9 } });
    expect(hits[2]).toEqual({ nodeId: 'd', fileId: 'f2', score: 1 / 62, dense: { rank: 2, score: 0.8 } });
    expect(retriever.calls[0]).toEqual({ namespaceId: 'ns', query: 'query', options: { limit: 100, fileIds: ['f1', 'f2'] } });
    expect(vectors).toHaveBeenCalledWith('ns', [1, 0], { k: 100, fileIds: ['f1', 'f2'] });
  });

  it('fuses by normalised scores by default, keeping the gaps between lexical scores', async () => {
    // BM25 puts x far ahead of the rest; the dense leg puts it just behind y.
    const far = [hit('x', 20), hit('y', 6), hit('z', 5.5), hit('w', 5)];
    const denseOrder: DenseHit[] = [hit('y', 0.8), hit('x', 0.79), hit('z', 0.2), hit('w', 0.1)];
    const denseOnly = jest.fn(() => Promise.resolve(denseOrder));
    const parameters = { lexicalWeight: 1, denseWeight: 1.5, rrfK: 60 };
    const scoreFused = new HybridPassageSearch({ retriever: new FixedRetriever(far), vectors: denseOnly, embedQuery, parameters });
    expect(scoreFused.parameters.fusion).toBe('zscore');
    const byScores = (await scoreFused.search('ns', 'q', { limit: 10 })).hits;
    expect(byScores.map((h) => h.nodeId)).toEqual(['x', 'y', 'z', 'w']);
    expect(byScores[0]).toMatchObject({ lexical: { rank: 1, score: 20 }, dense: { rank: 2, score: 0.79 } });
    // By ranks alone the same weights let the dense leg lift y over x.
    const rankFused = new HybridPassageSearch({
      retriever: new FixedRetriever(far),
      vectors: denseOnly,
      embedQuery,
      parameters: { ...parameters, fusion: 'rrf' },
    });
    expect((await rankFused.search('ns', 'q', { limit: 10 })).hits.map((h) => h.nodeId)).toEqual(['y', 'x', 'z', 'w']);
    const minmax = new HybridPassageSearch({
      retriever: new FixedRetriever(far),
      vectors: denseOnly,
      embedQuery,
      parameters: { ...parameters, fusion: 'minmax' },
    });
    expect((await minmax.search('ns', 'q', { limit: 10 })).hits.map((h) => h.nodeId)).toEqual(['x', 'y', 'z', 'w']);
  });

  it('weights the rankings', async () => {
    const search = new HybridPassageSearch({
      retriever: new FixedRetriever(lexical),
      vectors,
      embedQuery,
      parameters: { fusion: 'rrf', lexicalWeight: 1, denseWeight: 0.2, rrfK: 60 },
    });
    const { hits } = await search.search('ns', 'q', { limit: 2 });
    expect(hits.map((h) => h.nodeId)).toEqual(['a', 'b']);
  });

  it('keeps only the lexical hits when dense is false, still reordered by the vectors', async () => {
    const search = new HybridPassageSearch({ retriever: new FixedRetriever(lexical), vectors, embedQuery, parameters: { denseWeight: 1 } });
    const { hits } = await search.search('ns', 'q', { limit: 10, dense: false });
    expect(hits.map((h) => h.nodeId)).toEqual(['b', 'a', 'c']);
  });

  it('is lexical only without a dense leg, and finds nothing in no files', async () => {
    const retriever = new FixedRetriever(lexical);
    const search = new HybridPassageSearch({ retriever });
    expect(search.hasDense).toBe(false);
    const { hits } = await search.search('ns', 'q', { limit: 2 });
    expect(hits.map((h) => [h.nodeId, h.lexical?.rank])).toEqual([
      ['a', 1],
      ['b', 2],
    ]);
    expect((await search.search('ns', 'q', { limit: 2, fileIds: [] })).hits).toEqual([]);
    expect(retriever.calls).toHaveLength(1);
  });

  it('goes on with the lexical ranking when the dense leg fails, or throws when told to', async () => {
    const failing = jest.fn(() => Promise.reject(new Error('embedder down')));
    const degrade = new HybridPassageSearch({ retriever: new FixedRetriever(lexical), vectors, embedQuery: failing });
    const result = await degrade.search('ns', 'q', { limit: 10 });
    expect(result.denseError?.message).toBe('embedder down');
    expect(result.hits.map((h) => h.nodeId)).toEqual(['a', 'b', 'c']);
    const strict = new HybridPassageSearch({
      retriever: new FixedRetriever(lexical),
      vectors,
      embedQuery: failing,
      onDenseFailure: 'throw',
    });
    await expect(strict.search('ns', 'q', { limit: 10 })).rejects.toThrow('embedder down');
  });

  it('asks each ranking for at least the limit, and validates its parameters', async () => {
    const retriever = new FixedRetriever(lexical);
    const search = new HybridPassageSearch({ retriever, vectors, embedQuery, parameters: { candidates: 20 } });
    await search.search('ns', 'q', { limit: 150 });
    expect(retriever.calls[0].options.limit).toBe(150);
    expect(vectors.mock.calls[0][2]).toEqual({ k: 150, fileIds: undefined });
    await expect(search.search('ns', 'q', { limit: 0 })).rejects.toThrow('limit must be');
    expect(() => new HybridPassageSearch({ retriever, parameters: { denseWeight: -1 } })).toThrow('weights');
    expect(() => new HybridPassageSearch({ retriever, parameters: { candidates: 0 } })).toThrow('candidates');
    expect(() => new HybridPassageSearch({ retriever, parameters: { fusion: 'combmnz' as never } })).toThrow('fusion must be one of');
  });
});
