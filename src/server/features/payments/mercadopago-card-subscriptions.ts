import { randomUUID } from 'node:crypto';
import { and, desc, eq, getTableColumns, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { paymentSubscriptions, payments } from '#server/db/schema/index.ts';
import type { MercadoPagoProvider } from '#server/services/payments/mercadopago-provider.ts';
import type { MercadoPagoPaymentStatus, Preapproval } from '#server/services/payments/mercadopago-records.ts';
import type { MembershipService } from '#server/features/membership/membership.service.ts';
import { reconcileUntilApplied, subscriptionVersion } from '#server/features/membership/membership-payments.ts';
import type { UserRow } from '#server/features/accounts/accounts.service.ts';
import type { Log } from '#server/services/log.ts';
import { canUpgrade } from '#shared/membership/membership.rules.ts';
import { AppError } from '#shared/errors.ts';
import type { PaymentResult, Plan } from '#shared/payments/payments.rules.ts';
import type { PricesService } from './prices.service.ts';
import type { PesosPaymentRecorded } from '#server/features/facturas/facturas.service.ts';
import { paymentFormOf } from '#server/features/facturas/payment-form.ts';
import { historyResult } from './mercadopago-outcomes.ts';

type SubscriptionRow = typeof paymentSubscriptions.$inferSelect;

/** A preapproval's status as our record of the subscription keeps it. */
const stateOf = {
  pending: 'PENDIENTE',
  authorized: 'ACTIVA',
  paused: 'SUSPENDIDA',
  cancelled: 'CANCELADA',
} as const satisfies Record<Preapproval['status'], SubscriptionRow['state']>;

/** What one charge's payment means for the history; `in_mediation` (a dispute) waits for Mercado Pago's decision. */
const resultOf: Record<MercadoPagoPaymentStatus, PaymentResult | null> = {
  approved: 'COMPLETADO',
  pending: 'PENDIENTE',
  in_process: 'PENDIENTE',
  authorized: 'PENDIENTE',
  rejected: 'FALLIDO',
  cancelled: 'FALLIDO',
  refunded: 'REEMBOLSADO',
  charged_back: 'REEMBOLSADO',
  in_mediation: null,
};

const planTitle: Record<Plan, string> = { monthly: 'CxVet Premium mensual', annual: 'CxVet Premium anual' };
const historyTitle: Record<Plan, string> = { monthly: 'Premium mensual', annual: 'Premium anual' };

/**
 * Card subscriptions in pesos through Mercado Pago's preapprovals. The member authorizes the card on Mercado
 * Pago's page; Premium starts only when a charge of the amount we asked for is read back approved. Every
 * outcome goes through membership's rules, as PayPal's do.
 */
export function createMercadoPagoCardSubscriptions(deps: {
  db: Db;
  provider: Pick<
    MercadoPagoProvider,
    'createPreapproval' | 'getPreapproval' | 'setPreapprovalStatus' | 'searchAuthorizedPayments' | 'getPayment'
  > &
    Partial<Pick<MercadoPagoProvider, 'getAuthorizedPayment'>>;
  membership: MembershipService;
  prices: Pick<PricesService, 'mxnPlanPriceCents'>;
  publicUrl: string;
  /** Told of every charge recorded in the history (facturas: a receipt when approved, a cancel when refunded). */
  onPesosPayment?: PesosPaymentRecorded;
  log: Pick<Log, 'warn' | 'error'> & Partial<Pick<Log, 'info'>>;
}) {
  const { db, provider, membership, log } = deps;

  function backUrl(returnTo: 'signup' | 'profile', plan: Plan) {
    const back = new URL(returnTo === 'signup' ? '/registro-finalizar' : '/perfil', deps.publicUrl);
    if (returnTo === 'signup') back.searchParams.set('plan', plan);
    // the subscriptions reference documents nothing on the return: the page asks our server, not the URL
    back.searchParams.set('pago', 'mercadopago');
    return back.toString();
  }

  async function cancelAtMercadoPago(preapprovalId: string) {
    try {
      await provider.setPreapprovalStatus(preapprovalId, 'cancelled', `cancel-${preapprovalId}`);
      await db
        .update(paymentSubscriptions)
        .set({ state: 'CANCELADA', supersededAt: new Date(), updatedAt: new Date() })
        .where(eq(paymentSubscriptions.providerSubscriptionId, preapprovalId));
      return true;
    } catch (error) {
      log.warn(
        { preapprovalId, reason: error instanceof Error ? error.message : String(error) },
        'mercadopago preapproval not cancelled',
      );
      return false;
    }
  }

  /**
   * Before a new checkout: a checkout never authorized is cancelled at Mercado Pago (so it can never charge);
   * a live one is read and applied first, and cancelled if the account is still Basic after that.
   */
  async function settleEarlierCheckouts(user: UserRow) {
    const rows = await db
      .select()
      .from(paymentSubscriptions)
      .where(
        and(
          eq(paymentSubscriptions.userId, user.id),
          eq(paymentSubscriptions.provider, 'mercadopago'),
          inArray(paymentSubscriptions.state, ['PENDIENTE', 'ACTIVA', 'SUSPENDIDA']),
        ),
      );
    for (const row of rows) {
      await reconcilePreapproval(row.providerSubscriptionId);
      const fresh = await membership.findUser(user.id);
      if (!fresh || !canUpgrade(fresh)) throw new AppError('MEMBERSHIP_CHANGE_NOT_ALLOWED');
      await cancelAtMercadoPago(row.providerSubscriptionId);
    }
  }

  /** Starts a card subscription in pesos for a Basic member; the browser goes to Mercado Pago's page. */
  async function startSubscription(user: UserRow, input: { plan: Plan; returnTo: 'signup' | 'profile' }) {
    if (!canUpgrade(user)) throw new AppError('MEMBERSHIP_CHANGE_NOT_ALLOWED');
    const amountCents = await deps.prices.mxnPlanPriceCents(input.plan);
    // a plan without a price in pesos is not sold in pesos
    if (!amountCents) throw new AppError('FORBIDDEN');
    await settleEarlierCheckouts(user);
    let created: Preapproval;
    try {
      created = await provider.createPreapproval({
        reason: planTitle[input.plan],
        amountCents,
        frequencyMonths: input.plan === 'annual' ? 12 : 1,
        payerEmail: user.email,
        externalReference: user.id,
        backUrl: backUrl(input.returnTo, input.plan),
        idempotencyKey: randomUUID(),
      });
    } catch (error) {
      log.warn(
        { reason: error instanceof Error ? error.message : String(error) },
        'mercadopago preapproval not created',
      );
      throw new AppError('PAYMENT_PROVIDER_UNAVAILABLE');
    }
    if (
      created.status !== 'pending' ||
      created.amountCents !== amountCents ||
      created.currency !== 'MXN' ||
      created.externalReference !== user.id
    ) {
      log.error({ preapprovalId: created.id }, 'mercadopago preapproval does not match what we asked for');
      await cancelAtMercadoPago(created.id);
      throw new AppError('PAYMENT_PROVIDER_UNAVAILABLE');
    }
    const row = {
      userId: user.id,
      provider: 'mercadopago' as const,
      providerSubscriptionId: created.id,
      plan: input.plan,
      state: 'PENDIENTE' as const,
      amountCents,
      currency: 'MXN',
    };
    const inserted = await db
      .insert(paymentSubscriptions)
      .values(row)
      .onConflictDoNothing()
      .returning({ id: paymentSubscriptions.id });
    if (inserted.length === 0) {
      // another checkout of this account started at the same moment and won: this one must never charge
      await db
        .insert(paymentSubscriptions)
        .values({ ...row, supersededAt: new Date() })
        .onConflictDoNothing();
      await cancelAtMercadoPago(created.id);
      throw new AppError('SUBSCRIPTION_CHECKOUT_IN_PROGRESS');
    }
    return { subscriptionId: created.id, approvalUrl: created.initPoint! };
  }

  /** Our record of a preapproval, with its version (decision 062). */
  async function rowOf(preapprovalId: string) {
    const [row] = await db
      .select({ ...getTableColumns(paymentSubscriptions), version: subscriptionVersion })
      .from(paymentSubscriptions)
      .where(
        and(
          eq(paymentSubscriptions.providerSubscriptionId, preapprovalId),
          eq(paymentSubscriptions.provider, 'mercadopago'),
        ),
      );
    return row ?? null;
  }

  /**
   * One charge's payment, read back by id, into the history; its result, for membership's outcome, or null. A
   * payment of another amount or currency than we asked for grants nothing.
   */
  async function recordCharge(
    row: SubscriptionRow,
    preapproval: Preapproval,
    paymentId: string,
  ): Promise<PaymentResult | null> {
    const payment = await provider.getPayment(paymentId);
    if (!payment) return null;
    const expected = row.amountCents ?? preapproval.amountCents;
    if (payment.amountCents !== expected || payment.currency !== (row.currency ?? 'MXN')) {
      log.error(
        { paymentId, preapprovalId: row.providerSubscriptionId },
        'mercadopago charge does not match what we asked for',
      );
      return null;
    }
    const result = resultOf[payment.status];
    if (!result) return null;
    const [recorded] = await db
      .insert(payments)
      .values({
        userId: row.userId,
        provider: 'mercadopago',
        providerPaymentId: `mercadopago:${payment.id}`,
        providerSubscriptionId: row.providerSubscriptionId,
        kind: 'subscription',
        result: historyResult(payment, result),
        amountCents: payment.amountCents,
        currency: payment.currency,
        description: historyTitle[row.plan],
      })
      .onConflictDoUpdate({ target: payments.providerPaymentId, set: { result: sql`excluded.result` } })
      .returning({ id: payments.id, result: payments.result });
    if (recorded)
      await deps.onPesosPayment?.({
        paymentId: recorded.id,
        result: recorded.result,
        paymentForm: paymentFormOf(payment),
        refundedCents: payment.refundedCents,
      });
    return result;
  }

  /**
   * Reads a preapproval and every charge of it back from Mercado Pago and applies them: the same whatever
   * the order of notifications, and what repairs one that was lost. When our record changed while Mercado
   * Pago was read (a reactivation or downgrade ran meanwhile), it reads again (decision 062).
   */
  async function reconcilePreapproval(
    preapprovalId: string,
    /** A notification about one charge applies that charge only; the return and the daily pass read them all. */
    only?: { paymentId: string },
  ): Promise<{ state: string } | null> {
    return reconcileUntilApplied(preapprovalId, () => reconcileOnce(preapprovalId, only));
  }

  async function reconcileOnce(preapprovalId: string, only?: { paymentId: string }) {
    const row = await rowOf(preapprovalId);
    if (!row) return null;
    const preapproval = await provider.getPreapproval(preapprovalId);
    if (!preapproval) return { state: row.state };
    if (preapproval.externalReference !== row.userId) {
      log.warn({ preapprovalId }, 'preapproval external_reference does not match its owner');
      return { state: row.state };
    }
    const state = stateOf[preapproval.status];
    // Mercado Pago drops next_payment_date from a paused or cancelled preapproval: the last one read ends the period
    const periodEnd = preapproval.nextPaymentDate ?? row.nextBillingAt;
    const paymentIds = only
      ? [only.paymentId]
      : (await provider.searchAuthorizedPayments(preapprovalId)).flatMap((charge) =>
          charge.preapprovalId === preapprovalId && charge.payment ? [charge.payment.id] : [],
        );
    const results: PaymentResult[] = [];
    for (const paymentId of paymentIds) {
      const result = await recordCharge(row, preapproval, paymentId);
      if (result) results.push(result);
    }
    const grants = preapproval.status === 'authorized' && !row.supersededAt;
    if (grants && results.includes('COMPLETADO')) {
      const user = await membership.findUser(row.userId);
      if (user?.type === 'Premium' && user.subscriptionId && user.subscriptionId !== row.providerSubscriptionId) {
        // a second paid subscription of one account: it keeps the first, this one stops charging
        log.warn({ preapprovalId }, 'second live subscription of one account cancelled');
        await cancelAtMercadoPago(preapprovalId);
        return { state: 'CANCELADA' };
      }
    }
    const applied = await membership.applyUnlessChanged(row, async (outcomes, tx) => {
      await tx
        .update(paymentSubscriptions)
        .set({ state, nextBillingAt: periodEnd, updatedAt: new Date() })
        .where(eq(paymentSubscriptions.id, row.id));
      for (const result of results) {
        if (result === 'COMPLETADO' && grants)
          await outcomes.activatePremium(row.userId, {
            subscriptionId: preapprovalId,
            plan: row.plan,
            paidAt: new Date(),
            nextBillingTime: preapproval.nextPaymentDate,
          });
        else if (result === 'FALLIDO') await outcomes.markPaymentFailed(row.userId, preapprovalId);
        // the money went back: Premium ends now
        else if (result === 'REEMBOLSADO') await outcomes.markRefunded(row.userId, preapprovalId);
      }
      if (preapproval.status === 'paused' || preapproval.status === 'cancelled') {
        // stopped at Mercado Pago (the payer's account, the seller's panel): paid time is kept, as after a downgrade
        await outcomes.markBillingEnded(row.userId, preapprovalId, periodEnd);
      }
    });
    if (!applied) return 'changed' as const;
    // a refunded subscription must not charge again
    if (results.includes('REEMBOLSADO') && (preapproval.status === 'authorized' || preapproval.status === 'paused'))
      await cancelAtMercadoPago(preapprovalId);
    return { state };
  }

  /** A notification about one charge: its preapproval is read back, and that charge's payment applied. */
  async function reconcileCharge(authorizedPaymentId: string) {
    const charge = await provider.getAuthorizedPayment?.(authorizedPaymentId);
    if (!charge?.preapprovalId) return;
    await reconcilePreapproval(charge.preapprovalId, charge.payment ? { paymentId: charge.payment.id } : undefined);
  }

  /** A payment notification naming a subscription's charge (a refund, a chargeback): its preapproval is read back. */
  async function reconcileChargePayment(paymentId: string): Promise<boolean> {
    const [row] = await db
      .select({ preapprovalId: payments.providerSubscriptionId })
      .from(payments)
      .where(and(eq(payments.providerPaymentId, `mercadopago:${paymentId}`), eq(payments.kind, 'subscription')));
    if (!row?.preapprovalId) return false;
    await reconcilePreapproval(row.preapprovalId, { paymentId });
    return true;
  }

  /** The member came back from Mercado Pago's page: their newest checkout is read back; nothing is taken from the URL. */
  async function confirmReturn(user: UserRow) {
    const [row] = await db
      .select()
      .from(paymentSubscriptions)
      .where(
        and(
          eq(paymentSubscriptions.userId, user.id),
          eq(paymentSubscriptions.provider, 'mercadopago'),
          isNull(paymentSubscriptions.supersededAt),
        ),
      )
      .orderBy(desc(paymentSubscriptions.createdAt))
      .limit(1);
    if (!row) throw new AppError('NOT_FOUND');
    let state: string = row.state;
    try {
      state = (await reconcilePreapproval(row.providerSubscriptionId))?.state ?? row.state;
    } catch (error) {
      // Mercado Pago did not answer: the notification or the daily reconciliation will apply it
      log.warn({ reason: error instanceof Error ? error.message : String(error) }, 'mercadopago return not read');
    }
    const fresh = await membership.findUser(user.id);
    return { state, isPremium: fresh?.type === 'Premium' };
  }

  /** Every live card subscription in pesos read back once: lost notifications and changes made at Mercado Pago. */
  async function reconcileLive() {
    const rows = await db
      .select({ id: paymentSubscriptions.providerSubscriptionId })
      .from(paymentSubscriptions)
      .where(
        and(
          eq(paymentSubscriptions.provider, 'mercadopago'),
          inArray(paymentSubscriptions.state, ['PENDIENTE', 'ACTIVA', 'SUSPENDIDA']),
        ),
      );
    const totals = { checked: 0, failed: 0 };
    for (const row of rows) {
      try {
        await reconcilePreapproval(row.id);
        totals.checked++;
      } catch (error) {
        totals.failed++;
        log.warn(
          { preapprovalId: row.id, reason: error instanceof Error ? error.message : String(error) },
          'mercadopago preapproval not reconciled',
        );
      }
    }
    log.info?.(totals, 'mercadopago subscriptions reconciled');
    return totals;
  }

  return {
    startSubscription,
    reconcilePreapproval,
    reconcileCharge,
    reconcileChargePayment,
    confirmReturn,
    reconcileLive,
  };
}

export type MercadoPagoCardSubscriptions = ReturnType<typeof createMercadoPagoCardSubscriptions>;
