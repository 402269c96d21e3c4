import { and, eq, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { users } from '#server/db/schema/index.ts';
import type { MailMessage, QueueMail } from '#server/services/mail.ts';
import type { UserRow } from '#server/features/accounts/accounts.service.ts';
import { nextPaymentDate, prepaidPassPrefix } from '#shared/membership/membership.rules.ts';
import type { Plan } from '#shared/payments/payments.rules.ts';
import { paymentFailedMail, type AccountMailAction } from './membership.mails.ts';

/**
 * The version of a payment_subscriptions row: PostgreSQL's xmin, the transaction that wrote it, which every UPDATE
 * of the row changes, whoever makes it. Read only from a select of that one table (decision 062).
 */
export const subscriptionVersion = sql<string>`xmin::text`;

export type PaymentOutcomes = ReturnType<typeof createPaymentOutcomes>;

/** Passes of one reconcile before it gives up while our record keeps changing under it (the job retries later). */
const reconcileAttempts = 3;

/**
 * Runs a reconcile's pass until one applies: a pass answers 'changed' when our record of the subscription changed
 * while the provider was read, and the next reads both again (decision 062). Throws after three such passes.
 */
export async function reconcileUntilApplied<T>(subscriptionId: string, pass: () => Promise<T | 'changed'>): Promise<T> {
  for (let attempt = 1; attempt <= reconcileAttempts; attempt++) {
    const result = await pass();
    if (result !== 'changed') return result;
  }
  throw new Error(`subscription ${subscriptionId} kept changing while it was reconciled`);
}

/**
 * What a provider's verified record does to a membership: a completed payment, a failed one, billing
 * ended at the provider, a refund. Every provider's outcome goes through these, so the rules are one. `db` is the
 * transaction the outcome is written in, and `queue` writes its e-mail in that same transaction (decision 067).
 */
export function createPaymentOutcomes(deps: {
  db: Db;
  queue: QueueMail;
  publicUrl: string;
  now: () => Date;
  accountMail: (user: UserRow, action: AccountMailAction, paymentDate: Date | null) => MailMessage;
}) {
  const { db, queue, publicUrl, now, accountMail } = deps;
  const sendAccountMail = (user: UserRow, action: AccountMailAction, paymentDate: Date | null) =>
    queue(accountMail(user, action, paymentDate));

  /** A completed payment on a verified subscription: Premium, annualPlan per plan, paymentDay moved. */
  async function activatePremium(
    userId: string,
    input: { subscriptionId: string; plan: Plan; paidAt: Date; nextBillingTime?: Date | null },
  ): Promise<boolean> {
    const at = now();
    const annualPlan = input.plan === 'annual';
    const [upgraded] = await db
      .update(users)
      .set({
        type: 'Premium',
        paymentStatus: 'BIEN',
        annualPlan,
        paymentDay: input.paidAt,
        subscriptionId: input.subscriptionId,
        terminationDate: null,
        updatedAt: at,
      })
      .where(
        and(
          eq(users.id, userId),
          inArray(users.type, ['Gratis', 'Premium', 'Legacy']),
          sql`not (${users.type} = 'Premium' and ${users.paymentStatus} = 'BIEN' and ${users.subscriptionId} is not distinct from ${input.subscriptionId})`,
        ),
      )
      .returning();
    if (upgraded) {
      await sendAccountMail(
        upgraded,
        'UPGRADE',
        input.nextBillingTime ?? nextPaymentDate(input.paidAt, annualPlan, at),
      );
      return true;
    }
    // a renewal of the current subscription only moves the payment day forward
    await db
      .update(users)
      .set({ paymentDay: input.paidAt, annualPlan, updatedAt: at })
      .where(
        and(
          eq(users.id, userId),
          eq(users.subscriptionId, input.subscriptionId),
          eq(users.type, 'Premium'),
          sql`${users.paymentDay} is null or ${users.paymentDay} < ${input.paidAt}`,
        ),
      );
    return false;
  }

  /** A failed payment: FALLIDO and Gratis, with one e-mail. */
  async function markPaymentFailed(userId: string, subscriptionId: string): Promise<boolean> {
    const [failed] = await db
      .update(users)
      .set({ type: 'Gratis', paymentStatus: 'FALLIDO', subscriptionId, terminationDate: null, updatedAt: now() })
      .where(
        and(
          eq(users.id, userId),
          inArray(users.type, ['Gratis', 'Premium']),
          inArray(users.paymentStatus, ['BIEN', 'CANCELLED']),
          or(eq(users.subscriptionId, subscriptionId), ne(users.type, 'Premium'), isNull(users.subscriptionId)),
        ),
      )
      .returning();
    if (!failed) return false;
    // paymentDay is set only by a completed payment, so without one this was a first payment
    await queue({
      to: failed.email,
      ...paymentFailedMail({ name: failed.name, publicUrl, wasPremium: failed.paymentDay !== null }),
    });
    return true;
  }

  /** Cancelled at the provider: CANCELLED (Basic); a downgrade already in progress runs its course. */
  async function markCancelled(userId: string, subscriptionId: string): Promise<boolean> {
    const updated = await db
      .update(users)
      .set({ type: 'Gratis', paymentStatus: 'CANCELLED', terminationDate: null, updatedAt: now() })
      .where(
        and(
          eq(users.id, userId),
          eq(users.subscriptionId, subscriptionId),
          inArray(users.type, ['Gratis', 'Premium']),
          inArray(users.paymentStatus, ['BIEN', 'FALLIDO']),
        ),
      )
      .returning({ id: users.id });
    return updated.length > 0;
  }

  /**
   * Billing stopped at the provider (suspended or cancelled there, not by a failed payment): the member
   * keeps the benefits until the paid period ends, as after an in-app downgrade, then is CANCELLED.
   * No period end (or one already past): CANCELLED now. True when the account changed.
   *
   * The member gets the downgrade's e-mail from whichever write makes the change, this one or the in-app
   * downgrade's: when the provider's webhook for the downgrade's own suspension is applied first, the downgrade
   * finds the account changed already and sends nothing.
   */
  async function markBillingEnded(userId: string, subscriptionId: string, periodEnd: Date | null): Promise<boolean> {
    const at = now();
    if (!periodEnd || periodEnd <= at) return markCancelled(userId, subscriptionId);
    const [ended] = await db
      .update(users)
      .set({ type: 'Gratis', paymentStatus: 'POR_TERMINAR', terminationDate: periodEnd, updatedAt: at })
      .where(
        and(
          eq(users.id, userId),
          eq(users.subscriptionId, subscriptionId),
          eq(users.type, 'Premium'),
          eq(users.paymentStatus, 'BIEN'),
        ),
      )
      .returning();
    if (!ended) return false;
    await sendAccountMail(ended, 'DOWNGRADE', periodEnd);
    return true;
  }

  /** The payment that kept Premium was refunded or reversed: Premium ends now (CANCELLED, Basic). */
  async function markRefunded(userId: string, subscriptionId: string): Promise<boolean> {
    const updated = await db
      .update(users)
      .set({ type: 'Gratis', paymentStatus: 'CANCELLED', terminationDate: null, updatedAt: now() })
      .where(
        and(
          eq(users.id, userId),
          eq(users.subscriptionId, subscriptionId),
          inArray(users.type, ['Gratis', 'Premium']),
          inArray(users.paymentStatus, ['BIEN', 'POR_TERMINAR', 'FALLIDO']),
        ),
      )
      .returning({ id: users.id });
    return updated.length > 0;
  }

  /**
   * A 'Premium anual (pago único)' pass paid: Premium for one annual period from the payment, never renewed
   * (it ends as a manual Premium does). Only a Basic account gets it; false when the account was not one.
   */
  async function grantPrepaidPass(userId: string, paymentId: string, paidAt: Date): Promise<boolean> {
    const [granted] = await db
      .update(users)
      .set({
        type: 'Premium',
        paymentStatus: 'BIEN',
        annualPlan: true,
        paymentDay: paidAt,
        subscriptionId: `${prepaidPassPrefix}${paymentId}`,
        terminationDate: null,
        updatedAt: now(),
      })
      .where(and(eq(users.id, userId), eq(users.type, 'Gratis'), ne(users.paymentStatus, 'POR_TERMINAR')))
      .returning();
    // nothing will be charged: the e-mail names no next payment
    if (granted) await sendAccountMail(granted, 'UPGRADE', null);
    return granted !== undefined;
  }

  return { activatePremium, markPaymentFailed, markCancelled, markBillingEnded, markRefunded, grantPrepaidPass };
}
