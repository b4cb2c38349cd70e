import { describe, expect, it } from 'vitest';
import { TtlCache } from '../src/cache/ttl-cache.js';

describe('TtlCache', () => {
  it('keeps an answer for its time, shares one load between concurrent misses, and forgets failures', async () => {
    let now = 0;
    let loads = 0;
    const cache = new TtlCache<string, number>(1_000, 10, () => now);
    const load = async () => ++loads;
    expect(await Promise.all([cache.get('a', load), cache.get('a', load)])).toEqual([1, 1]);
    now = 999;
    expect(await cache.get('a', load)).toBe(1);
    now = 1_000;
    expect(await cache.get('a', load)).toBe(2);
    cache.delete('a');
    expect(await cache.get('a', load)).toBe(3);

    await expect(cache.get('b', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.get('b', load)).toBe(4);
  });

  it('holds at most maxEntries keys, dropping the oldest', async () => {
    const cache = new TtlCache<number, number>(60_000, 2, () => 0);
    let loads = 0;
    const load = async () => ++loads;
    await cache.get(1, load);
    await cache.get(2, load);
    await cache.get(3, load);
    expect(loads).toBe(3);
    await cache.get(3, load);
    await cache.get(2, load);
    expect(loads).toBe(3);
    await cache.get(1, load);
    expect(loads).toBe(4);
  });
});
