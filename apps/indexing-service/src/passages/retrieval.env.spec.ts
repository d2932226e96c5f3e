import 'reflect-metadata';
import { loadConfig } from '@docintel/config';
import { DEFAULT_HYBRID, HYBRID_FUSIONS, RECOMMENDED_BM25 } from '@docintel/retrieval';
import { RetrievalEnv } from './retrieval.env';

describe('RetrievalEnv', () => {
  it('defaults to the parameters tuned on SciFact train', () => {
    const env = loadConfig(RetrievalEnv, {});
    expect([env.RETRIEVAL_BM25_K1, env.RETRIEVAL_BM25_B]).toEqual([RECOMMENDED_BM25.k1, RECOMMENDED_BM25.b]);
    expect(env.RETRIEVAL_FUSION).toBe(DEFAULT_HYBRID.fusion);
    expect([env.RETRIEVAL_LEXICAL_WEIGHT, env.RETRIEVAL_DENSE_WEIGHT, env.RETRIEVAL_RRF_K, env.RETRIEVAL_CANDIDATES]).toEqual([
      DEFAULT_HYBRID.lexicalWeight,
      DEFAULT_HYBRID.denseWeight,
      DEFAULT_HYBRID.rrfK,
      DEFAULT_HYBRID.candidates,
    ]);
  });

  it('reads numbers and refuses bad values, naming the variable', () => {
    expect(loadConfig(RetrievalEnv, { RETRIEVAL_DENSE_WEIGHT: '0.5', RETRIEVAL_RRF_K: '60' })).toMatchObject({
      RETRIEVAL_DENSE_WEIGHT: 0.5,
      RETRIEVAL_RRF_K: 60,
    });
    expect(() => loadConfig(RetrievalEnv, { RETRIEVAL_BM25_B: '1.5' })).toThrow(/RETRIEVAL_BM25_B/);
    expect(() => loadConfig(RetrievalEnv, { RETRIEVAL_DENSE_WEIGHT: 'lots' })).toThrow(/RETRIEVAL_DENSE_WEIGHT/);
  });

  it('takes any fusion method HybridPassageSearch has, and refuses others', () => {
    for (const fusion of HYBRID_FUSIONS) expect(loadConfig(RetrievalEnv, { RETRIEVAL_FUSION: fusion }).RETRIEVAL_FUSION).toBe(fusion);
    expect(() => loadConfig(RetrievalEnv, { RETRIEVAL_FUSION: 'combmnz' })).toThrow(/RETRIEVAL_FUSION/);
  });
});
