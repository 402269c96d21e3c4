import type { ProviderSubscription, ProviderSubscriptionStatus } from '#server/services/payments/payment-provider.ts';
import type { subscriptionStates } from '#shared/payments/payments.rules.ts';

export type SubscriptionOutcome = 'activate' | 'fail' | 'cancel' | 'none';

/**
 * What the provider's current record of a subscription means for the member. Deciding from the
 * record rather than from the event makes every delivery order end in the same state.
 */
export function subscriptionOutcome(subscription: ProviderSubscription): SubscriptionOutcome {
  if (subscription.status === 'CANCELLED' || subscription.status === 'EXPIRED') return 'cancel';
  const paidAt = subscription.lastPayment?.time.getTime() ?? -Infinity;
  const failedAt = subscription.lastFailedPayment?.time.getTime() ?? -Infinity;
  if (failedAt > paidAt && (subscription.status === 'ACTIVE' || subscription.status === 'SUSPENDED')) return 'fail';
  if (subscription.status === 'ACTIVE' && subscription.lastPayment && subscription.plan) return 'activate';
  return 'none';
}

export const stateByProviderStatus: Record<ProviderSubscriptionStatus, (typeof subscriptionStates)[number]> = {
  APPROVAL_PENDING: 'PENDIENTE',
  APPROVED: 'PENDIENTE',
  ACTIVE: 'ACTIVA',
  SUSPENDED: 'SUSPENDIDA',
  CANCELLED: 'CANCELADA',
  EXPIRED: 'EXPIRADA',
};
