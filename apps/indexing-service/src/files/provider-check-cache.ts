import type { ProviderDto } from '@docintel/contracts';

/**
 * Providers storage-service has shown a namespace, kept for a short time so that listing a
 * provider's files does not cost a NATS round trip to storage-service per page. The catalogue is
 * configuration (it changes only when a storage-service replica starts with a new PROVIDERS_FILE),
 * so an answer a second old is good enough for a check. Only answers are kept: a refusal (403,
 * 404) or a failure is asked again next time.
 */
export class ProviderCheckCache {
  private readonly entries = new Map<string, { provider: ProviderDto; at: number }>();

  constructor(
    private readonly ttlMs = 1000,
    private readonly maxEntries = 4096,
    private readonly now: () => number = Date.now,
  ) {}

  /** The provider as `namespace` last saw it within ttlMs, or the loader's answer. */
  async get(namespace: string, providerId: string, load: () => Promise<ProviderDto>): Promise<ProviderDto> {
    const key = `${namespace}\u0000${providerId}`;
    const hit = this.entries.get(key);
    if (hit && this.now() - hit.at < this.ttlMs) return hit.provider;
    const started = this.now();
    const provider = await load();
    // Entries are kept in load order, so the first one is the stalest: drop it to make room.
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, { provider, at: started });
    return provider;
  }

  get size(): number {
    return this.entries.size;
  }
}
