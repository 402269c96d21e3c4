import { randomUUID } from 'node:crypto';
import type { ProviderSubscriptionStatus } from './payment-provider.ts';
import type { MercadoPagoProvider } from './mercadopago-provider.ts';
import type { SubscriptionOperations } from './provider-registry.ts';

/** A preapproval's status as membership reads a subscription's (Subscriptions API: /preapproval). */
const statusOf = {
  pending: 'APPROVAL_PENDING',
  authorized: 'ACTIVE',
  paused: 'SUSPENDED',
  cancelled: 'CANCELLED',
} as const satisfies Record<string, ProviderSubscriptionStatus>;

/**
 * What membership and an account deletion do to a card subscription in pesos, as Mercado Pago's preapproval
 * allows it: read, pause, authorize again (only a paused one), cancel (final). The reason membership gives is
 * not sent: a preapproval's `reason` is its title on the payer's statement, not a note about the change.
 */
export function mercadoPagoSubscriptions(
  mp: Pick<MercadoPagoProvider, 'getPreapproval' | 'setPreapprovalStatus'>,
): SubscriptionOperations {
  return {
    name: 'mercadopago',
    async getSubscription(id) {
      const preapproval = await mp.getPreapproval(id);
      if (!preapproval) return null;
      return {
        status: statusOf[preapproval.status],
        // only an authorized preapproval will charge; its next_payment_date ends the paid period
        nextBillingTime: preapproval.status === 'authorized' ? preapproval.nextPaymentDate : null,
      };
    },
    async suspendSubscription(id) {
      // one key per change: a pause after a resume is a new change, not a repeat of the first pause
      await mp.setPreapprovalStatus(id, 'paused', randomUUID());
    },
    async activateSubscription(id) {
      await mp.setPreapprovalStatus(id, 'authorized', randomUUID());
    },
    async cancelSubscription(id) {
      // cancelling is final, so every retry of it is the same change
      await mp.setPreapprovalStatus(id, 'cancelled', `cancel-${id}`);
    },
  };
}
