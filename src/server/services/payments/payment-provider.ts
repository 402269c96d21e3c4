import type { PaymentResult, Plan } from '#shared/payments/payments.rules.ts';

export type ProviderSubscriptionStatus =
  'APPROVAL_PENDING' | 'APPROVED' | 'ACTIVE' | 'SUSPENDED' | 'CANCELLED' | 'EXPIRED';

/** The provider's own record of a subscription: the only thing that grants access. */
export type ProviderSubscription = {
  id: string;
  status: ProviderSubscriptionStatus;
  plan: Plan | null;
  /** Our user id, set when the subscription was created. */
  customId: string | null;
  lastPayment: { amountCents: number; currency: string; time: Date } | null;
  lastFailedPayment: { amountCents: number; currency: string; time: Date } | null;
  /** Consecutive failed charges; the provider resets it to 0 after a successful one. */
  failedPaymentsCount: number;
  /** When the provider will charge next: the end of the paid period (null when it will not charge). */
  nextBillingTime: Date | null;
};

export type ProviderTransaction = {
  id: string;
  result: PaymentResult;
  amountCents: number;
  currency: string;
  time: Date;
};

/** @public kept for the diploma order flow (knip) */
export type ProviderOrderStatus = 'CREATED' | 'APPROVED' | 'COMPLETED' | 'VOIDED';

/** PayPal's capture statuses (Orders v2): only COMPLETED means the money arrived. */
export type ProviderCaptureStatus = 'COMPLETED' | 'PENDING' | 'DECLINED' | 'FAILED' | 'REFUNDED' | 'PARTIALLY_REFUNDED';

export type ProviderOrder = {
  id: string;
  status: ProviderOrderStatus;
  amountCents: number;
  currency: string;
  customId: string | null;
  /** The capture of a captured order (whatever its status), else null. */
  captureId: string | null;
  captureStatus: ProviderCaptureStatus | null;
};

/** What a verified webhook is about; the handler re-reads that record from the provider. */
export type WebhookEvent = {
  id: string;
  type: string;
  /** A sale is a subscription's charge: refund notices name only the sale; an order's refund names only its capture. */
  target: { kind: 'subscription' | 'order' | 'sale' | 'capture'; id: string } | null;
  payload: unknown;
};

/** @public kept for the diploma order flow (knip) */
export type CheckoutUrls = { returnUrl: string; cancelUrl: string };

/** A subscription payment provider (DESIGN.md): PayPal in production, the simulated one offline. */
export interface PaymentProvider {
  readonly name: 'simulado' | 'paypal';
  /** Shown to people, e.g. in the title of 'No se pudo crear la suscripción'. */
  readonly displayName: string;
  /** requestId: the same key for retries of one intent, so the provider creates it once. */
  createSubscription(
    input: { plan: Plan; customId: string; requestId?: string } & CheckoutUrls,
  ): Promise<{ id: string; approvalUrl: string }>;
  /** null when the provider does not know the id. */
  getSubscription(id: string): Promise<ProviderSubscription | null>;
  listTransactions(subscriptionId: string): Promise<ProviderTransaction[]>;
  suspendSubscription(id: string, reason: string): Promise<void>;
  activateSubscription(id: string, reason: string): Promise<void>;
  cancelSubscription(id: string, reason: string): Promise<void>;
  createOrder(
    input: { amountCents: number; description: string; customId: string; requestId?: string } & CheckoutUrls,
  ): Promise<{ id: string; approvalUrl: string }>;
  getOrder(id: string): Promise<ProviderOrder | null>;
  /** Captures an approved order once; a retry with the same order id is answered, never charged twice. */
  captureOrder(id: string): Promise<ProviderOrder>;
  /** The event when its signature is genuine, else null. */
  verifyWebhook(input: {
    headers: Record<string, string | string[] | undefined>;
    rawBody: string;
  }): Promise<WebhookEvent | null>;
}

/** A refused or failed provider call; name, debugId and issue come from the provider's error body. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    readonly details: { name?: string; debugId?: string; issue?: string } = {},
  ) {
    super(message);
    this.name = 'ProviderError';
  }

  /** The provider refused the request itself (422: e.g. a declined instrument), retrying will not help. */
  get unprocessable(): boolean {
    return this.status === 422;
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
    if (id) return { kind: 'subscription', id };
    // a refund or reversal carries the sale it refunds, not the subscription
    const sale = text(resource.sale_id) ?? (type === 'PAYMENT.SALE.REVERSED' ? text(resource.id) : null);
    return sale ? { kind: 'sale', id: sale } : null;
  }
  if (type.startsWith('CHECKOUT.ORDER.')) {
    const id = text(resource.id);
    return id ? { kind: 'order', id } : null;
  }
  if (type.startsWith('PAYMENT.CAPTURE.')) {
    const related = ((resource.supplementary_data as Record<string, unknown> | undefined)?.related_ids ?? {}) as Record<
      string,
      unknown
    >;
    const id = text(related.order_id);
    if (id) return { kind: 'order', id };
    // a refund or reversal (resource_type refund) names its capture only through the link rel "up"
    const links = Array.isArray(resource.links) ? (resource.links as { rel?: unknown; href?: unknown }[]) : [];
    const up = text(links.find((link) => link.rel === 'up')?.href);
    const parent = up ? /\/v2\/(payments\/captures|checkout\/orders)\/([^/?#]+)/.exec(up) : null;
    if (!parent) return null;
    return { kind: parent[1] === 'payments/captures' ? 'capture' : 'order', id: decodeURIComponent(parent[2]!) };
  }
  return null;
}

/** PayPal's transaction statuses (Subscriptions v1) as the payment history records them. */
export function transactionResult(status: unknown): PaymentResult {
  switch (status) {
    case 'COMPLETED':
      return 'COMPLETADO';
    case 'PENDING':
      return 'PENDIENTE';
    case 'REFUNDED':
      return 'REEMBOLSADO';
    case 'PARTIALLY_REFUNDED':
      return 'REEMBOLSO_PARCIAL';
    case 'DECLINED':
    default:
      return 'FALLIDO';
  }
}

export const centsToValue = (cents: number) => (cents / 100).toFixed(2);
export const valueToCents = (value: unknown) => Math.round(Number(value ?? 0) * 100);
