import { fuseRrf, type RankedItem } from './rrf';
import { fuseScores } from './score-fusion';

const scored = (...items: Array<[string, number]>): RankedItem[] => items.map(([id, score]) => ({ id, score }));
const ids = (items: RankedItem[]): string[] => items.map((i) => i.id);
const byId = (items: RankedItem[]): Record<string, number> => Object.fromEntries(items.map((i) => [i.id, i.score]));

describe('fuseScores', () => {
  it('with one ranking keeps its order, whatever the normalisation', () => {
    const ranking = scored(['b', 2], ['a', 7.5], ['c', -1]);
    for (const normalization of ['zscore', 'minmax'] as const) {
      expect(ids(fuseScores([ranking], { normalization }))).toEqual(['a', 'b', 'c']);
    }
  });

  it('z-scores: each ranking centred on its mean and scaled by its standard deviation', () => {
    const fused = byId(fuseScores([scored(['a', 3], ['b', 1])]));
    expect(fused.a).toBeCloseTo(1, 12);
    expect(fused.b).toBeCloseTo(-1, 12);
    // Scaling or shifting a ranking's scores changes nothing.
    const a = fuseScores([scored(['x', 10], ['y', 4], ['z', 1]), scored(['y', 0.9], ['z', 0.5])]);
    const b = fuseScores([scored(['x', 1000], ['y', 400], ['z', 100]), scored(['y', 90.9], ['z', 90.5])]);
    expect(ids(a)).toEqual(ids(b));
    a.forEach((item, i) => expect(item.score).toBeCloseTo(b[i].score, 9));
  });

  it('min-max: the best of a ranking counts 1, its last 0', () => {
    const fused = byId(fuseScores([scored(['a', 10], ['b', 6], ['c', 2])], { normalization: 'minmax' }));
    expect(fused).toEqual({ a: 1, b: 0.5, c: 0 });
  });

  it('keeps the gaps between scores, which rank fusion discards', () => {
    // x is far ahead lexically; the second ranking puts it just behind y.
    const lexical = scored(['x', 20], ['y', 6], ['z', 5.5], ['w', 5]);
    const dense = scored(['y', 0.8], ['x', 0.79], ['z', 0.2], ['w', 0.1]);
    const weights = [1, 1.5];
    for (const normalization of ['zscore', 'minmax'] as const) {
      expect(ids(fuseScores([lexical, dense], { weights, normalization })).slice(0, 2)).toEqual(['x', 'y']);
    }
    expect(ids(fuseRrf([lexical, dense], { k: 60, weights })).slice(0, 2)).toEqual(['y', 'x']);
  });

  it('counts an id a ranking did not return one unit below the lowest it returned', () => {
    const fused = byId(fuseScores([scored(['a', 4], ['b', 2]), scored(['c', 1], ['a', 0])], { normalization: 'minmax' }));
    // a: 1 + 0; b: 0 + (0 − 1), absent from the second; c: (0 − 1), absent from the first, + 1.
    expect(fused).toEqual({ a: 1, b: -1, c: 0 });
    // z-scores: one standard deviation below the lowest (the second ranking, all equal, counts 0 for
    // what it returned and −1 for the rest).
    const z = byId(fuseScores([scored(['a', 3], ['b', 1]), scored(['c', 5], ['a', 5])]));
    expect(z.a).toBeCloseTo(1 + 0, 12);
    expect(z.b).toBeCloseTo(-1 + (0 - 1), 12);
    expect(z.c).toBeCloseTo(-1 - 1 + 0, 12);
    // An absent id is never better off than the last one returned, all else equal.
    const missing = byId(fuseScores([scored(['a', 4], ['b', 2], ['c', 1]), scored(['a', 5], ['b', 3])]));
    expect(missing.c).toBeLessThan(missing.b);
  });

  it('applies a weight per ranking; a zero weight leaves its ids in at no score of its own', () => {
    const first = scored(['a', 2], ['b', 1]);
    const second = scored(['b', 2], ['a', 1], ['z', 0]);
    expect(ids(fuseScores([first, second], { weights: [1, 3], normalization: 'minmax' })).slice(0, 2)).toEqual(['b', 'a']);
    expect(ids(fuseScores([first, second], { weights: [3, 1], normalization: 'minmax' })).slice(0, 2)).toEqual(['a', 'b']);
    const zeroed = fuseScores([first, second], { weights: [1, 0] });
    expect(ids(zeroed)).toContain('z');
    expect(ids(zeroed)[0]).toBe('a');
  });

  it('ranks the items of a ranking with equal scores together, above the ids it did not return', () => {
    const fused = byId(fuseScores([scored(['b', 5], ['a', 5]), scored(['c', 1], ['d', 1])]));
    expect(fused.a).toBe(fused.b);
    expect(fused.c).toBe(fused.d);
    expect(fused.a).toBe(fused.c);
    // Ties are ordered by best rank (by score, then the order given), then by id.
    expect(ids(fuseScores([scored(['b', 5], ['a', 5]), scored(['c', 1], ['d', 1])]))).toEqual(['b', 'c', 'a', 'd']);
    // The only lexical match stays ahead of what the dense leg alone returns, however it ranks there.
    for (const normalization of ['zscore', 'minmax'] as const) {
      const single = fuseScores([scored(['match', 3.2]), scored(['other', 0.9], ['x', 0.5], ['match', 0.1])], {
        normalization,
        weights: [1, 0.3],
      });
      expect(ids(single)[0]).toBe('match');
    }
  });

  it('counts an id listed twice in one ranking once, at its best score', () => {
    const fused = fuseScores([scored(['a', 1], ['b', 3], ['a', 5])], { normalization: 'minmax' });
    expect(fused).toEqual([
      { id: 'a', score: 1 },
      { id: 'b', score: 0 },
    ]);
  });

  it('handles empty rankings and validates its options', () => {
    expect(fuseScores([])).toEqual([]);
    expect(ids(fuseScores([[], scored(['a', 1], ['b', 0])]))).toEqual(['a', 'b']);
    expect(() => fuseScores([scored(['a', 1])], { weights: [1, 1] })).toThrow('2 weights for 1 rankings');
    expect(() => fuseScores([scored(['a', 1])], { weights: [-1] })).toThrow('weights');
    expect(() => fuseScores([scored(['a', 1])], { normalization: 'rank' as never })).toThrow('normalization');
    expect(() => fuseScores([scored(['a', Number.NaN])])).toThrow('finite');
  });
});
