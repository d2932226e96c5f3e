import { fuseRrf, type RankedItem } from './rrf';

const ranking = (...ids: string[]): RankedItem[] => ids.map((id, i) => ({ id, score: ids.length - i }));

describe('fuseRrf', () => {
  it('sums 1/(k + rank) over the rankings, with k = 60 by default', () => {
    const fused = fuseRrf([ranking('a', 'b', 'c'), ranking('b', 'c', 'd')]);
    expect(fused.map((f) => f.id)).toEqual(['b', 'c', 'a', 'd']);
    const byId = Object.fromEntries(fused.map((f) => [f.id, f.score]));
    expect(byId.a).toBeCloseTo(1 / 61, 12);
    expect(byId.b).toBeCloseTo(1 / 62 + 1 / 61, 12);
    expect(byId.c).toBeCloseTo(1 / 63 + 1 / 62, 12);
    expect(byId.d).toBeCloseTo(1 / 63, 12);
  });

  it('ranks by the given scores, not by position in the array', () => {
    const bm25 = [
      { id: 'x', score: 1.5 },
      { id: 'y', score: 7.25 },
    ];
    const fused = fuseRrf([bm25], { k: 0 });
    expect(fused).toEqual([
      { id: 'y', score: 1 },
      { id: 'x', score: 0.5 },
    ]);
  });

  it('applies a weight per ranking and a custom k', () => {
    const fused = fuseRrf([ranking('a', 'b'), ranking('b', 'a')], { k: 1, weights: [3, 1] });
    expect(fused).toEqual([
      { id: 'a', score: 3 / 2 + 1 / 3 },
      { id: 'b', score: 3 / 3 + 1 / 2 },
    ]);
    // A zero weight leaves a ranking's ids in the result, at score 0.
    expect(fuseRrf([ranking('a'), ranking('z')], { weights: [1, 0] })).toEqual([
      { id: 'a', score: 1 / 61 },
      { id: 'z', score: 0 },
    ]);
  });

  it('counts an id listed twice in one ranking once, at its best rank', () => {
    const fused = fuseRrf(
      [
        [
          { id: 'a', score: 9 },
          { id: 'b', score: 5 },
          { id: 'a', score: 1 },
        ],
      ],
      { k: 0 },
    );
    expect(fused).toEqual([
      { id: 'a', score: 1 },
      { id: 'b', score: 1 / 2 },
    ]);
  });

  it('orders equal fused scores by best rank, then by id, deterministically', () => {
    // z: 1/1 at rank 1; b: 2/2 at rank 2. Equal scores, z's best rank is better.
    expect(fuseRrf([ranking('z'), ranking('x', 'b')], { k: 0, weights: [1, 2] }).map((f) => f.id)).toEqual(['x', 'z', 'b']);
    // Same score and same best rank: by id.
    expect(fuseRrf([ranking('q', 'p'), ranking('p', 'q')]).map((f) => f.id)).toEqual(['p', 'q']);
    expect(fuseRrf([ranking('q'), ranking('p')]).map((f) => f.id)).toEqual(['p', 'q']);
  });

  it('handles no rankings and empty rankings', () => {
    expect(fuseRrf([])).toEqual([]);
    expect(fuseRrf([[], []])).toEqual([]);
  });

  it('rejects a bad k or bad weights', () => {
    expect(() => fuseRrf([ranking('a')], { k: -1 })).toThrow('k must be');
    expect(() => fuseRrf([ranking('a')], { weights: [1, 2] })).toThrow('2 weights for 1 rankings');
    expect(() => fuseRrf([ranking('a')], { weights: [Number.NaN] })).toThrow('weights must be');
  });
});
