/** A slice of a passage's tokens that fits one model input beside the question: [from, to). */
export interface TokenWindow {
  from: number;
  to: number;
}

/**
 * Windows over `count` tokens, at most `size` each, consecutive windows overlapping by `stride`
 * tokens (Hugging Face's doc_stride), so that an answer cut by one window's edge is whole in the next.
 */
export function tokenWindows(count: number, size: number, stride: number): TokenWindow[] {
  if (size < 1) throw new RangeError('a window holds at least one token');
  const windows: TokenWindow[] = [];
  const step = Math.max(1, size - Math.min(stride, size - 1));
  for (let from = 0; ; from += step) {
    const to = Math.min(count, from + size);
    windows.push({ from, to });
    if (to >= count) break;
  }
  return windows;
}

/** A span of one window's passage tokens: indexes into the passage's tokens, both inclusive. */
export interface SpanCandidate {
  startToken: number;
  endToken: number;
  /** start logit + end logit. */
  score: number;
  /** P(start) x P(end), each a softmax over [CLS] and the passage tokens of the window. */
  probability: number;
}

/** What the model said about one window. */
export interface WindowDecoding {
  /** The best spans, best first. */
  spans: SpanCandidate[];
  /** Score of the "no answer" span ([CLS] to [CLS]). */
  nullScore: number;
  nullProbability: number;
}

export interface SpanDecodingOptions {
  /** Position of the window's first passage token in the model input ([CLS] question [SEP] comes before it). */
  passageOffset: number;
  /** The window in the passage's tokens. */
  window: TokenWindow;
  /** Longest answer, in tokens. */
  maxAnswerTokens: number;
  /** Starts and ends considered (the best of each), as in Hugging Face's n_best_size. */
  topK?: number;
  /** Spans returned. */
  maxSpans?: number;
}

function topIndexes(values: Float32Array, from: number, to: number, k: number): number[] {
  const idx: number[] = [];
  for (let i = from; i < to; i++) idx.push(i);
  return idx.sort((a, b) => values[b] - values[a]).slice(0, k);
}

/**
 * Decodes one window of SQuAD-style start and end logits (one row, over the whole model input):
 * only spans inside the passage part, start <= end, at most maxAnswerTokens long, scored by the sum
 * of their logits, with probabilities from a softmax over [CLS] and the passage positions.
 */
export function decodeWindow(start: Float32Array, end: Float32Array, options: SpanDecodingOptions): WindowDecoding {
  const { passageOffset, window, maxAnswerTokens } = options;
  const first = passageOffset;
  const last = passageOffset + (window.to - window.from); // exclusive
  const positions = [0];
  for (let i = first; i < last; i++) positions.push(i);
  const logSoftmax = (logits: Float32Array): Map<number, number> => {
    const max = Math.max(...positions.map((i) => logits[i]));
    const sum = positions.reduce((s, i) => s + Math.exp(logits[i] - max), 0);
    return new Map(positions.map((i) => [i, logits[i] - max - Math.log(sum)]));
  };
  const ls = logSoftmax(start);
  const le = logSoftmax(end);
  const topK = options.topK ?? 20;
  const spans: SpanCandidate[] = [];
  for (const s of topIndexes(start, first, last, topK)) {
    for (const e of topIndexes(end, first, last, topK)) {
      if (e < s || e - s + 1 > maxAnswerTokens) continue;
      spans.push({
        startToken: window.from + s - first,
        endToken: window.from + e - first,
        score: start[s] + end[e],
        probability: Math.exp((ls.get(s) as number) + (le.get(e) as number)),
      });
    }
  }
  spans.sort((a, b) => b.score - a.score);
  return {
    spans: spans.slice(0, options.maxSpans ?? 5),
    nullScore: start[0] + end[0],
    nullProbability: Math.exp((ls.get(0) as number) + (le.get(0) as number)),
  };
}
