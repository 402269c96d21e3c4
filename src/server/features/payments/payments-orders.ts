import { randomUUID } from 'node:crypto';
import { and, eq, ne } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { paymentOrders } from '#server/db/schema/index.ts';
import { ProviderError, type PaymentProvider, type ProviderOrder } from '#server/services/payments/payment-provider.ts';
import type { UserRow } from '#server/features/accounts/accounts.service.ts';
import { AppError } from '#shared/errors.ts';
import { cutToLimit, orderEventKind, orderPaymentResult, type OrderEventKind } from './payments.rules.ts';
import type { PaymentsLog, ProviderFailureLogger } from './payments-log.ts';
import { recordProviderPayments, type RefundListener } from './payments-history.ts';

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

/** One-off orders (diploma purchases) through the provider; handlers hear every outcome change. */
export function createPaymentOrders(deps: {
  db: Db;
  provider: PaymentProvider;
  log: PaymentsLog;
  logProviderFailure: ProviderFailureLogger;
  onOrderEvent?: OrderEventHandler;
  onRefunded?: RefundListener;
}) {
  const { db, provider, log, logProviderFailure } = deps;
  const orderHandlers: OrderEventHandler[] = deps.onOrderEvent ? [deps.onOrderEvent] : [];

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
      const payment = {
        userId: row.userId,
        provider: provider.name,
        providerPaymentId: order.captureId,
        kind: 'order' as const,
        result: orderPaymentResult[kind],
        amountCents: order.amountCents,
        currency: order.currency,
        description: row.description,
      };
      await recordProviderPayments(db, [payment], deps.onRefunded);
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

  return { onOrder, startOrder, captureVerifiedOrder, reconcileOrder, reconcileCapture };
}
