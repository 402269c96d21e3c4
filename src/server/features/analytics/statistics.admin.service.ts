import { and, count, desc, eq, gte, isNull, lt, ne } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { analyticsEvents, users } from '#server/db/schema/index.ts';
import { analyticsCategories, type AnalyticsCategory } from '#shared/analytics/analytics.rules.ts';
import { topCountriesLimit, type Statistics } from '#shared/analytics/statistics.schemas.ts';

const dayMs = 86_400_000;

/** The statistics screen, read from our own analytics events and users (no third-party account). */
export function createStatisticsService(deps: { db: Db }) {
  const { db } = deps;

  async function userTiles(): Promise<Statistics['users']> {
    const rows = await db
      .select({ type: users.type, annualPlan: users.annualPlan, total: count() })
      .from(users)
      .where(isNull(users.anonymizedAt))
      .groupBy(users.type, users.annualPlan);
    const sum = (predicate: (row: (typeof rows)[number]) => boolean) =>
      rows.filter(predicate).reduce((total, row) => total + Number(row.total), 0);
    const premium = sum((row) => row.type === 'Premium');
    const premiumAnnual = sum((row) => row.type === 'Premium' && row.annualPlan);
    return {
      total: sum(() => true),
      gratis: sum((row) => row.type === 'Gratis'),
      premium,
      premiumAnnual,
      premiumMonthly: premium - premiumAnnual,
      legacy: sum((row) => row.type === 'Legacy'),
      admin: sum((row) => row.type === 'Admin'),
    };
  }

  async function eventTable(category: AnalyticsCategory, from?: string, to?: string) {
    const rows = await db
      .select({ label: analyticsEvents.label, userType: analyticsEvents.userType, total: count() })
      .from(analyticsEvents)
      .where(
        and(
          eq(analyticsEvents.category, category),
          from ? gte(analyticsEvents.createdAt, new Date(from)) : undefined,
          // the end date is inclusive: up to the start of the next day
          to ? lt(analyticsEvents.createdAt, new Date(new Date(to).getTime() + dayMs)) : undefined,
        ),
      )
      .groupBy(analyticsEvents.label, analyticsEvents.userType);
    const byLabel = new Map<string, { label: string; total: number; byUserType: Record<string, number> }>();
    for (const row of rows) {
      const entry = byLabel.get(row.label) ?? { label: row.label, total: 0, byUserType: {} };
      entry.total += Number(row.total);
      entry.byUserType[row.userType] = (entry.byUserType[row.userType] ?? 0) + Number(row.total);
      byLabel.set(row.label, entry);
    }
    return [...byLabel.values()].sort((a, b) => b.total - a.total || a.label.localeCompare(b.label, 'es'));
  }

  async function get(filter: { from?: string; to?: string; category?: AnalyticsCategory }): Promise<Statistics> {
    const wanted = (category: AnalyticsCategory) => !filter.category || filter.category === category;
    const [tiles, topCountries, ...tables] = await Promise.all([
      userTiles(),
      db
        .select({ country: users.country, users: count() })
        .from(users)
        .where(and(ne(users.country, ''), isNull(users.anonymizedAt)))
        .groupBy(users.country)
        .orderBy(desc(count()), users.country)
        .limit(topCountriesLimit),
      ...analyticsCategories.map((category) =>
        wanted(category) ? eventTable(category, filter.from, filter.to) : Promise.resolve([]),
      ),
    ]);
    return {
      users: tiles,
      tables: { VIDEOS: tables[0] ?? [], FASCICULOS: tables[1] ?? [], DIPLOMADO_PREVIEW_PAGE: tables[2] ?? [] },
      topCountries: topCountries.map((row) => ({ country: row.country, users: Number(row.users) })),
    };
  }

  return { get };
}

export type StatisticsService = ReturnType<typeof createStatisticsService>;
