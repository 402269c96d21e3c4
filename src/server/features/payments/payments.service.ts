import { randomUUID } from 'node:crypto';
import type { Log } from '#server/services/log.ts';
import { canUpgrade } from '#shared/membership/membership.rules.ts';
import { and, desc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { paymentOrders, paymentSubscriptions, paymentWebhookEvents, payments } from '#server/db/schema/index.ts';
import { applyStoredEvent } from './stored-webhook.ts';
import {
  ProviderError,
  webhookTarget,
  type PaymentProvider,
  type ProviderOrder,
  type WebhookEvent,
} from '#server/services/payments/payment-provider.ts';
import type { MembershipService } from '#server/features/membership/membership.service.ts';
import type { UserRow } from '#server/features/accounts/accounts.service.ts';
import { AppError } from '#shared/errors.ts';
import type { Plan } from '#shared/payments/payments.rules.ts';
import type { PaymentRecord } from '#shared/payments/payments.schemas.ts';
import {
  cutToLimit,
  grantRefusal,
  orderEventKind,
  orderPaymentResult,
  stateByProviderStatus,
  subscriptionOutcome,
  type OrderEventKind,
} from './payments.rules.ts';

const planDescription: Record<Plan, string> = { monthly: 'Premium mensual', annual: 'Premium anual' };

/** The job that applies a stored webhook event. */
export const webhookJobKind = 'payments.webhook';
/** The daily job that reads every live subscription once and repairs what drifted from the provider's record. */
export const reconcileJobKind = 'payments.reconcile';

/**
 * A one-off order's outcome changed (completed, pending, denied, refunded). Handlers (the diplomas
 * service) are called at least once per change, from the webhook job or from captureVerifiedOrder,
 * so they must be idempotent; a handler that throws makes the job retry later.
 */
export type OrderEvent = {
  kind: OrderEventKind;
  orderId: string;
  captureId: string | null;
  userId: string;
  amountCents: number;
  currency: string;
  description: string;
  /** What startOrder was given as reference (e.g. the diploma id). */
  reference: string | null;
};
export type OrderEventHandler = (event: OrderEvent) => Promise<void>;

/** Schedules a job inside the caller's transaction (the job runner's schedule). */
type Schedule = (kind: string, options: { payload: object; uniqueKey: string; tx: Db }) => Promise<void>;

/** Subscriptions and orders through the configured provider; access follows only what the provider confirms. */
export function createPaymentsService(deps: {
  db: Db;
  provider: PaymentProvider;
  membership: MembershipService;
  publicUrl: string;
  /** Where stored webhook events are queued; applied by applyStoredWebhook. */
  schedule: Schedule;
  onOrderEvent?: OrderEventHandler;
  log?: Pick<Log, 'warn' | 'error'> & Partial<Pick<Log, 'info'>>;
}) {
  const { db, provider, membership, publicUrl } = deps;
  const log = deps.log ?? { warn() {}, error() {} };
  const orderHandlers: OrderEventHandler[] = deps.onOrderEvent ? [deps.onOrderEvent] : [];

  /** Logs a failed provider call with what support needs to trace it (PayPal's debug_id), no personal data. */
  function logProviderFailure(error: unknown, msg: string, context: object = {}) {
    const details = error instanceof ProviderError ? { status: error.status, ...error.details } : {};
    log.error({ ...context, ...details, err: error }, msg);
  }

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
   * history, then the membership outcome. Idempotent, and the same whatever the event order.
   */
  async function reconcileSubscription(
    providerSubscriptionId: string,
  ): Promise<{ state: string; outcome: string } | null> {
    const [row] = await db
      .select()
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
    if (state !== row.state || periodEnd?.getTime() !== row.nextBillingAt?.getTime()) {
      await db
        .update(paymentSubscriptions)
        .set({ state, nextBillingAt: periodEnd, updatedAt: new Date() })
        .where(eq(paymentSubscriptions.id, row.id));
    }
    const transactions =
      snapshot.status !== 'APPROVAL_PENDING' && snapshot.status !== 'APPROVED'
        ? await provider.listTransactions(providerSubscriptionId)
        : [];
    if (transactions.length > 0) {
      await db
        .insert(payments)
        .values(
          transactions.map((tx) => ({
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
          })),
        )
        .onConflictDoUpdate({ target: payments.providerPaymentId, set: { result: sql`excluded.result` } });
    }
    const outcome = subscriptionOutcome({ ...snapshot, plan }, transactions);
    const refusal = outcome === 'activate' ? grantRefusal(snapshot, row.userId) : null;
    if (refusal) {
      log.error({ providerSubscriptionId, reason: refusal }, 'paid subscription does not match what we sell');
      return { state, outcome: 'none' };
    }
    if (outcome === 'activate') {
      const user = await membership.findUser(row.userId);
      if (user?.type === 'Premium' && user.subscriptionId && user.subscriptionId !== providerSubscriptionId) {
        // a second paid subscription (two checkouts approved): the account keeps one, this one stops charging
        log.warn({ providerSubscriptionId }, 'second live subscription of one account cancelled');
        await cancelAtProvider(providerSubscriptionId, 'Suscripción duplicada');
        return { state: 'CANCELADA', outcome: 'none' };
      }
      await membership.activatePremium(row.userId, {
        subscriptionId: providerSubscriptionId,
        plan: snapshot.plan!,
        paidAt: snapshot.lastPayment!.time,
        nextBillingTime: snapshot.nextBillingTime,
      });
    } else if (outcome === 'fail') {
      await membership.markPaymentFailed(row.userId, providerSubscriptionId);
    } else if (outcome === 'cancel' || outcome === 'suspend') {
      // ended at PayPal (dashboard, the member's PayPal account): paid time is kept, as after a downgrade
      await membership.markBillingEnded(row.userId, providerSubscriptionId, periodEnd);
    } else if (outcome === 'refund') {
      // the member got the money back: Premium ends now, and the subscription must not charge again
      const ended = await membership.markRefunded(row.userId, providerSubscriptionId);
      if (snapshot.status === 'ACTIVE' || snapshot.status === 'SUSPENDED')
        await cancelAtProvider(providerSubscriptionId, 'Pago reembolsado');
      if (ended) log.info?.({ providerSubscriptionId }, 'premium ended by a refund');
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
   * Stores a verified webhook and queues the job that applies it, in one transaction: once the
   * provider has its 200, the event is on disk and will be applied even if we crash right after.
   */
  async function receiveWebhook(event: WebhookEvent, transmissionId?: string): Promise<'stored' | 'duplicate'> {
    return db.transaction(async (tx) => {
      const stored = await tx
        .insert(paymentWebhookEvents)
        .values({
          id: event.id,
          provider: provider.name,
          type: event.type,
          payload: event.payload as object,
          transmissionId: transmissionId || null,
        })
        .onConflictDoNothing()
        .returning({ id: paymentWebhookEvents.id });
      if (stored.length === 0) return 'duplicate';
      await deps.schedule(webhookJobKind, { payload: { eventId: event.id }, uniqueKey: `webhook:${event.id}`, tx });
      return 'stored';
    });
  }

  /** A delivery whose transmission id is stored already: a replay, answered without asking the provider. */
  async function isKnownTransmission(transmissionId: string): Promise<boolean> {
    const [row] = await db
      .select({ id: paymentWebhookEvents.id })
      .from(paymentWebhookEvents)
      .where(eq(paymentWebhookEvents.transmissionId, transmissionId));
    return Boolean(row);
  }

  /**
   * The job: applies one stored event by reading the provider's record it names; only then is it
   * processed. Running it twice (a crash after applying, a retry) changes nothing more.
   */
  async function applyStoredWebhook(eventId: string): Promise<'applied' | 'already'> {
    return applyStoredEvent(
      db,
      eventId,
      async (row) => {
        const target = webhookTarget(row.payload as { event_type?: unknown; resource?: unknown });
        if (target?.kind === 'subscription') await reconcileSubscription(target.id);
        else if (target?.kind === 'sale') await reconcileSale(target.id);
        else if (target?.kind === 'order') await reconcileOrder(target.id);
        else if (target?.kind === 'capture') await reconcileCapture(target.id);
      },
      (error, row) => logProviderFailure(error, 'webhook event not applied yet', { eventId, type: row.type }),
    );
  }

  /** Registers a handler of order outcomes (the diplomas service enrols on 'completed'). */
  function onOrder(handler: OrderEventHandler) {
    orderHandlers.push(handler);
  }

  async function orderRow(providerOrderId: string) {
    const [row] = await db
      .select()
      .from(paymentOrders)
      .where(and(eq(paymentOrders.providerOrderId, providerOrderId), eq(paymentOrders.provider, provider.name)));
    return row ?? null;
  }

  /** The provider's order must be the one we asked for: same member, amount and currency. */
  function matchesRequest(order: ProviderOrder, row: typeof paymentOrders.$inferSelect) {
    return order.customId === row.userId && order.amountCents === row.amountCents && order.currency === row.currency;
  }

  /** Records what the provider says about a captured order and tells the handlers when it changed. */
  async function applyOrderState(
    order: ProviderOrder,
    row: typeof paymentOrders.$inferSelect,
  ): Promise<OrderEventKind | null> {
    const kind = orderEventKind(order);
    if (!kind) return null;
    if (order.captureId) {
      await db
        .insert(payments)
        .values({
          userId: row.userId,
          provider: provider.name,
          providerPaymentId: order.captureId,
          kind: 'order',
          result: orderPaymentResult[kind],
          amountCents: order.amountCents,
          currency: order.currency,
          description: row.description,
        })
        .onConflictDoUpdate({ target: payments.providerPaymentId, set: { result: sql`excluded.result` } });
    }
    const status = kind.toUpperCase();
    if (row.status !== status) {
      const event: OrderEvent = {
        kind,
        orderId: order.id,
        captureId: order.captureId,
        userId: row.userId,
        amountCents: row.amountCents,
        currency: row.currency,
        description: row.description,
        reference: row.reference,
      };
      // handlers first: a crash before the status is saved repeats the event, never loses it
      for (const handler of orderHandlers) await handler(event);
      await db
        .update(paymentOrders)
        .set({ status, captureId: order.captureId, updatedAt: new Date() })
        .where(and(eq(paymentOrders.id, row.id), ne(paymentOrders.status, status)));
    }
    return kind;
  }

  /** A webhook about an order: re-read it, capture an approved one the browser never came back for, apply. */
  async function reconcileOrder(providerOrderId: string) {
    const row = await orderRow(providerOrderId);
    if (!row) return;
    let order = await provider.getOrder(providerOrderId);
    if (!order) return;
    if (!matchesRequest(order, row)) {
      log.error({ providerOrderId }, 'order does not match what we asked for (member, amount or currency)');
      return;
    }
    if (order.status === 'APPROVED' && !order.captureId) order = await capture(providerOrderId);
    await applyOrderState(order, row);
  }

  /** A refund or reversal names only the capture: find our order by the capture id it recorded. */
  async function reconcileCapture(captureId: string) {
    const [row] = await db
      .select({ providerOrderId: paymentOrders.providerOrderId })
      .from(paymentOrders)
      .where(and(eq(paymentOrders.captureId, captureId), eq(paymentOrders.provider, provider.name)));
    if (!row) {
      log.warn({ captureId }, 'refund of a capture we never recorded');
      return;
    }
    await reconcileOrder(row.providerOrderId);
  }

  /**
   * Captures an approved order. A 422 (already captured by a racing call, declined, not approved)
   * is settled by reading the order again: what PayPal says it is wins over the error.
   */
  async function capture(providerOrderId: string): Promise<ProviderOrder> {
    try {
      return await provider.captureOrder(providerOrderId);
    } catch (error) {
      if (error instanceof ProviderError && error.unprocessable) {
        const order = await provider.getOrder(providerOrderId).catch(() => null);
        if (order?.captureId) {
          if (error.details.issue !== 'ORDER_ALREADY_CAPTURED')
            log.warn({ providerOrderId, issue: error.details.issue }, 'capture refused but the order is captured');
          return order;
        }
      }
      logProviderFailure(error, 'order capture failed', { providerOrderId });
      if (error instanceof ProviderError && error.unprocessable) throw new AppError('PAYMENT_DECLINED');
      throw new AppError('SUBSCRIPTION_UNMAPPED_ERROR');
    }
  }

  /**
   * Starts a one-off payment (e.g. a diploma purchase); verify it with captureVerifiedOrder.
   * `reference` comes back in the order events (e.g. the diploma id).
   */
  async function startOrder(
    user: UserRow,
    input: { amountCents: number; description: string; returnUrl: string; cancelUrl: string; reference?: string },
  ) {
    const description = cutToLimit(input.description);
    let created: { id: string; approvalUrl: string };
    try {
      created = await provider.createOrder({ ...input, description, customId: user.id, requestId: randomUUID() });
    } catch (error) {
      logProviderFailure(error, 'order creation failed');
      throw new AppError('SUBSCRIPTION_CREATE_FAILED');
    }
    await db.insert(paymentOrders).values({
      userId: user.id,
      provider: provider.name,
      providerOrderId: created.id,
      amountCents: input.amountCents,
      currency: 'USD',
      description: input.description,
      reference: input.reference ?? null,
    });
    return created;
  }

  /**
   * Captures an approved order after checking with the provider that it is this user's, for this
   * amount and in USD. Returns only when the money arrived (COMPLETED); a capture the provider
   * holds (PENDING) answers PAYMENT_PENDING and completes later through the webhook and the order
   * handlers; a declined one answers PAYMENT_DECLINED.
   */
  async function captureVerifiedOrder(
    user: UserRow,
    orderId: string,
    expected: { amountCents: number; description: string },
  ) {
    const first = await provider.getOrder(orderId);
    if (!first || first.customId !== user.id || first.amountCents !== expected.amountCents || first.currency !== 'USD')
      throw new AppError('FORBIDDEN');
    const row =
      (await orderRow(orderId)) ??
      // an order started before payment_orders existed: recorded now, from what the caller expects
      (
        await db
          .insert(paymentOrders)
          .values({
            userId: user.id,
            provider: provider.name,
            providerOrderId: orderId,
            amountCents: expected.amountCents,
            description: expected.description,
          })
          .onConflictDoNothing()
          .returning()
      )[0] ??
      (await orderRow(orderId))!;
    if (row.userId !== user.id || row.amountCents !== expected.amountCents) throw new AppError('FORBIDDEN');
    const captured = first.status === 'APPROVED' && !first.captureId ? await capture(orderId) : first;
    const kind = await applyOrderState(captured, row);
    if (kind === 'completed' && captured.captureId) return captured;
    if (kind === 'pending') throw new AppError('PAYMENT_PENDING');
    if (kind === 'denied') throw new AppError('PAYMENT_DECLINED');
    throw new AppError('FORBIDDEN');
  }

  /** A member's payment history, newest first. */
  async function history(userId: string): Promise<PaymentRecord[]> {
    const rows = await db
      .select()
      .from(payments)
      .where(eq(payments.userId, userId))
      .orderBy(desc(payments.occurredAt))
      .limit(200);
    return rows.map((row) => ({
      id: row.id,
      provider: row.provider,
      kind: row.kind,
      result: row.result,
      amountCents: row.amountCents,
      currency: row.currency,
      description: row.description,
      occurredAt: row.occurredAt.toISOString(),
    }));
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

  /** Events stored but not applied yet (e.g. after a crash): their jobs are still queued. */
  async function unprocessedWebhooks() {
    return db
      .select({ id: paymentWebhookEvents.id })
      .from(paymentWebhookEvents)
      .where(isNull(paymentWebhookEvents.processedAt));
  }

  return {
    provider,
    startSubscription,
    reconcileSubscription,
    confirmSubscription,
    receiveWebhook,
    isKnownTransmission,
    applyStoredWebhook,
    onOrder,
    startOrder,
    captureVerifiedOrder,
    history,
    unprocessedWebhooks,
    reconcileLiveSubscriptions,
  };
}

export type PaymentsService = ReturnType<typeof createPaymentsService>;
