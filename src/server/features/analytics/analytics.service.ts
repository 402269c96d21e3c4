import { createHmac } from 'node:crypto';
import type { Db } from '#server/db/client.ts';
import { analyticsEvents } from '#server/db/schema/index.ts';
import type { AnalyticsCategory } from '#shared/analytics/analytics.rules.ts';
import type { UserRow } from '#server/features/accounts/accounts.service.ts';

export function createAnalyticsService(deps: { db: Db; secret: string }) {
  /** Records one event with the visitor's user type (Gest for guests), as the spec's data layer did. */
  async function record(category: AnalyticsCategory, label: string, user: UserRow | null): Promise<void> {
    await deps.db
      .insert(analyticsEvents)
      .values({ category, label, userType: user?.type ?? 'Gest', userId: user?.id ?? null });
  }

  /**
   * Records the event at most once per visitor, subject and UTC day: the signed-in account, or for a guest a keyed
   * hash of the IP (never the IP itself). A unique key makes the second insert do nothing, however many arrive at once.
   */
  async function recordOncePerDay(
    category: AnalyticsCategory,
    subject: { id: string; label: string },
    visitor: { user: UserRow | null; ip: string },
    now = new Date(),
  ): Promise<void> {
    const who = visitor.user
      ? `u:${visitor.user.id}`
      : `ip:${createHmac('sha256', deps.secret).update(visitor.ip).digest('base64url').slice(0, 22)}`;
    const dedupeKey = `${category}:${subject.id}:${who}:${now.toISOString().slice(0, 10)}`;
    await deps.db
      .insert(analyticsEvents)
      .values({
        category,
        label: subject.label,
        userType: visitor.user?.type ?? 'Gest',
        userId: visitor.user?.id ?? null,
        dedupeKey,
      })
      .onConflictDoNothing();
  }

  return { record, recordOncePerDay };
}

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;
