import { decodeWindow, tokenWindows } from './span-decoding';

describe('tokenWindows', () => {
  it('covers every token with windows that overlap by the stride', () => {
    expect(tokenWindows(10, 4, 2)).toEqual([
      { from: 0, to: 4 },
      { from: 2, to: 6 },
      { from: 4, to: 8 },
      { from: 6, to: 10 },
    ]);
    expect(tokenWindows(3, 384, 128)).toEqual([{ from: 0, to: 3 }]);
    // A stride as large as the window still moves forward.
    expect(tokenWindows(5, 2, 5)).toEqual([
      { from: 0, to: 2 },
      { from: 1, to: 3 },
      { from: 2, to: 4 },
      { from: 3, to: 5 },
    ]);
  });
});

describe('decodeWindow', () => {
  // [CLS] q q [SEP] p0 p1 p2 p3 [SEP]: the passage starts at position 4; the window is tokens 10..14 of the passage.
  const logits = (values: Record<number, number>) => Float32Array.from({ length: 9 }, (_, i) => values[i] ?? 0);
  const options = { passageOffset: 4, window: { from: 10, to: 14 }, maxAnswerTokens: 2 };

  it('takes the best start <= end inside the passage, in passage token numbers, with softmax probabilities', () => {
    const d = decodeWindow(logits({ 1: 20, 5: 5 }), logits({ 2: 20, 6: 5 }), options);
    // The question's tokens (1, 2) are never part of an answer.
    expect(d.spans[0]).toMatchObject({ startToken: 11, endToken: 12, score: 10 });
    expect(d.spans[0].probability).toBeGreaterThan(0.9);
    expect(d.nullScore).toBe(0);
  });

  it('respects the maximum answer length and never ends before it starts', () => {
    const d = decodeWindow(logits({ 4: 5, 7: 1 }), logits({ 4: 0, 7: 5 }), options);
    for (const s of d.spans) {
      expect(s.endToken).toBeGreaterThanOrEqual(s.startToken);
      expect(s.endToken - s.startToken + 1).toBeLessThanOrEqual(2);
    }
    expect(d.spans.find((s) => s.startToken === 10 && s.endToken === 13)).toBeUndefined();
  });

  it('reports the [CLS] "no answer" score', () => {
    const d = decodeWindow(logits({ 0: 9, 5: 2 }), logits({ 0: 9, 5: 2 }), options);
    expect(d.nullScore).toBe(18);
    expect(d.nullProbability).toBeGreaterThan(d.spans[0].probability);
    expect(d.spans[0].score).toBeLessThan(d.nullScore);
  });
});
