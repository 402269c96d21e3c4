import { LRUCache } from 'lru-cache';

/**
 * An LRU cache of at most `entries` entries that grows as it fills. lru-cache's `max` allocates room for every entry
 * up front: the session, viewing-token and media-grant caches held ~7 MB from the first second, so the
 * bound is kept as a size of one per entry instead.
 */
export function boundedCache<K extends NonNullable<unknown>, V extends NonNullable<unknown>>(options: {
  entries: number;
  ttl: number;
  /** The clock of `ttl` (tests move it); performance.now() by default. */
  now?: () => number;
  /** Called when an entry leaves the cache: deleted, replaced, evicted or found expired. */
  onRemove?: (value: V, key: K) => void;
}): LRUCache<K, V> {
  const { onRemove } = options;
  return new LRUCache<K, V>({
    maxSize: options.entries,
    sizeCalculation: () => 1,
    ttl: options.ttl,
    ...(options.now ? { perf: { now: options.now }, ttlResolution: 0 } : {}),
    ...(onRemove ? { dispose: (value: V, key: K) => onRemove(value, key) } : {}),
  });
}
