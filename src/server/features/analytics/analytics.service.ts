import type { Db } from '#server/db/client.ts';
import { analyticsEvents } from '#server/db/schema/index.ts';
import type { AnalyticsCategory } from '#shared/analytics/analytics.rules.ts';
import type { UserRow } from '#server/features/accounts/accounts.service.ts';

export function createAnalyticsService(deps: { db: Db }) {
  /** Records one event with the visitor's user type (Gest for guests), as the spec's data layer did. */
  async function record(category: AnalyticsCategory, label: string, user: UserRow | null): Promise<void> {
    await deps.db.insert(analyticsEvents).values({ category, label, userType: user?.type ?? 'Gest', userId: user?.id ?? null });
  }
  return { record };
}

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;
