import { TopK, dot, normalize, toBytes } from './vector-math';

describe('vector math', () => {
  it('normalises to unit length and refuses zero or non-finite vectors', () => {
    const v = normalize([3, 4]);
    expect(Array.from(v)).toEqual([Math.fround(0.6), Math.fround(0.8)]);
    expect(dot(v, v)).toBeCloseTo(1, 6);
    expect(() => normalize([0, 0])).toThrow(RangeError);
    expect(() => normalize([NaN, 1])).toThrow(RangeError);
  });

  it('encodes a vector as its float32 bytes', () => {
    const bytes = toBytes(Float32Array.from([1, -2]));
    expect(bytes).toHaveLength(8);
    expect([bytes.readFloatLE(0), bytes.readFloatLE(4)]).toEqual([1, -2]);
  });

  it('keeps the k best of a stream, best first', () => {
    const top = new TopK<string>(3);
    const scores = [0.1, 0.9, -0.5, 0.7, 0.3, 0.95, 0.2];
    scores.forEach((s, i) => top.offer(s, `n${i}`));
    expect(top.sorted()).toEqual([
      { score: 0.95, item: 'n5' },
      { score: 0.9, item: 'n1' },
      { score: 0.7, item: 'n3' },
    ]);
    expect(top.threshold).toBe(0.7);
    expect(new TopK<string>(2).threshold).toBe(-Infinity);
  });
});
