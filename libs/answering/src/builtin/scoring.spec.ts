import { keyOverlap, leastRisk, type Candidate } from './scoring';

const candidate = (key: string) => ({ key, text: key }) as unknown as Candidate;

describe('keyOverlap', () => {
  it('is the token F1 of two answers', () => {
    expect(keyOverlap(['nikola', 'tesla'], ['nikola', 'tesla'])).toBe(1);
    expect(keyOverlap(['tesla'], ['nikola', 'tesla'])).toBeCloseTo(2 / 3);
    expect(keyOverlap(['edison'], ['nikola', 'tesla'])).toBe(0);
    expect(keyOverlap([], [])).toBe(1);
    expect(keyOverlap([], ['tesla'])).toBe(0);
  });
});

describe('leastRisk', () => {
  it('prefers the answer that overlaps the likely ones to a likelier answer that overlaps none', () => {
    const ranked = [
      { candidate: candidate('1887'), probability: 0.36 },
      { candidate: candidate('nikola tesla'), probability: 0.32 },
      { candidate: candidate('tesla'), probability: 0.3 },
    ];
    const [first, ...rest] = leastRisk(ranked);
    expect(first.candidate.key).toBe('nikola tesla');
    // Its probability becomes the expected overlap: more than its own, at most 1.
    expect(first.probability).toBeGreaterThan(0.32);
    expect(first.probability).toBeLessThanOrEqual(1);
    expect(rest.map((r) => r.candidate.key)).toEqual(['1887', 'tesla']);
  });

  it('keeps a confident answer and a lone one', () => {
    const sure = [
      { candidate: candidate('paris'), probability: 0.9 },
      { candidate: candidate('france'), probability: 0.05 },
    ];
    expect(leastRisk(sure)[0].candidate.key).toBe('paris');
    expect(leastRisk(sure.slice(0, 1))).toEqual(sure.slice(0, 1));
  });
});
