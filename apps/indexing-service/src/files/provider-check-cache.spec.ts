import { DomainError, ErrorCode, type ProviderDto } from '@docintel/contracts';
import { ProviderCheckCache } from './provider-check-cache';

const provider = (id: string) => ({ id: { id }, name: `provider ${id}` }) as unknown as ProviderDto;

describe('ProviderCheckCache', () => {
  let now = 0;
  const clock = () => now;
  beforeEach(() => (now = 1_000_000));

  it('answers from the cache for ttlMs after a load, then asks again', async () => {
    const cache = new ProviderCheckCache(1000, 10, clock);
    const load = jest.fn(async () => provider('p'));
    expect(await cache.get('ns', 'p', load)).toEqual(provider('p'));
    now += 999;
    expect(await cache.get('ns', 'p', load)).toEqual(provider('p'));
    expect(load).toHaveBeenCalledTimes(1);
    now += 1;
    await cache.get('ns', 'p', load);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('keeps each namespace apart: one namespace seeing a provider says nothing of another', async () => {
    const cache = new ProviderCheckCache(1000, 10, clock);
    await cache.get('ns-a', 'p', async () => provider('p'));
    const forbidden = new DomainError(ErrorCode.FORBIDDEN, 'not shared');
    await expect(cache.get('ns-b', 'p', () => Promise.reject(forbidden))).rejects.toBe(forbidden);
  });

  it('keeps no refusal or failure: the next check asks again', async () => {
    const cache = new ProviderCheckCache(1000, 10, clock);
    for (const err of [
      DomainError.notFound('Provider', 'p'),
      new DomainError(ErrorCode.FORBIDDEN, 'no'),
      new DomainError(ErrorCode.TIMEOUT, 'slow'),
    ]) {
      const failing = jest.fn(() => Promise.reject(err));
      await expect(cache.get('ns', 'p', failing)).rejects.toBe(err);
      await expect(cache.get('ns', 'p', failing)).rejects.toBe(err);
      expect(failing).toHaveBeenCalledTimes(2);
    }
    expect(cache.size).toBe(0);
    await expect(cache.get('ns', 'p', async () => provider('p'))).resolves.toEqual(provider('p'));
  });

  it('holds at most maxEntries, dropping the one loaded longest ago', async () => {
    const cache = new ProviderCheckCache(1000, 2, clock);
    for (const id of ['a', 'b', 'c']) await cache.get('ns', id, async () => provider(id));
    expect(cache.size).toBe(2);
    const again = jest.fn(async () => provider('a'));
    await cache.get('ns', 'a', again);
    expect(again).toHaveBeenCalledTimes(1);
    const kept = jest.fn(async () => provider('c'));
    await cache.get('ns', 'c', kept);
    expect(kept).not.toHaveBeenCalled();
    expect(cache.size).toBe(2);
  });
});
