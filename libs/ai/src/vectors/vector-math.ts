/** Vectors travel to and from Postgres as little-endian float32 bytes (the byte order of x86 and ARM). */

/** The vector scaled to length 1, so that cosine similarity is a plain dot product. */
export function normalize(vector: ArrayLike<number>): Float32Array {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += vector[i] * vector[i];
  const norm = Math.sqrt(sum);
  if (!Number.isFinite(norm) || norm === 0) throw new RangeError('a vector must be finite and not all zeros');
  const out = new Float32Array(vector.length);
  for (let i = 0; i < vector.length; i++) out[i] = vector[i] / norm;
  return out;
}

export function toBytes(vector: Float32Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
}

export function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

/** Keeps the k best-scoring items seen so far in a min-heap: O(n log k) over a stream. */
export class TopK<T> {
  private readonly heap: { score: number; item: T }[] = [];

  constructor(private readonly k: number) {}

  /** The score an item must beat to enter; -Infinity until k items are held. */
  get threshold(): number {
    return this.heap.length < this.k ? -Infinity : this.heap[0].score;
  }

  offer(score: number, item: T): void {
    if (this.k <= 0) return;
    const h = this.heap;
    if (h.length < this.k) {
      h.push({ score, item });
      let i = h.length - 1;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (h[p].score <= h[i].score) break;
        [h[p], h[i]] = [h[i], h[p]];
        i = p;
      }
      return;
    }
    if (score <= h[0].score) return;
    h[0] = { score, item };
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && h[l].score < h[m].score) m = l;
      if (r < h.length && h[r].score < h[m].score) m = r;
      if (m === i) break;
      [h[m], h[i]] = [h[i], h[m]];
      i = m;
    }
  }

  /** Best first. */
  sorted(): { score: number; item: T }[] {
    return [...this.heap].sort((a, b) => b.score - a.score);
  }
}

/** Sums vectors into a mean and normalises it; null for none or an all-zero mean. */
export class MeanVector {
  private sum: Float64Array | null = null;
  private count = 0;

  add(v: ArrayLike<number>): void {
    if (!this.sum) this.sum = new Float64Array(v.length);
    if (v.length !== this.sum.length) return;
    for (let i = 0; i < v.length; i++) this.sum[i] += v[i];
    this.count++;
  }

  result(): Float32Array | null {
    if (!this.sum || !this.count) return null;
    let norm = 0;
    for (const x of this.sum) norm += x * x;
    norm = Math.sqrt(norm);
    if (!Number.isFinite(norm) || norm === 0) return null;
    return Float32Array.from(this.sum, (x) => x / norm);
  }
}
