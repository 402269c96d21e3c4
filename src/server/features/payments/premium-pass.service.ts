import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { paymentSubscriptions } from '#server/db/schema/index.ts';
import type { MembershipService } from '#server/features/membership/membership.service.ts';
import type { UserRow } from '#server/features/accounts/accounts.service.ts';
import type { Log } from '#server/services/log.ts';
import type { OfflineMethod } from '#server/services/payments/mercadopago-records.ts';
import { canUpgrade, prepaidPassPrefix } from '#shared/membership/membership.rules.ts';
import { AppError } from '#shared/errors.ts';
import type { OfflinePayment } from '#shared/payments/mercadopago.schemas.ts';
import type { MercadoPagoPaymentsService } from './mercadopago-payments.service.ts';
import type { OrderEvent } from './payments-orders.ts';
import type { PricesService } from './prices.service.ts';

/** What a pass's payment is recorded under: one waits for money per member (payment_orders_one_pending_idx). */
const passReference = 'premium-pass';
const description = 'Premium anual (pago único)';

/**
 * 'Premium anual (pago único)': one annual period of Premium paid at OXXO or by SPEI at the annual price in
 * pesos, not renewed. Premium starts only when the payment is read back approved; a refund ends it.
 */
export function createPremiumPassService(deps: {
  db: Db;
  mercadoPago: Pick<MercadoPagoPaymentsService, 'startOfflinePayment' | 'startCardCheckout'>;
  publicUrl: string;
  membership: Pick<MembershipService, 'grantPrepaidPass' | 'markRefunded'>;
  prices: Pick<PricesService, 'mxnPlanPriceCents'>;
  log: Pick<Log, 'error' | 'warn'>;
}) {
  const { db, log } = deps;

  /** What the pass costs in pesos for this member, or why it cannot be bought. */
  async function priceFor(user: UserRow): Promise<number> {
    if (!canUpgrade(user)) throw new AppError('MEMBERSHIP_CHANGE_NOT_ALLOWED');
    // refused while a subscription is live (a failed charge being retried, a paused one)
    const live = await db
      .select({ id: paymentSubscriptions.id })
      .from(paymentSubscriptions)
      .where(
        and(
          eq(paymentSubscriptions.userId, user.id),
          inArray(paymentSubscriptions.state, ['ACTIVA', 'SUSPENDIDA']),
          isNull(paymentSubscriptions.supersededAt),
        ),
      );
    if (live.length > 0) throw new AppError('MEMBERSHIP_CHANGE_NOT_ALLOWED');
    const amountCents = await deps.prices.mxnPlanPriceCents('annual');
    // the annual plan without a price in pesos is not sold in pesos
    if (!amountCents) throw new AppError('FORBIDDEN');
    return amountCents;
  }

  async function start(user: UserRow, method: OfflineMethod): Promise<OfflinePayment> {
    const amountCents = await priceFor(user);
    return deps.mercadoPago.startOfflinePayment(user, { method, amountCents, description, reference: passReference });
  }

  /** The pass by card on Checkout Pro's page; the member comes back to the profile. */
  async function startCard(user: UserRow): Promise<{ approvalUrl: string }> {
    const amountCents = await priceFor(user);
    const { initPoint } = await deps.mercadoPago.startCardCheckout(user, {
      amountCents,
      description,
      reference: passReference,
      backUrl: new URL('/perfil?pago=mercadopago', deps.publicUrl).toString(),
    });
    return { approvalUrl: initPoint };
  }

  /** The pass's payment outcomes (amount and currency already checked against what we asked for). */
  async function applyOrderEvent(event: OrderEvent): Promise<void> {
    if (event.reference !== passReference || event.currency !== 'MXN') return;
    if (event.kind === 'completed') {
      const granted = await deps.membership.grantPrepaidPass(event.userId, event.orderId, new Date());
      // paid while the account became Premium another way: the money must go back by hand
      if (!granted) log.error({ paymentId: event.orderId }, 'premium pass paid by an account that is not Basic');
    } else if (event.kind === 'refunded') {
      await deps.membership.markRefunded(event.userId, `${prepaidPassPrefix}${event.orderId}`);
    }
  }

  return { start, startCard, applyOrderEvent };
}

export type PremiumPassService = ReturnType<typeof createPremiumPassService>;
