/**
 * Verified access tokens, kept for a short time so that a burst of requests with one token costs
 * one database lookup. A revocation evicts the token at once on every gateway (a Postgres
 * notification, see TokenRevocations); the time limit bounds what a lost notification can cost.
 * Only tokens that were found are kept, so random tokens cannot fill the cache.
 */
export class TokenCache<T> {
  private readonly entries = new Map<string, { value: T; at: number }>();
  private readonly pending = new Map<string, Promise<T | undefined>>();

  constructor(
    /** How long an entry is trusted; 0 turns the cache off. */
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** The cached value, or the loader's (one load per key at a time); undefined is not kept. */
  async get(key: string, load: () => Promise<T | undefined>): Promise<T | undefined> {
    if (this.ttlMs <= 0) return load();
    const hit = this.entries.get(key);
    if (hit && this.now() - hit.at < this.ttlMs) return hit.value;
    if (hit) this.entries.delete(key);
    const running = this.pending.get(key);
    if (running) return running;
    const started = this.now();
    const loading = load().then((value) => {
      // A revocation that arrived while loading wins: the entry is only kept if nothing evicted it meanwhile.
      if (value !== undefined && this.pending.get(key) === loading) this.put(key, value, started);
      return value;
    });
    this.pending.set(key, loading);
    try {
      return await loading;
    } finally {
      if (this.pending.get(key) === loading) this.pending.delete(key);
    }
  }

  evict(key: string): void {
    this.entries.delete(key);
    this.pending.delete(key);
  }

  clear(): void {
    this.entries.clear();
    this.pending.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  private put(key: string, value: T, at: number): void {
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, { value, at });
  }
}
