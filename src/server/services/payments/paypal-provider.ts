import type { Plan } from '#shared/payments/payments.rules.ts';
import {
  ProviderError,
  centsToValue,
  valueToCents,
  webhookTarget,
  type PaymentProvider,
  type ProviderOrder,
  type ProviderSubscription,
  type ProviderSubscriptionStatus,
  type ProviderTransaction,
} from './payment-provider.ts';

export type PayPalOptions = {
  apiUrl: string;
  clientId: string;
  clientSecret: string;
  planIds: Record<Plan, string>;
  webhookId: string;
  brandName?: string;
  fetch?: typeof fetch;
};

type Json = Record<string, unknown>;

const subscriptionStatuses: readonly ProviderSubscriptionStatus[] = ['APPROVAL_PENDING', 'APPROVED', 'ACTIVE', 'SUSPENDED', 'CANCELLED', 'EXPIRED'];
const transmissionHeaders = ['paypal-auth-algo', 'paypal-cert-url', 'paypal-transmission-id', 'paypal-transmission-sig', 'paypal-transmission-time'] as const;

/** PayPal Subscriptions + Orders over its REST API; webhooks verified by verify-webhook-signature. */
export function createPayPalProvider(options: PayPalOptions): PaymentProvider {
  const doFetch = options.fetch ?? fetch;
  const base = options.apiUrl.replace(/\/$/, '');
  let token: { value: string; expiresAt: number } | null = null;

  async function accessToken(): Promise<string> {
    if (token && token.expiresAt > Date.now() + 60_000) return token.value;
    const response = await doFetch(`${base}/v1/oauth2/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${options.clientId}:${options.clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });
    if (!response.ok) throw new ProviderError(`paypal token ${response.status}`, response.status);
    const body = (await response.json()) as { access_token: string; expires_in: number };
    token = { value: body.access_token, expiresAt: Date.now() + body.expires_in * 1000 };
    return token.value;
  }

  async function call<T = Json>(method: string, path: string, body?: unknown, allowNotFound = false): Promise<T | null> {
    const response = await doFetch(`${base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${await accessToken()}`,
        'content-type': 'application/json',
        prefer: 'return=representation',
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (allowNotFound && response.status === 404) return null;
    if (!response.ok) throw new ProviderError(`paypal ${method} ${path} ${response.status}`, response.status);
    const text = await response.text();
    return (text ? JSON.parse(text) : {}) as T;
  }

  const planByPayPalId = (planId: unknown): Plan | null =>
    planId === options.planIds.monthly ? 'monthly' : planId === options.planIds.annual ? 'annual' : null;

  const approveLink = (links: unknown): string => {
    const list = Array.isArray(links) ? (links as { rel?: string; href?: string }[]) : [];
    const link = list.find((each) => each.rel === 'approve' || each.rel === 'payer-action');
    if (!link?.href) throw new ProviderError('paypal answered without an approval link');
    return link.href;
  };

  const moneyAt = (value: unknown) => {
    const record = (value ?? null) as { amount?: { value?: string }; time?: string } | null;
    if (!record?.time) return null;
    return { amountCents: valueToCents(record.amount?.value), time: new Date(record.time) };
  };

  function toOrder(body: Json): ProviderOrder {
    const unit = ((body.purchase_units as Json[] | undefined) ?? [])[0] ?? {};
    const captures = (((unit.payments as Json | undefined)?.captures as Json[] | undefined) ?? []);
    const capture = captures.find((each) => each.status === 'COMPLETED');
    const status = String(body.status);
    return {
      id: String(body.id),
      status: status === 'COMPLETED' || status === 'APPROVED' || status === 'VOIDED' ? status : 'CREATED',
      amountCents: valueToCents((unit.amount as Json | undefined)?.value),
      customId: typeof unit.custom_id === 'string' ? unit.custom_id : null,
      captureId: capture ? String(capture.id) : null,
    };
  }

  return {
    name: 'paypal',
    displayName: 'PayPal',

    async createSubscription({ plan, customId, returnUrl, cancelUrl }) {
      const body = await call<Json>('POST', '/v1/billing/subscriptions', {
        plan_id: options.planIds[plan],
        custom_id: customId,
        application_context: {
          brand_name: options.brandName ?? 'CxVet',
          locale: 'es-MX',
          shipping_preference: 'NO_SHIPPING',
          user_action: 'SUBSCRIBE_NOW',
          return_url: returnUrl,
          cancel_url: cancelUrl,
        },
      });
      return { id: String(body!.id), approvalUrl: approveLink(body!.links) };
    },

    async getSubscription(id) {
      const body = await call<Json>('GET', `/v1/billing/subscriptions/${encodeURIComponent(id)}`, undefined, true);
      if (!body) return null;
      const status = String(body.status) as ProviderSubscriptionStatus;
      const billing = (body.billing_info ?? {}) as Json;
      const subscription: ProviderSubscription = {
        id: String(body.id),
        status: subscriptionStatuses.includes(status) ? status : 'APPROVAL_PENDING',
        plan: planByPayPalId(body.plan_id),
        customId: typeof body.custom_id === 'string' ? body.custom_id : null,
        lastPayment: moneyAt(billing.last_payment),
        lastFailedPayment: moneyAt(billing.last_failed_payment),
      };
      return subscription;
    },

    async listTransactions(id) {
      const end = new Date();
      const start = new Date(end.getTime() - 3 * 365 * 86_400_000);
      const query = `start_time=${start.toISOString()}&end_time=${end.toISOString()}`;
      const body = await call<{ transactions?: Json[] }>('GET', `/v1/billing/subscriptions/${encodeURIComponent(id)}/transactions?${query}`);
      return (body?.transactions ?? []).map((tx): ProviderTransaction => {
        const amounts = (tx.amount_with_breakdown ?? {}) as { gross_amount?: { value?: string; currency_code?: string } };
        const status = String(tx.status);
        return {
          id: String(tx.id),
          result: status === 'COMPLETED' ? 'COMPLETADO' : status === 'REFUNDED' || status === 'PARTIALLY_REFUNDED' ? 'REEMBOLSADO' : 'FALLIDO',
          amountCents: valueToCents(amounts.gross_amount?.value),
          currency: amounts.gross_amount?.currency_code ?? 'USD',
          time: new Date(String(tx.time)),
        };
      });
    },

    async suspendSubscription(id, reason) {
      await call('POST', `/v1/billing/subscriptions/${encodeURIComponent(id)}/suspend`, { reason });
    },
    async activateSubscription(id, reason) {
      await call('POST', `/v1/billing/subscriptions/${encodeURIComponent(id)}/activate`, { reason });
    },
    async cancelSubscription(id, reason) {
      await call('POST', `/v1/billing/subscriptions/${encodeURIComponent(id)}/cancel`, { reason });
    },

    async createOrder({ amountCents, description, customId, returnUrl, cancelUrl }) {
      const body = await call<Json>('POST', '/v2/checkout/orders', {
        intent: 'CAPTURE',
        purchase_units: [{ amount: { currency_code: 'USD', value: centsToValue(amountCents) }, description, custom_id: customId }],
        application_context: { brand_name: options.brandName ?? 'CxVet', locale: 'es-MX', shipping_preference: 'NO_SHIPPING', user_action: 'PAY_NOW', return_url: returnUrl, cancel_url: cancelUrl },
      });
      return { id: String(body!.id), approvalUrl: approveLink(body!.links) };
    },

    async getOrder(id) {
      const body = await call<Json>('GET', `/v2/checkout/orders/${encodeURIComponent(id)}`, undefined, true);
      return body ? toOrder(body) : null;
    },

    async captureOrder(id) {
      const body = await call<Json>('POST', `/v2/checkout/orders/${encodeURIComponent(id)}/capture`, {});
      return toOrder(body!);
    },

    async verifyWebhook({ headers, rawBody }) {
      const values: Record<string, string> = {};
      for (const name of transmissionHeaders) {
        const value = headers[name];
        if (typeof value !== 'string' || !value) return null;
        values[name] = value;
      }
      let event: Json;
      try {
        event = JSON.parse(rawBody) as Json;
      } catch {
        return null;
      }
      if (typeof event.id !== 'string' || typeof event.event_type !== 'string') return null;
      const result = await call<{ verification_status?: string }>('POST', '/v1/notifications/verify-webhook-signature', {
        auth_algo: values['paypal-auth-algo'],
        cert_url: values['paypal-cert-url'],
        transmission_id: values['paypal-transmission-id'],
        transmission_sig: values['paypal-transmission-sig'],
        transmission_time: values['paypal-transmission-time'],
        webhook_id: options.webhookId,
        webhook_event: event,
      });
      if (result?.verification_status !== 'SUCCESS') return null;
      return { id: event.id, type: event.event_type, target: webhookTarget(event), payload: event };
    },
  };
}
