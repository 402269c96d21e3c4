import { and, eq, gt, lt, sql, type WithSubquery } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { rateCounters } from '#server/db/schema/index.ts';

export type RateRule = { key: string; max: number; windowMs: number };

/**
 * Fixed-window counters kept in the database (shared by every instance). Each hit is counted and read back in one
 * INSERT … ON CONFLICT DO UPDATE … RETURNING, which locks the row, so N parallel hits see N distinct counts and at
 * most `max` of them are allowed, whatever the concurrency.
 */
export function createRateCounter(deps: { db: Db }) {
  const { db } = deps;

  /**
   * Counts one hit against each key (distinct keys, one window length) in one INSERT … ON CONFLICT DO UPDATE …
   * RETURNING; rows are locked in key order, so statements sharing a key (one address) wait for each other instead of
   * deadlocking. Each key's count and window start.
   */
  async function countKeys(keys: string[], windowMs: number, now: Date) {
    const windowStart = new Date(now.getTime() - windowMs);
    const rows = await db
      .insert(rateCounters)
      .values([...keys].sort().map((key) => ({ key, hits: 1, windowStartedAt: now })))
      .onConflictDoUpdate({
        target: rateCounters.key,
        set: {
          hits: sql`case when ${rateCounters.windowStartedAt} <= ${windowStart} then 1 else ${rateCounters.hits} + 1 end`,
          windowStartedAt: sql`case when ${rateCounters.windowStartedAt} <= ${windowStart} then ${now} else ${rateCounters.windowStartedAt} end`,
        },
      })
      .returning({ key: rateCounters.key, hits: rateCounters.hits, windowStartedAt: rateCounters.windowStartedAt });
    return new Map(rows.map((row) => [row.key, row]));
  }

  /** Counts one hit against the rule and returns the window's count and start. */
  async function count(rule: RateRule, now = new Date()): Promise<{ hits: number; windowStartedAt: Date }> {
    const row = (await countKeys([rule.key], rule.windowMs, now)).get(rule.key);
    return { hits: row?.hits ?? Number.POSITIVE_INFINITY, windowStartedAt: row?.windowStartedAt ?? now };
  }

  /** Counts one hit against the rule; true while the window's hits stay within its max. */
  async function hit(rule: RateRule, now = new Date()): Promise<boolean> {
    return (await count(rule, now)).hits <= rule.max;
  }

  /**
   * Counts a hit against every rule (all of them, so each window fills); true only if every rule allows it. Rules of
   * one window length are counted in one statement (a sign-in's three in one round trip).
   */
  async function hitAll(rules: RateRule[], now = new Date()): Promise<boolean> {
    const byWindow = new Map<number, Map<string, RateRule>>();
    for (const rule of rules) {
      const group = byWindow.get(rule.windowMs) ?? new Map<string, RateRule>();
      byWindow.set(rule.windowMs, group);
      // one row may not be updated twice by one statement: a repeated key is counted once, against its lowest max
      const same = group.get(rule.key);
      if (!same || same.max > rule.max) group.set(rule.key, rule);
    }
    const results = await Promise.all(
      [...byWindow].map(async ([windowMs, group]) => {
        const counted = await countKeys([...group.keys()], windowMs, now);
        return [...group.values()].every(
          (rule) => (counted.get(rule.key)?.hits ?? Number.POSITIVE_INFINITY) <= rule.max,
        );
      }),
    );
    return results.every(Boolean);
  }

  /**
   * Takes back one hit of the rule's current window (never below zero): an attempt that turned out not to count.
   * `alongside`: a data-modifying CTE that belongs to the same outcome, run in the same statement (one round trip).
   */
  async function release(rule: RateRule, alongside?: WithSubquery, now = new Date()): Promise<void> {
    const windowStart = new Date(now.getTime() - rule.windowMs);
    await (alongside ? db.with(alongside) : db)
      .update(rateCounters)
      .set({ hits: sql`greatest(${rateCounters.hits} - 1, 0)` })
      .where(and(eq(rateCounters.key, rule.key), gt(rateCounters.windowStartedAt, windowStart)));
  }

  /** Forgets counters whose window ended long ago (the daily sweep). */
  async function prune(olderThanMs = 24 * 3600_000, now = new Date()): Promise<void> {
    await db.delete(rateCounters).where(lt(rateCounters.windowStartedAt, new Date(now.getTime() - olderThanMs)));
  }

  return { count, hit, hitAll, release, prune };
}

export type RateCounter = ReturnType<typeof createRateCounter>;

type RouteOptions = { routeInfo?: { method?: string; url?: string } };
type IncrCallback = (error: Error | null, result?: { current: number; ttl: number }) => void;

/**
 * A store for @fastify/rate-limit on these database counters, so the per-route limits (contact form, payments,
 * profile, privacy) hold across every instance instead of each instance counting its own share.
 */
export function rateLimitStore(counter: RateCounter) {
  return class DatabaseRateLimitStore {
    private readonly prefix: string;
    constructor(given: object = {}) {
      const options = given as RouteOptions;
      this.prefix = options.routeInfo
        ? `route:${options.routeInfo.method ?? ''} ${options.routeInfo.url ?? ''}:`
        : 'route:*:';
    }
    incr(key: string, callback: IncrCallback, timeWindow: number, max: number) {
      const now = new Date();
      counter
        .count({ key: `${this.prefix}${key}`, max, windowMs: timeWindow }, now)
        .then(({ hits, windowStartedAt }) =>
          callback(null, { current: hits, ttl: Math.max(0, windowStartedAt.getTime() + timeWindow - now.getTime()) }),
        )
        .catch((error: unknown) => callback(error as Error));
    }
    child(routeOptions: object) {
      return new DatabaseRateLimitStore(routeOptions);
    }
  };
}
