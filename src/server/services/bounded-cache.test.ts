import { describe, expect, it } from 'vitest';
import { boundedCache } from './bounded-cache.ts';

describe('boundedCache', () => {
  it('keeps at most its number of entries, dropping the least recently used', () => {
    const cache = boundedCache<string, number>({ entries: 3, ttl: 60_000 });
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3);
    expect(cache.get('a')).toBe(1);
    cache.set('d', 4);
    expect(cache.size).toBe(3);
    expect(cache.has('b')).toBe(false);
    expect([...cache.keys()].sort()).toEqual(['a', 'c', 'd']);
  });

  it('forgets entries after their time to live', async () => {
    const cache = boundedCache<string, number>({ entries: 3, ttl: 20 });
    cache.set('a', 1);
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(cache.get('a')).toBeUndefined();
  });

  it('takes no room for entries it does not hold yet', () => {
    // lru-cache's `max` would allocate about 4 MB for 100,000 entries with a ttl: ten caches would hold ~40 MB
    const before = process.memoryUsage();
    const caches = Array.from({ length: 10 }, () => boundedCache<string, true>({ entries: 100_000, ttl: 60_000 }));
    const after = process.memoryUsage();
    const grown = after.heapUsed + after.arrayBuffers - (before.heapUsed + before.arrayBuffers);
    expect(caches).toHaveLength(10);
    expect(grown).toBeLessThan(8 * 1024 * 1024);
  });
});
