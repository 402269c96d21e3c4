import { createHmac } from 'node:crypto';
import { planPriceCents, type Plan } from '#shared/payments/payments.rules.ts';
import {
  ProviderError,
  type ProviderCaptureStatus,
  type ProviderOrder,
  type ProviderSubscriptionStatus,
} from './payment-provider.ts';

export type TransactionStatus = 'COMPLETED' | 'DECLINED' | 'PENDING' | 'REFUNDED' | 'PARTIALLY_REFUNDED';
export type StoredTransaction = {
  id: string;
  status: TransactionStatus;
  amountCents: number;
  currency: string;
  time: string;
};

/** What the simulated provider keeps of a subscription, as JSON in simulated_provider_records. */
export type StoredSubscription = {
  id: string;
  status: ProviderSubscriptionStatus;
  plan: Plan;
  customId: string;
  failedPaymentsCount: number;
  returnUrl: string;
  cancelUrl: string;
  transactions: StoredTransaction[];
};

export type StoredOrder = {
  id: string;
  status: ProviderOrder['status'];
  amountCents: number;
  currency: string;
  customId: string;
  description: string;
  returnUrl: string;
  cancelUrl: string;
  captureId: string | null;
  captureStatus: ProviderCaptureStatus | null;
  /** The buyer chose a payment that settles later (e.g. a bank transfer): the capture is PENDING. */
  settlesLater: boolean;
};

export type SimulatedAction =
  | 'approve'
  | 'approve-pending'
  | 'cancel'
  | 'fail'
  | 'renew'
  | 'renew-fail'
  | 'refund'
  | 'provider-cancel'
  | 'capture-complete'
  | 'capture-deny';

export type SimulatedRecord = (StoredSubscription & { kind: 'subscription' }) | (StoredOrder & { kind: 'order' });

/**
 * The simulated provider's record of a subscription that was approved and paid once at `paidAt`
 * (demo data: the seeded Premium member can downgrade like anyone who paid).
 */
export function paidSimulatedSubscription(input: {
  id: string;
  plan: Plan;
  customId: string;
  paymentId: string;
  paidAt: Date;
}) {
  const record: StoredSubscription = {
    id: input.id,
    status: 'ACTIVE',
    plan: input.plan,
    customId: input.customId,
    failedPaymentsCount: 0,
    returnUrl: '/perfil',
    cancelUrl: '/perfil?pago=cancelado',
    transactions: [
      {
        id: input.paymentId,
        status: 'COMPLETED',
        amountCents: planPriceCents[input.plan],
        currency: 'USD',
        time: input.paidAt.toISOString(),
      },
    ],
  };
  return { id: input.id, kind: 'subscription' as const, data: record };
}

/** Signs a webhook body the way the simulated provider does: t=<ms>,v1=<hmac>. */
export function signSimulatedWebhook(secret: string, rawBody: string, time = Date.now()): string {
  const mac = createHmac('sha256', secret).update(`${time}.${rawBody}`).digest('hex');
  return `t=${time},v1=${mac}`;
}

export const refuse = (name: string, status = 422) => new ProviderError(name, status, { name });
