import { and, asc, eq, ilike, isNull } from 'drizzle-orm';
import { containsPattern } from '#server/db/search-sql.ts';
import type { Db } from '#server/db/client.ts';
import { users } from '#server/db/schema/index.ts';
import { manualPremiumExpiry, manualSubscriptionId } from '#shared/membership/membership.rules.ts';
import type { ManualPremiumPeriod, ManualPremiumRow } from '#shared/membership/manual-premium.schemas.ts';
import type { MembershipService } from './membership.service.ts';

/** Manual Premium (spec 3 §4): granted by an administrator for a month or a year, ending by itself at expiry. */
export function createManualPremiumService(deps: {
  db: Db;
  membership: Pick<MembershipService, 'grantManualPremium' | 'endManualPremium'>;
}) {
  const { db } = deps;

  async function list(): Promise<ManualPremiumRow[]> {
    const rows = await db
      .select()
      .from(users)
      .where(eq(users.subscriptionId, manualSubscriptionId))
      .orderBy(asc(users.email));
    return rows.map((user) => ({
      id: user.id,
      name: user.name,
      email: user.email,
      plan: user.annualPlan ? 'Anual' : 'Mensual',
      paymentDay: user.paymentDay?.toISOString() ?? null,
      expiresAt: user.paymentDay ? manualPremiumExpiry(user.paymentDay, user.annualPlan).toISOString() : null,
    }));
  }

  /** Free users by e-mail for the upgrade picker. */
  async function candidates(q: string | undefined) {
    return db
      .select({ id: users.id, name: users.name, email: users.email })
      .from(users)
      .where(
        and(
          eq(users.type, 'Gratis'),
          isNull(users.anonymizedAt),
          q ? ilike(users.email, containsPattern(q)) : undefined,
        ),
      )
      .orderBy(asc(users.email))
      .limit(50);
  }

  async function upgrade(userId: string, period: ManualPremiumPeriod): Promise<void> {
    await deps.membership.grantManualPremium(userId, period === 'year');
  }

  async function downgrade(userId: string): Promise<void> {
    await deps.membership.endManualPremium(userId);
  }

  return { list, candidates, upgrade, downgrade };
}

export type ManualPremiumService = ReturnType<typeof createManualPremiumService>;
