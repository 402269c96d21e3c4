import type { Plan } from '#shared/payments/payments.rules.ts';

export type ProviderSubscriptionStatus = 'APPROVAL_PENDING' | 'APPROVED' | 'ACTIVE' | 'SUSPENDED' | 'CANCELLED' | 'EXPIRED';

/** The provider's own record of a subscription: the only thing that grants access. */
export type ProviderSubscription = {
  id: string;
  status: ProviderSubscriptionStatus;
  plan: Plan | null;
  /** Our user id, set when the subscription was created. */
  customId: string | null;
  lastPayment: { amountCents: number; time: Date } | null;
  lastFailedPayment: { amountCents: number; time: Date } | null;
};

export type ProviderTransaction = {
  id: string;
  result: 'COMPLETADO' | 'FALLIDO' | 'REEMBOLSADO';
  amountCents: number;
  currency: string;
  time: Date;
};

export type ProviderOrderStatus = 'CREATED' | 'APPROVED' | 'COMPLETED' | 'VOIDED';

export type ProviderOrder = {
  id: string;
  status: ProviderOrderStatus;
  amountCents: number;
  customId: string | null;
  captureId: string | null;
};

/** What a verified webhook is about; the handler re-reads that record from the provider. */
export type WebhookEvent = {
  id: string;
  type: string;
  target: { kind: 'subscription' | 'order'; id: string } | null;
  payload: unknown;
};

export type CheckoutUrls = { returnUrl: string; cancelUrl: string };

/** A subscription payment provider (DESIGN.md): PayPal in production, the simulated one offline. */
export interface PaymentProvider {
  readonly name: 'simulado' | 'paypal';
  /** Shown to people, e.g. in the title of 'No se pudo crear la suscripción'. */
  readonly displayName: string;
  createSubscription(input: { plan: Plan; customId: string } & CheckoutUrls): Promise<{ id: string; approvalUrl: string }>;
  /** null when the provider does not know the id. */
  getSubscription(id: string): Promise<ProviderSubscription | null>;
  listTransactions(subscriptionId: string): Promise<ProviderTransaction[]>;
  suspendSubscription(id: string, reason: string): Promise<void>;
  activateSubscription(id: string, reason: string): Promise<void>;
  cancelSubscription(id: string, reason: string): Promise<void>;
  createOrder(input: { amountCents: number; description: string; customId: string } & CheckoutUrls): Promise<{ id: string; approvalUrl: string }>;
  getOrder(id: string): Promise<ProviderOrder | null>;
  captureOrder(id: string): Promise<ProviderOrder>;
  /** The event when its signature is genuine, else null. */
  verifyWebhook(input: { headers: Record<string, string | string[] | undefined>; rawBody: string }): Promise<WebhookEvent | null>;
}

export class ProviderError extends Error {
  constructor(message: string, readonly status?: number) {
    super(message);
    this.name = 'ProviderError';
  }
}

/** PayPal's event shape, which the simulated provider sends too. */
export function webhookTarget(event: { event_type?: unknown; resource?: unknown }): WebhookEvent['target'] {
  const type = typeof event.event_type === 'string' ? event.event_type : '';
  const resource = (event.resource ?? {}) as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === 'string' && value ? value : null);
  if (type.startsWith('BILLING.SUBSCRIPTION.')) {
    const id = text(resource.id);
    return id ? { kind: 'subscription', id } : null;
  }
  if (type.startsWith('PAYMENT.SALE.')) {
    const id = text(resource.billing_agreement_id);
    return id ? { kind: 'subscription', id } : null;
  }
  if (type.startsWith('CHECKOUT.ORDER.')) {
    const id = text(resource.id);
    return id ? { kind: 'order', id } : null;
  }
  if (type.startsWith('PAYMENT.CAPTURE.')) {
    const related = ((resource.supplementary_data as Record<string, unknown> | undefined)?.related_ids ?? {}) as Record<string, unknown>;
    const id = text(related.order_id);
    return id ? { kind: 'order', id } : null;
  }
  return null;
}

export const centsToValue = (cents: number) => (cents / 100).toFixed(2);
export const valueToCents = (value: unknown) => Math.round(Number(value ?? 0) * 100);
