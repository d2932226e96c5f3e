import { TokenCache } from './token-cache';

describe('TokenCache', () => {
  let now = 0;
  const clock = () => now;
  beforeEach(() => (now = 1_000_000));

  it('serves a found value for ttlMs, then reads it again', async () => {
    const cache = new TokenCache<string>(1000, 10, clock);
    const load = jest.fn(async () => 'row');
    expect(await cache.get('t', load)).toBe('row');
    now += 999;
    expect(await cache.get('t', load)).toBe('row');
    expect(load).toHaveBeenCalledTimes(1);
    now += 1;
    await cache.get('t', load);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('loads a key once for concurrent requests, and keeps nothing that was not found', async () => {
    const cache = new TokenCache<string>(1000, 10, clock);
    let release!: (v: string | undefined) => void;
    const load = jest.fn(() => new Promise<string | undefined>((r) => (release = r)));
    const both = Promise.all([cache.get('t', load), cache.get('t', load)]);
    release(undefined);
    expect(await both).toEqual([undefined, undefined]);
    expect(load).toHaveBeenCalledTimes(1);
    expect(cache.size).toBe(0);
  });

  it('forgets an evicted key at once, even one whose load was running when the eviction came', async () => {
    const cache = new TokenCache<string>(1000, 10, clock);
    await cache.get('t', async () => 'old');
    cache.evict('t');
    expect(await cache.get('t', async () => 'new')).toBe('new');

    let release!: (v: string) => void;
    const slow = cache.get('u', () => new Promise<string>((r) => (release = r)));
    cache.evict('u');
    release('read before the revocation');
    await slow;
    expect(await cache.get('u', async () => 'fresh')).toBe('fresh');
  });

  it('holds at most maxEntries, dropping the oldest; ttl 0 never caches', async () => {
    const cache = new TokenCache<string>(1000, 2, clock);
    for (const k of ['a', 'b', 'c']) await cache.get(k, async () => k);
    expect(cache.size).toBe(2);
    const load = jest.fn(async () => 'a2');
    expect(await cache.get('a', load)).toBe('a2');
    const off = new TokenCache<string>(0, 10, clock);
    const each = jest.fn(async () => 'x');
    await off.get('t', each);
    await off.get('t', each);
    expect(each).toHaveBeenCalledTimes(2);
  });
});
