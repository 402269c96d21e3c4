import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { paymentOrders } from '#server/db/schema/index.ts';
import type { Log } from '#server/services/log.ts';
import type { MercadoPagoProvider } from '#server/services/payments/mercadopago-provider.ts';
import type { MercadoPagoPayment } from '#server/services/payments/mercadopago-records.ts';
import { ProviderError } from '#server/services/payments/payment-provider.ts';
import type { UserRow } from '#server/features/accounts/accounts.service.ts';
import { AppError } from '#shared/errors.ts';
import { offlineOutcome } from './mercadopago-outcomes.ts';
import { takePendingPlace } from './mercadopago-pending-place.ts';

/**
 * A card payment on Checkout Pro's page is recorded under its preference's external reference until Mercado Pago
 * reports a payment for it; the page stays payable for a day.
 */
const checkoutPrefix = 'checkout:';
const checkoutHours = 24;

export const isCheckout = (providerOrderId: string) => providerOrderId.startsWith(checkoutPrefix);

/** One-time card payments in pesos on Checkout Pro's hosted page, recorded beside the OXXO and SPEI ones. */
export function createCardCheckout(deps: {
  db: Db;
  provider: MercadoPagoProvider;
  notificationUrl: string;
  log: Pick<Log, 'warn'>;
  /** The OXXO voucher or CLABE waiting for money for `reference`, if any (a checkout row gives way first). */
  existingVoucher(userId: string, reference: string): Promise<unknown>;
  reconcilePayment(paymentId: string, read?: MercadoPagoPayment): Promise<string | null>;
}) {
  const { db, provider, notificationUrl, log } = deps;

  /**
   * A card checkout the member left for another one (or for OXXO/SPEI) stops holding the member's one pending
   * payment; a payment still made on its page is claimed by its external reference and counts all the same.
   */
  async function abandon(row: typeof paymentOrders.$inferSelect) {
    await db
      .update(paymentOrders)
      .set({ status: 'ABANDONED', updatedAt: new Date() })
      .where(and(eq(paymentOrders.id, row.id), eq(paymentOrders.status, 'PENDING')));
  }

  /**
   * A one-time card payment in pesos on Checkout Pro's page (no Mercado Pago script on ours): a preference for
   * `amountCents` pesos whose external reference names our row; the member pays there and comes back to `backUrl`.
   * Nothing is granted until a payment for it is read back approved. An OXXO voucher or CLABE already waiting for
   * money for the same thing answers PAYMENT_PENDING: the member is never asked to pay twice.
   */
  async function start(
    user: UserRow,
    input: { amountCents: number; description: string; reference: string; backUrl: string },
  ): Promise<{ initPoint: string }> {
    for (let attempt = 0; attempt < 3; attempt++) {
      if (await deps.existingVoucher(user.id, input.reference)) throw new AppError('PAYMENT_PENDING');
      const intent = randomUUID();
      const row = await takePendingPlace(db, user.id, input, `${checkoutPrefix}${intent}`);
      // another request of this member got there first: its row is looked at again
      if (!row) continue;
      try {
        return await provider.createCardPreference({
          title: input.description,
          amountCents: input.amountCents,
          payerEmail: user.email,
          externalReference: intent,
          backUrl: input.backUrl,
          notificationUrl,
          expiresAt: new Date(Date.now() + checkoutHours * 3_600_000),
          idempotencyKey: intent,
        });
      } catch (error) {
        await db.delete(paymentOrders).where(eq(paymentOrders.id, row.id));
        log.warn(
          { reason: error instanceof ProviderError ? error.message : String(error) },
          'mercadopago preference not created',
        );
        throw new AppError('PAYMENT_PROVIDER_UNAVAILABLE');
      }
    }
    throw new AppError('PAYMENT_PROVIDER_UNAVAILABLE');
  }

  /**
   * The row of a payment made on a Checkout Pro page: found by the payment's external reference (read back from
   * Mercado Pago, never from a URL) and, once money moved, recorded under the payment's id. A rejected card
   * leaves the checkout waiting: the member may try another card on the same page.
   */
  async function claim(paymentId: string, userId?: string) {
    const payment = await provider.getPayment(paymentId);
    if (!payment?.externalReference) return null;
    const [row] = await db
      .select()
      .from(paymentOrders)
      .where(eq(paymentOrders.providerOrderId, `${checkoutPrefix}${payment.externalReference}`));
    if (!row || (userId && row.userId !== userId)) return null;
    const outcome = offlineOutcome(payment)?.kind;
    if (outcome === 'denied' || outcome === 'pending') return { row, payment, claimed: false };
    await db
      .update(paymentOrders)
      .set({ providerOrderId: payment.id, updatedAt: new Date() })
      .where(and(eq(paymentOrders.id, row.id), eq(paymentOrders.providerOrderId, row.providerOrderId)));
    return { row, payment, claimed: true };
  }

  /**
   * Back from Checkout Pro with a payment id in the URL: it is only a hint. The payment is read back, and applied
   * only when its external reference names a checkout of this member.
   */
  async function confirm(userId: string, paymentId: string): Promise<string> {
    const [recorded] = await db
      .select({ userId: paymentOrders.userId })
      .from(paymentOrders)
      .where(and(eq(paymentOrders.providerOrderId, paymentId), eq(paymentOrders.provider, 'mercadopago')));
    if (recorded && recorded.userId !== userId) throw new AppError('NOT_FOUND');
    if (recorded) return (await deps.reconcilePayment(paymentId)) ?? 'PENDING';
    let claimed;
    try {
      claimed = await claim(paymentId, userId);
    } catch {
      throw new AppError('PAYMENT_PROVIDER_UNAVAILABLE');
    }
    if (!claimed) throw new AppError('NOT_FOUND');
    if (!claimed.claimed) return claimed.row.status === 'PENDING' ? 'DENIED' : claimed.row.status;
    // the payment just read is applied as it is: reading it a second time could only race its own notification
    return (await deps.reconcilePayment(paymentId, claimed.payment)) ?? 'PENDING';
  }

  return { start, claim, confirm, abandon };
}
