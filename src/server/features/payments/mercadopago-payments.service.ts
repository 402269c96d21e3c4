import { randomUUID } from 'node:crypto';
import { and, eq, ne, notLike, sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { paymentOrders, paymentWebhookEvents, payments } from '#server/db/schema/index.ts';
import { applyStoredEvent } from './stored-webhook.ts';
import type { Log } from '#server/services/log.ts';
import type { MercadoPagoNotification, MercadoPagoProvider } from '#server/services/payments/mercadopago-provider.ts';
import type { MercadoPagoPayment, OfflineMethod } from '#server/services/payments/mercadopago-records.ts';
import { ProviderError } from '#server/services/payments/payment-provider.ts';
import { AppError } from '#shared/errors.ts';
import type { OfflinePayment as OfflineStart } from '#shared/payments/mercadopago.schemas.ts';
import { orderPaymentResult } from './payments.rules.ts';
import { historyResult, offlineOutcome } from './mercadopago-outcomes.ts';
import { takePendingPlace } from './mercadopago-pending-place.ts';
import { createCardCheckout, isCheckout } from './mercadopago-card-checkout.ts';
import type { UserRow } from '#server/features/accounts/accounts.service.ts';
import type { OrderEvent, OrderEventHandler } from './payments-orders.ts';
import type { PesosPaymentRecorded } from '#server/features/facturas/facturas.service.ts';
import { paymentFormOf } from '#server/features/facturas/payment-form.ts';

export const mercadoPagoJobKind = 'payments.mercadopago';

/** How long an OXXO voucher or a CLABE can be paid: Mercado Pago's default for cash is 3 days. */
const offlineDays = 3;

/** A payment being created at Mercado Pago holds its place under this id until Mercado Pago answers. */
const reservedPrefix = 'reserved:';
/** How long a request waits for another one's Mercado Pago answer (the adapter's 10 s timeout, retried twice). */
const reservationWaitMs = 40_000;
/** A reservation older than this was left by a crash: it no longer blocks a new payment. */
const reservationTtlMs = 2 * 60_000;

/** What a notification about a card subscription is applied by: each reads the resource back by id. */
type SubscriptionNotifications = {
  preapproval(preapprovalId: string): Promise<unknown>;
  charge(authorizedPaymentId: string): Promise<unknown>;
  chargePayment(paymentId: string): Promise<unknown>;
};

/** Schedules a job inside the caller's transaction (the job runner's schedule). */
type Schedule = (kind: string, options: { payload: object; uniqueKey: string; tx: Db }) => Promise<void>;

/** One-time payments in pesos through Mercado Pago (OXXO, SPEI) and its notifications; access follows the read-back. */
export function createMercadoPagoPaymentsService(deps: {
  db: Db;
  provider: MercadoPagoProvider;
  publicUrl: string;
  schedule: Schedule;
  /** Told of every payment recorded in the history (facturas: a receipt when approved, a cancel when refunded). */
  onPesosPayment?: PesosPaymentRecorded;
  log?: Pick<Log, 'warn' | 'error'> & Partial<Pick<Log, 'info'>>;
}) {
  const { db, provider, publicUrl } = deps;
  const log = deps.log ?? { warn() {}, error() {} };
  const handlers: OrderEventHandler[] = [];
  const notificationUrl = new URL('/api/payments/webhooks/mercadopago', publicUrl).toString();
  const checkout = createCardCheckout({
    db,
    provider,
    notificationUrl,
    log,
    existingVoucher: (userId, reference) => existingVoucher(userId, reference),
    reconcilePayment: (paymentId, read) => reconcilePayment(paymentId, read),
  });

  /** Registers a handler of one-time payment outcomes (the diplomas service enrols on 'completed'). */
  function onOrder(handler: OrderEventHandler) {
    handlers.push(handler);
  }

  let subscriptions: SubscriptionNotifications | null = null;
  /** Registers what applies notifications about card subscriptions (preapprovals and their charges). */
  function onSubscriptionNotification(handler: SubscriptionNotifications) {
    subscriptions = handler;
  }

  /** The payment in pesos waiting for money for `reference`: what payment_orders_one_pending_idx allows one of. */
  async function pendingRow(userId: string, reference: string) {
    const [row] = await db
      .select()
      .from(paymentOrders)
      .where(
        and(
          eq(paymentOrders.userId, userId),
          eq(paymentOrders.currency, 'MXN'),
          eq(paymentOrders.status, 'PENDING'),
          eq(paymentOrders.reference, reference),
        ),
      );
    return row ?? null;
  }

  /**
   * The voucher or CLABE of a payment already waiting for money, read back from Mercado Pago. A payment that
   * is no longer pending there (paid, expired) is applied first and answers null, so a new one can be made.
   */
  async function voucherOf(row: typeof paymentOrders.$inferSelect): Promise<OfflineStart | null> {
    let payment: MercadoPagoPayment | null;
    try {
      payment = await provider.getPayment(row.providerOrderId);
    } catch (error) {
      log.warn({ reason: error instanceof Error ? error.message : String(error) }, 'mercadopago payment not read');
      throw new AppError('PAYMENT_PROVIDER_UNAVAILABLE');
    }
    if (!payment || (payment.methodId !== 'oxxo' && payment.methodId !== 'clabe'))
      throw new AppError('PAYMENT_PROVIDER_UNAVAILABLE');
    if (offlineOutcome(payment)?.kind !== 'pending') {
      const status = await reconcilePayment(row.providerOrderId);
      if (status === 'COMPLETED') throw new AppError('CONFLICT');
      if (status === 'PENDING') throw new AppError('PAYMENT_PROVIDER_UNAVAILABLE');
      return null;
    }
    return {
      paymentId: payment.id,
      method: payment.methodId,
      amountCents: row.amountCents,
      expiresAt: (payment.expiresAt ?? new Date(row.createdAt.getTime() + offlineDays * 86_400_000)).toISOString(),
      instructionsUrl: payment.instructionsUrl,
      clabe: payment.clabe,
    };
  }

  /**
   * The payment this member is already paying for `reference`, if any. A reservation still waiting for
   * Mercado Pago's answer (a request made at the same moment) is waited for; one left by a crash is dropped.
   */
  async function existingVoucher(userId: string, reference: string): Promise<OfflineStart | null> {
    const waitUntil = Date.now() + reservationWaitMs;
    for (;;) {
      const row = await pendingRow(userId, reference);
      if (!row) return null;
      if (isCheckout(row.providerOrderId)) {
        await checkout.abandon(row);
        continue;
      }
      if (!row.providerOrderId.startsWith(reservedPrefix)) return voucherOf(row);
      if (Date.now() - row.createdAt.getTime() > reservationTtlMs) {
        await db
          .delete(paymentOrders)
          .where(and(eq(paymentOrders.id, row.id), eq(paymentOrders.providerOrderId, row.providerOrderId)));
        continue;
      }
      if (Date.now() > waitUntil) throw new AppError('PAYMENT_PROVIDER_UNAVAILABLE');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  /**
   * Creates a pending OXXO or SPEI payment for `amountCents` pesos and records what we asked for; the member
   * is shown the voucher or CLABE on our page. Nothing is granted until the payment is read back approved.
   * One payment waits for money per member and `reference`: a second request (also at the same moment, the
   * unique index decides) answers the first one's voucher, so the member is never asked to pay twice.
   */
  async function startOfflinePayment(
    user: UserRow,
    input: { method: OfflineMethod; amountCents: number; description: string; reference: string },
  ): Promise<OfflineStart> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const existing = await existingVoucher(user.id, input.reference);
      if (existing) return existing;
      const intent = randomUUID();
      const reserved = await takePendingPlace(db, user.id, input, `${reservedPrefix}${intent}`);
      // another request of this member reserved it first: its voucher is the answer
      if (!reserved) continue;
      try {
        return await createReserved(user, input, intent, reserved.id);
      } catch (error) {
        await db.delete(paymentOrders).where(eq(paymentOrders.id, reserved.id));
        throw error;
      }
    }
    throw new AppError('PAYMENT_PROVIDER_UNAVAILABLE');
  }

  async function createReserved(
    user: UserRow,
    input: { method: OfflineMethod; amountCents: number; description: string },
    intent: string,
    rowId: string,
  ): Promise<OfflineStart> {
    const expiresAt = new Date(Date.now() + offlineDays * 86_400_000);
    let payment: MercadoPagoPayment;
    try {
      payment = await provider.createOfflinePayment({
        method: input.method,
        amountCents: input.amountCents,
        description: input.description,
        payerEmail: user.email,
        externalReference: intent,
        notificationUrl,
        expiresAt,
        idempotencyKey: intent,
      });
    } catch (error) {
      log.warn(
        { reason: error instanceof ProviderError ? error.message : String(error) },
        'mercadopago payment not created',
      );
      // Mercado Pago down or refusing: the member is told to try again later, nothing was created twice
      throw new AppError('PAYMENT_PROVIDER_UNAVAILABLE');
    }
    if (
      payment.amountCents !== input.amountCents ||
      payment.currency !== 'MXN' ||
      payment.externalReference !== intent
    ) {
      log.error({ paymentId: payment.id }, 'mercadopago payment does not match what we asked for');
      throw new AppError('PAYMENT_PROVIDER_UNAVAILABLE');
    }
    await db
      .update(paymentOrders)
      .set({ providerOrderId: payment.id, updatedAt: new Date() })
      .where(eq(paymentOrders.id, rowId));
    return {
      paymentId: payment.id,
      method: input.method,
      amountCents: input.amountCents,
      expiresAt: (payment.expiresAt ?? expiresAt).toISOString(),
      instructionsUrl: payment.instructionsUrl,
      clabe: payment.clabe,
    };
  }

  /**
   * Stores a verified notification and queues the job that applies it, in one transaction; a notification
   * already stored (Mercado Pago retries every ~15 minutes) is a duplicate.
   */
  async function receiveNotification(notification: MercadoPagoNotification): Promise<'stored' | 'duplicate'> {
    const id = `mercadopago:${notification.id}`;
    return db.transaction(async (tx) => {
      const stored = await tx
        .insert(paymentWebhookEvents)
        .values({
          id,
          provider: 'mercadopago',
          type: notification.type,
          payload: { dataId: notification.dataId, action: notification.action, body: notification.payload },
          transmissionId: notification.requestId ? `mercadopago:${notification.requestId}` : null,
        })
        .onConflictDoNothing()
        .returning({ id: paymentWebhookEvents.id });
      if (stored.length === 0) return 'duplicate';
      await deps.schedule(mercadoPagoJobKind, { payload: { eventId: id }, uniqueKey: `webhook:${id}`, tx });
      return 'stored';
    });
  }

  /**
   * Reads a payment back (unless the caller has just read it) and applies it to the one-time payment we recorded;
   * unknown ids change nothing.
   */
  async function reconcilePayment(paymentId: string, read?: MercadoPagoPayment): Promise<string | null> {
    const byId = () =>
      db
        .select()
        .from(paymentOrders)
        .where(and(eq(paymentOrders.providerOrderId, paymentId), eq(paymentOrders.provider, 'mercadopago')));
    let [row] = await byId();
    let payment = read ?? null;
    if (!row) {
      const claim = await checkout.claim(paymentId);
      if (!claim) return null;
      if (!claim.claimed) return claim.row.status;
      payment = claim.payment;
      [row] = await byId();
      if (!row) return null;
    }
    payment ??= await provider.getPayment(paymentId);
    if (!payment) return null;
    if (payment.amountCents !== row.amountCents || payment.currency !== row.currency) {
      log.error({ paymentId }, 'mercadopago payment does not match what we asked for (amount or currency)');
      return null;
    }
    const outcome = offlineOutcome(payment);
    if (!outcome) return row.status;
    if (outcome.kind !== 'pending') {
      const [recorded] = await db
        .insert(payments)
        .values({
          userId: row.userId,
          provider: 'mercadopago',
          providerPaymentId: `mercadopago:${payment.id}`,
          kind: 'order',
          result: historyResult(payment, orderPaymentResult[outcome.kind]),
          amountCents: row.amountCents,
          currency: row.currency,
          description: row.description,
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
    }
    if (row.status !== outcome.status) {
      const event: OrderEvent = {
        kind: outcome.kind,
        orderId: payment.id,
        captureId: null,
        userId: row.userId,
        amountCents: row.amountCents,
        currency: row.currency,
        description: row.description,
        reference: row.reference,
      };
      // handlers first: a crash before the status is saved repeats the event, never loses it
      for (const handler of handlers) await handler(event);
      await db
        .update(paymentOrders)
        .set({ status: outcome.status, updatedAt: new Date() })
        .where(and(eq(paymentOrders.id, row.id), ne(paymentOrders.status, outcome.status)));
    }
    return outcome.status;
  }

  /** The job: applies one stored notification by reading back what it names; only then is it processed. */
  async function applyStoredNotification(eventId: string): Promise<'applied' | 'already'> {
    return applyStoredEvent(
      db,
      eventId,
      async (row) => {
        const { dataId } = row.payload as { dataId: string };
        if (row.type === 'payment') {
          // a payment we never recorded as an order may be a subscription's charge (its refund, its chargeback)
          if ((await reconcilePayment(dataId)) === null) await subscriptions?.chargePayment(dataId);
        } else if (row.type === 'subscription_preapproval') await subscriptions?.preapproval(dataId);
        else if (row.type === 'subscription_authorized_payment') await subscriptions?.charge(dataId);
      },
      (error, row) =>
        log.warn(
          { eventId, type: row.type, reason: error instanceof Error ? error.message : String(error) },
          'mercadopago notification not applied yet',
        ),
    );
  }

  /** The member's one-time payments in pesos still waiting for money (shown as pending in the profile). */
  async function pendingOf(userId: string) {
    return db
      .select({
        paymentId: paymentOrders.providerOrderId,
        description: paymentOrders.description,
        amountCents: paymentOrders.amountCents,
        reference: paymentOrders.reference,
        createdAt: paymentOrders.createdAt,
      })
      .from(paymentOrders)
      .where(
        and(
          eq(paymentOrders.userId, userId),
          eq(paymentOrders.provider, 'mercadopago'),
          eq(paymentOrders.status, 'PENDING'),
          notLike(paymentOrders.providerOrderId, `${reservedPrefix}%`),
        ),
      );
  }

  return {
    provider,
    onOrder,
    onSubscriptionNotification,
    startOfflinePayment,
    startCardCheckout: checkout.start,
    confirmCheckout: checkout.confirm,
    receiveNotification,
    applyStoredNotification,
    reconcilePayment,
    pendingOf,
  };
}

export type MercadoPagoPaymentsService = ReturnType<typeof createMercadoPagoPaymentsService>;
