import type { PassageReranker } from '@docintel/answering';
import type { PassageDto } from '@docintel/contracts';
import { PassageRanking } from './passage-ranking';

const passage = (id: string, text: string, score: number): PassageDto => ({
  id,
  fileId: 'f',
  fileName: 'f.txt',
  nodeType: 'paragraph',
  text,
  headings: [],
  segments: [],
  score,
});

describe('PassageRanking', () => {
  const passages = [passage('a', 'alpha', 0.9), passage('b', 'beta', 0.5), passage('c', 'gamma', 0.1)];

  it('keeps the retrieval order without a reranker', async () => {
    expect(await new PassageRanking(null).rank('q', passages)).toBe(passages);
  });

  it("reorders by the cross-encoder's scores, which become the passages' scores", async () => {
    const seen: string[][] = [];
    const reranker: PassageReranker = {
      name: 'test',
      rerank: (_q, texts) => {
        seen.push([...texts]);
        return Promise.resolve([-2, 3, 0]);
      },
      close: () => Promise.resolve(),
    };
    const ranked = await new PassageRanking(reranker).rank('which?', passages);
    expect(seen).toEqual([['alpha', 'beta', 'gamma']]);
    expect(ranked.map((p) => p.id)).toEqual(['b', 'c', 'a']);
    expect(ranked[1].score).toBeCloseTo(0.5);
  });
});
