import { randomUUID } from 'node:crypto';
import { canUpgrade } from '#shared/membership/membership.rules.ts';
import { and, eq, getTableColumns, inArray } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { paymentSubscriptions, payments } from '#server/db/schema/index.ts';
import type { PaymentProvider } from '#server/services/payments/payment-provider.ts';
import type { MembershipService } from '#server/features/membership/membership.service.ts';
import { reconcileUntilApplied, subscriptionVersion } from '#server/features/membership/membership-payments.ts';
import type { UserRow } from '#server/features/accounts/accounts.service.ts';
import { AppError } from '#shared/errors.ts';
import type { Plan } from '#shared/payments/payments.rules.ts';
import { grantRefusal, stateByProviderStatus, subscriptionOutcome } from './payments.rules.ts';
import { recordProviderPayments, type RefundListener } from './payments-history.ts';
import type { PaymentsLog, ProviderFailureLogger } from './payments-log.ts';

const planDescription: Record<Plan, string> = { monthly: 'Premium mensual', annual: 'Premium anual' };

/** Subscriptions through the provider: the membership follows only what the provider's record says. */
export function createPaymentSubscriptions(deps: {
  db: Db;
  provider: PaymentProvider;
  membership: MembershipService;
  publicUrl: string;
  log: PaymentsLog;
  logProviderFailure: ProviderFailureLogger;
  onRefunded?: RefundListener;
}) {
  const { db, provider, membership, publicUrl, log, logProviderFailure } = deps;

  function returnUrls(returnTo: 'signup' | 'profile', plan: Plan) {
    if (returnTo === 'signup') {
      const back = new URL('/registro-finalizar', publicUrl);
      back.searchParams.set('plan', plan);
      const cancel = new URL(back);
      cancel.searchParams.set('pago', 'cancelado');
      return { returnUrl: back.toString(), cancelUrl: cancel.toString() };
    }
    const back = new URL('/perfil', publicUrl);
    const cancel = new URL(back);
    cancel.searchParams.set('pago', 'cancelado');
    return { returnUrl: back.toString(), cancelUrl: cancel.toString() };
  }

  async function markSuperseded(rowId: string, state?: (typeof paymentSubscriptions.$inferSelect)['state']) {
    await db
      .update(paymentSubscriptions)
      .set({ supersededAt: new Date(), updatedAt: new Date(), ...(state ? { state } : {}) })
      .where(eq(paymentSubscriptions.id, rowId));
  }

  /** Ends a provider subscription the account must not keep (a second one, or one left behind). */
  async function cancelAtProvider(providerSubscriptionId: string, reason: string) {
    try {
      await provider.cancelSubscription(providerSubscriptionId, reason);
      await db
        .update(paymentSubscriptions)
        .set({ state: 'CANCELADA', supersededAt: new Date(), updatedAt: new Date() })
        .where(eq(paymentSubscriptions.providerSubscriptionId, providerSubscriptionId));
      return true;
    } catch (error) {
      logProviderFailure(error, 'provider refused to cancel a superseded subscription', { providerSubscriptionId });
      return false;
    }
  }

  /**
   * Before a new checkout: what is left of the account's earlier ones. A paid one makes the member
   * Premium (and the new checkout is refused); one being paid right now refuses it too; one never
   * approved is superseded (PayPal cannot cancel it; if it is approved later, it is cancelled then);
   * a live one left from a failed or cancelled membership is cancelled so it never charges again.
   */
  async function settleEarlierCheckouts(user: UserRow) {
    const rows = await db
      .select()
      .from(paymentSubscriptions)
      .where(
        and(
          eq(paymentSubscriptions.userId, user.id),
          eq(paymentSubscriptions.provider, provider.name),
          inArray(paymentSubscriptions.state, ['PENDIENTE', 'ACTIVA', 'SUSPENDIDA']),
        ),
      );
    for (const row of rows) {
      const snapshot = await provider.getSubscription(row.providerSubscriptionId);
      if (!snapshot) {
        await markSuperseded(row.id, 'CANCELADA');
        continue;
      }
      if (snapshot.status === 'APPROVED') throw new AppError('SUBSCRIPTION_CHECKOUT_IN_PROGRESS');
      if (snapshot.status === 'APPROVAL_PENDING') {
        if (!row.supersededAt) await markSuperseded(row.id);
        continue;
      }
      if (snapshot.status === 'ACTIVE' || snapshot.status === 'SUSPENDED') {
        await reconcileSubscription(row.providerSubscriptionId);
        const fresh = await membership.findUser(user.id);
        if (!fresh || !canUpgrade(fresh)) throw new AppError('MEMBERSHIP_CHANGE_NOT_ALLOWED');
        await cancelAtProvider(row.providerSubscriptionId, 'Reemplazada por una nueva suscripción');
        continue;
      }
      await reconcileSubscription(row.providerSubscriptionId);
    }
  }

  /** Starts a Premium subscription for a Basic member; the browser goes to approvalUrl. */
  async function startSubscription(user: UserRow, input: { plan: Plan; returnTo: 'signup' | 'profile' }) {
    if (!canUpgrade(user)) throw new AppError('MEMBERSHIP_CHANGE_NOT_ALLOWED');
    await settleEarlierCheckouts(user);
    let created: { id: string; approvalUrl: string };
    try {
      // one key per checkout: a retry after a timeout gets the same subscription, not a second one
      created = await provider.createSubscription({
        plan: input.plan,
        customId: user.id,
        requestId: randomUUID(),
        ...returnUrls(input.returnTo, input.plan),
      });
    } catch (error) {
      logProviderFailure(error, 'subscription creation failed');
      throw new AppError('SUBSCRIPTION_CREATE_FAILED');
    }
    const inserted = await db
      .insert(paymentSubscriptions)
      .values({
        userId: user.id,
        provider: provider.name,
        providerSubscriptionId: created.id,
        plan: input.plan,
        state: 'PENDIENTE',
      })
      .onConflictDoNothing()
      .returning({ id: paymentSubscriptions.id });
    if (inserted.length === 0) {
      // another checkout of this account started at the same moment and won: this one is never shown
      await db
        .insert(paymentSubscriptions)
        .values({
          userId: user.id,
          provider: provider.name,
          providerSubscriptionId: created.id,
          plan: input.plan,
          state: 'PENDIENTE',
          supersededAt: new Date(),
        })
        .onConflictDoNothing();
      throw new AppError('SUBSCRIPTION_CHECKOUT_IN_PROGRESS');
    }
    return { subscriptionId: created.id, approvalUrl: created.approvalUrl };
  }

  /**
   * Reads the provider's record of one subscription and applies what it says: payments into the
   * history, then the membership outcome. Idempotent, and the same whatever the event order. When our
   * record changed while the provider was read (a reactivation or downgrade ran meanwhile), it reads
   * again rather than apply a stale answer (decision 062).
   */
  async function reconcileSubscription(
    providerSubscriptionId: string,
  ): Promise<{ state: string; outcome: string } | null> {
    return reconcileUntilApplied(providerSubscriptionId, () => reconcileOnce(providerSubscriptionId));
  }

  async function reconcileOnce(providerSubscriptionId: string) {
    const [row] = await db
      .select({ ...getTableColumns(paymentSubscriptions), version: subscriptionVersion })
      .from(paymentSubscriptions)
      .where(
        and(
          eq(paymentSubscriptions.providerSubscriptionId, providerSubscriptionId),
          eq(paymentSubscriptions.provider, provider.name),
        ),
      );
    if (!row) return null;
    const snapshot = await provider.getSubscription(providerSubscriptionId);
    if (!snapshot) return { state: row.state, outcome: 'none' };
    // a subscription must carry the user it was created for
    if (snapshot.customId !== null && snapshot.customId !== row.userId) {
      log.warn({ providerSubscriptionId }, 'subscription custom_id does not match its owner');
      return { state: row.state, outcome: 'none' };
    }
    // the history's wording only: Premium is granted on PayPal's own plan id (grantRefusal)
    const plan = snapshot.plan ?? row.plan;
    const state = stateByProviderStatus[snapshot.status];
    // PayPal drops next_billing_time once billing stops: the last one read is the end of the paid period
    const periodEnd = snapshot.nextBillingTime ?? row.nextBillingAt;
    const transactions =
      snapshot.status !== 'APPROVAL_PENDING' && snapshot.status !== 'APPROVED'
        ? await provider.listTransactions(providerSubscriptionId)
        : [];
    // the payments themselves are facts, whatever happens to the membership meanwhile
    const history = transactions.map((tx) => ({
      userId: row.userId,
      provider: provider.name,
      providerPaymentId: tx.id,
      providerSubscriptionId,
      kind: 'subscription' as const,
      result: tx.result,
      amountCents: tx.amountCents,
      currency: tx.currency,
      description: planDescription[plan],
      occurredAt: tx.time,
    }));
    await recordProviderPayments(db, history, deps.onRefunded);
    let outcome = subscriptionOutcome({ ...snapshot, plan }, transactions);
    const refusal = outcome === 'activate' ? grantRefusal(snapshot, row.userId) : null;
    if (refusal) {
      log.error({ providerSubscriptionId, reason: refusal }, 'paid subscription does not match what we sell');
      outcome = 'none';
    }
    if (outcome === 'activate') {
      const user = await membership.findUser(row.userId);
      if (user?.type === 'Premium' && user.subscriptionId && user.subscriptionId !== providerSubscriptionId) {
        // a second paid subscription (two checkouts approved): the account keeps one, this one stops charging
        log.warn({ providerSubscriptionId }, 'second live subscription of one account cancelled');
        await cancelAtProvider(providerSubscriptionId, 'Suscripción duplicada');
        return { state: 'CANCELADA', outcome: 'none' };
      }
    }
    let refundEnded = false;
    const applied = await membership.applyUnlessChanged(row, async (outcomes, tx) => {
      if (state !== row.state || periodEnd?.getTime() !== row.nextBillingAt?.getTime()) {
        await tx
          .update(paymentSubscriptions)
          .set({ state, nextBillingAt: periodEnd, updatedAt: new Date() })
          .where(eq(paymentSubscriptions.id, row.id));
      }
      if (outcome === 'activate') {
        await outcomes.activatePremium(row.userId, {
          subscriptionId: providerSubscriptionId,
          plan: snapshot.plan!,
          paidAt: snapshot.lastPayment!.time,
          nextBillingTime: snapshot.nextBillingTime,
        });
      } else if (outcome === 'fail') {
        await outcomes.markPaymentFailed(row.userId, providerSubscriptionId);
      } else if (outcome === 'cancel' || outcome === 'suspend') {
        // ended at PayPal (dashboard, the member's PayPal account): paid time is kept, as after a downgrade
        await outcomes.markBillingEnded(row.userId, providerSubscriptionId, periodEnd);
      } else if (outcome === 'refund') {
        // the member got the money back: Premium ends now
        refundEnded = await outcomes.markRefunded(row.userId, providerSubscriptionId);
      }
    });
    if (!applied) return 'changed' as const;
    if (outcome === 'refund') {
      // and the subscription must not charge again
      if (snapshot.status === 'ACTIVE' || snapshot.status === 'SUSPENDED')
        await cancelAtProvider(providerSubscriptionId, 'Pago reembolsado');
      if (refundEnded) log.info?.({ providerSubscriptionId }, 'premium ended by a refund');
    }
    return { state, outcome };
  }

  /** A refund or reversal names only the sale: find its subscription through the payment history. */
  async function reconcileSale(saleId: string) {
    const [row] = await db
      .select({ userId: payments.userId, providerSubscriptionId: payments.providerSubscriptionId })
      .from(payments)
      .where(eq(payments.providerPaymentId, saleId));
    if (!row) {
      log.warn({ saleId }, 'refund of a sale we never recorded');
      return;
    }
    const subscriptionId =
      row.providerSubscriptionId ?? (await membership.findUser(row.userId))?.subscriptionId ?? null;
    if (subscriptionId) await reconcileSubscription(subscriptionId);
  }

  /** The browser came back from the provider: nothing is granted unless the provider confirms it. */
  async function confirmSubscription(user: UserRow, providerSubscriptionId: string) {
    const [row] = await db
      .select()
      .from(paymentSubscriptions)
      .where(
        and(
          eq(paymentSubscriptions.providerSubscriptionId, providerSubscriptionId),
          eq(paymentSubscriptions.userId, user.id),
        ),
      );
    if (!row) throw new AppError('NOT_FOUND');
    const result = await reconcileSubscription(providerSubscriptionId);
    const fresh = await membership.findUser(user.id);
    return { state: result?.state ?? row.state, isPremium: fresh?.type === 'Premium' };
  }

  /**
   * Reads every live subscription (pending, active or suspended here) from the provider once and applies
   * it: a lost webhook, a suspension from PayPal's dashboard or a refund we never heard of is repaired.
   * Returns how many accounts or records it changed; one failing read does not stop the others.
   */
  async function reconcileLiveSubscriptions(): Promise<{ checked: number; repaired: number; failed: number }> {
    const rows = await db
      .select()
      .from(paymentSubscriptions)
      .where(
        and(
          eq(paymentSubscriptions.provider, provider.name),
          inArray(paymentSubscriptions.state, ['PENDIENTE', 'ACTIVA', 'SUSPENDIDA']),
        ),
      );
    const totals = { checked: 0, repaired: 0, failed: 0 };
    for (const row of rows) {
      const before = await membershipSnapshot(row.userId);
      try {
        const result = await reconcileSubscription(row.providerSubscriptionId);
        totals.checked++;
        const after = await membershipSnapshot(row.userId);
        if (before !== after || (result && result.state !== row.state)) totals.repaired++;
      } catch (error) {
        totals.failed++;
        logProviderFailure(error, 'subscription not reconciled', {
          providerSubscriptionId: row.providerSubscriptionId,
        });
      }
    }
    log.info?.(totals, 'payments reconciled with the provider');
    return totals;
  }

  async function membershipSnapshot(userId: string) {
    const user = await membership.findUser(userId);
    return user
      ? [user.type, user.paymentStatus, user.subscriptionId, user.terminationDate?.toISOString()].join('|')
      : '';
  }

  return { startSubscription, reconcileSubscription, reconcileSale, confirmSubscription, reconcileLiveSubscriptions };
}
