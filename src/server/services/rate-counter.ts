import { lt, sql } from 'drizzle-orm';
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

  /** Counts one hit against the rule; true while the window's hits stay within its max. */
  async function hit(rule: RateRule, now = new Date()): Promise<boolean> {
    const windowStart = new Date(now.getTime() - rule.windowMs);
    const [row] = await db
      .insert(rateCounters)
      .values({ key: rule.key, hits: 1, windowStartedAt: now })
      .onConflictDoUpdate({
        target: rateCounters.key,
        set: {
          hits: sql`case when ${rateCounters.windowStartedAt} <= ${windowStart} then 1 else ${rateCounters.hits} + 1 end`,
          windowStartedAt: sql`case when ${rateCounters.windowStartedAt} <= ${windowStart} then ${now} else ${rateCounters.windowStartedAt} end`,
        },
      })
      .returning({ hits: rateCounters.hits });
    return (row?.hits ?? Number.POSITIVE_INFINITY) <= rule.max;
  }

  /** Counts a hit against every rule (all of them, so each window fills); true only if every rule allows it. */
  async function hitAll(rules: RateRule[], now = new Date()): Promise<boolean> {
    const results = await Promise.all(rules.map((rule) => hit(rule, now)));
    return results.every(Boolean);
  }

  /** Forgets counters whose window ended long ago (the daily sweep). */
  async function prune(olderThanMs = 24 * 3600_000, now = new Date()): Promise<void> {
    await db.delete(rateCounters).where(lt(rateCounters.windowStartedAt, new Date(now.getTime() - olderThanMs)));
  }

  return { hit, hitAll, prune };
}

export type RateCounter = ReturnType<typeof createRateCounter>;
