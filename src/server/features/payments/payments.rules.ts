import type {
  ProviderOrder,
  ProviderSubscription,
  ProviderSubscriptionStatus,
  ProviderTransaction,
} from '#server/services/payments/payment-provider.ts';
import { planPriceCents, type PaymentResult, type subscriptionStates } from '#shared/payments/payments.rules.ts';

export type SubscriptionOutcome = 'activate' | 'fail' | 'suspend' | 'cancel' | 'refund' | 'none';

/**
 * What the provider's current record of a subscription means for the member. Deciding from the
 * record rather than from the event makes every delivery order end in the same state.
 * - cancelled or expired → cancel;
 * - the last money that moved was fully refunded (or reversed) → refund: Premium ends;
 * - a charge failed after the last payment, or PayPal counts consecutive failures
 *   (failed_payments_count > 0: it suspends the subscription when they reach the plan's threshold) → fail;
 * - suspended with no failed payment (a downgrade, PayPal's dashboard, a suspend whose answer was lost) → suspend:
 *   billing has ended, the member keeps the paid period;
 * - active with a real payment → activate.
 */
export function subscriptionOutcome(
  subscription: ProviderSubscription,
  transactions: ProviderTransaction[] = [],
): SubscriptionOutcome {
  if (subscription.status === 'CANCELLED' || subscription.status === 'EXPIRED') return 'cancel';
  const settled = transactions
    .filter((tx) => tx.result === 'COMPLETADO' || tx.result === 'REEMBOLSADO')
    .sort((a, b) => a.time.getTime() - b.time.getTime());
  if (settled.at(-1)?.result === 'REEMBOLSADO') return 'refund';
  const live = subscription.status === 'ACTIVE' || subscription.status === 'SUSPENDED';
  const paidAt = subscription.lastPayment?.time.getTime() ?? -Infinity;
  const failedAt = subscription.lastFailedPayment?.time.getTime() ?? -Infinity;
  if (live && (subscription.failedPaymentsCount > 0 || failedAt > paidAt)) return 'fail';
  if (subscription.status === 'SUSPENDED') return 'suspend';
  if (subscription.status === 'ACTIVE' && subscription.lastPayment && subscription.plan) return 'activate';
  return 'none';
}

/**
 * Why a paid subscription must not grant Premium, or null when it may: the plan id must be one of
 * ours, the last payment its price in USD, and custom_id the account the checkout was started for.
 */
export function grantRefusal(subscription: ProviderSubscription, ownerId: string): string | null {
  if (!subscription.plan) return 'plan id is not one of ours';
  if (subscription.customId !== ownerId) return 'custom_id does not name the account';
  const payment = subscription.lastPayment;
  if (!payment || payment.amountCents !== planPriceCents[subscription.plan] || payment.currency !== 'USD')
    return 'last payment amount or currency differs from the plan';
  return null;
}

export const stateByProviderStatus: Record<ProviderSubscriptionStatus, (typeof subscriptionStates)[number]> = {
  APPROVAL_PENDING: 'PENDIENTE',
  APPROVED: 'PENDIENTE',
  ACTIVE: 'ACTIVA',
  SUSPENDED: 'SUSPENDIDA',
  CANCELLED: 'CANCELADA',
  EXPIRED: 'EXPIRADA',
};

/** What a one-off order's outcome is, as handed to the order handlers; null while nothing was captured. */
export type OrderEventKind = 'completed' | 'pending' | 'denied' | 'refunded';

export function orderEventKind(order: ProviderOrder): OrderEventKind | null {
  switch (order.captureStatus) {
    case 'COMPLETED':
    case 'PARTIALLY_REFUNDED':
      return 'completed';
    case 'PENDING':
      return 'pending';
    case 'DECLINED':
    case 'FAILED':
      return 'denied';
    case 'REFUNDED':
      return 'refunded';
    default:
      return order.status === 'VOIDED' ? 'denied' : null;
  }
}

export const orderPaymentResult: Record<OrderEventKind, PaymentResult> = {
  completed: 'COMPLETADO',
  pending: 'PENDIENTE',
  denied: 'FALLIDO',
  refunded: 'REEMBOLSADO',
};

/** PayPal's limit on purchase_units[].description and similar free texts. */
const providerTextLimit = 127;

/** Cuts a text to the provider's limit without splitting a character. */
export function cutToLimit(text: string, limit = providerTextLimit): string {
  const chars = [...text];
  return chars.length <= limit ? text : chars.slice(0, limit - 1).join('') + '…';
}
