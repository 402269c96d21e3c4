import { and, asc, eq, ilike, isNull } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { users } from '#server/db/schema/index.ts';
import { AppError } from '#shared/errors.ts';
import { periodMs } from '#shared/membership/membership.rules.ts';
import {
  manualSubscriptionId,
  type ManualPremiumPeriod,
  type ManualPremiumRow,
} from '#shared/membership/manual-premium.schemas.ts';

/** Manual Premium (spec 3 §4): granted by an administrator for a month or a year, ending by itself at expiry. */
export function createManualPremiumService(deps: { db: Db }) {
  const { db } = deps;

  async function list(): Promise<ManualPremiumRow[]> {
    const rows = await db.select().from(users).where(eq(users.subscriptionId, manualSubscriptionId)).orderBy(asc(users.email));
    return rows.map((user) => ({
      id: user.id,
      name: user.name,
      email: user.email,
      plan: user.annualPlan ? 'Anual' : 'Mensual',
      paymentDay: user.paymentDay?.toISOString() ?? null,
      expiresAt: user.paymentDay
        ? new Date(user.paymentDay.getTime() + (user.annualPlan ? periodMs.annual : periodMs.monthly)).toISOString()
        : null,
    }));
  }

  /** Free users by e-mail for the upgrade picker. */
  async function candidates(q: string | undefined) {
    return db
      .select({ id: users.id, name: users.name, email: users.email })
      .from(users)
      .where(and(eq(users.type, 'Gratis'), isNull(users.anonymizedAt), q ? ilike(users.email, `%${q.replace(/[\\%_]/g, '\\$&')}%`) : undefined))
      .orderBy(asc(users.email))
      .limit(50);
  }

  async function upgrade(userId: string, period: ManualPremiumPeriod): Promise<void> {
    const [user] = await db.select().from(users).where(eq(users.id, userId));
    if (!user) throw new AppError('NOT_FOUND');
    // only a free account can be upgraded by hand: a paying member keeps their subscription
    if (user.type !== 'Gratis') throw new AppError('CONFLICT');
    await db
      .update(users)
      .set({
        type: 'Premium',
        paymentDay: new Date(),
        subscriptionId: manualSubscriptionId,
        annualPlan: period === 'year',
        paymentStatus: 'BIEN',
        terminationDate: null,
        updatedAt: new Date(),
      })
      .where(eq(users.id, userId));
  }

  async function downgrade(userId: string): Promise<void> {
    const [user] = await db.select().from(users).where(eq(users.id, userId));
    if (!user) throw new AppError('NOT_FOUND');
    if (user.subscriptionId !== manualSubscriptionId) throw new AppError('CONFLICT');
    await db
      .update(users)
      .set({
        type: 'Gratis',
        paymentDay: null,
        subscriptionId: null,
        terminationDate: null,
        paymentStatus: 'BIEN',
        annualPlan: false,
        updatedAt: new Date(),
      })
      .where(eq(users.id, userId));
  }

  return { list, candidates, upgrade, downgrade };
}

export type ManualPremiumService = ReturnType<typeof createManualPremiumService>;
