import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { planPriceCents, type Plan } from '#shared/payments/payments.rules.ts';
import {
  ProviderError,
  webhookTarget,
  type PaymentProvider,
  type ProviderOrder,
  type ProviderSubscription,
  type ProviderTransaction,
} from './payment-provider.ts';

export const simulatedSignatureHeader = 'x-simulado-signature';
const toleranceMs = 5 * 60_000;

type SimulatedSubscription = ProviderSubscription & {
  returnUrl: string;
  cancelUrl: string;
  transactions: ProviderTransaction[];
};
type SimulatedOrder = ProviderOrder & { returnUrl: string; cancelUrl: string; description: string };

export type SimulatedAction = 'approve' | 'cancel' | 'fail' | 'renew' | 'renew-fail' | 'provider-cancel';

/** Signs a webhook body the way the simulated provider does: t=<ms>,v1=<hmac>. */
export function signSimulatedWebhook(secret: string, rawBody: string, time = Date.now()): string {
  const mac = createHmac('sha256', secret).update(`${time}.${rawBody}`).digest('hex');
  return `t=${time},v1=${mac}`;
}

export type WebhookTransport = (rawBody: string, headers: Record<string, string>) => Promise<void>;

/**
 * The built-in provider: our own checkout page (/pago-simulado/...) stands in for the provider's,
 * and every change is announced through signed webhooks like a real provider would.
 */
export function createSimulatedProvider(options: { publicUrl: string; secret: string; transport?: WebhookTransport }) {
  const subscriptions = new Map<string, SimulatedSubscription>();
  const orders = new Map<string, SimulatedOrder>();
  const pending = new Set<Promise<void>>();
  let transport = options.transport;

  function send(type: string, resource: Record<string, unknown>) {
    const event = { id: `WH-SIM-${randomUUID()}`, event_type: type, resource_type: type.split('.')[0]?.toLowerCase(), create_time: new Date().toISOString(), resource };
    const rawBody = JSON.stringify(event);
    const headers = { 'content-type': 'application/json', [simulatedSignatureHeader]: signSimulatedWebhook(options.secret, rawBody) };
    if (!transport) return;
    const delivery = transport(rawBody, headers).catch(() => {});
    pending.add(delivery);
    void delivery.finally(() => pending.delete(delivery));
  }

  const subscriptionResource = (sub: SimulatedSubscription) => ({ id: sub.id, status: sub.status, plan_id: `SIM-${sub.plan}`, custom_id: sub.customId });

  function findSubscription(id: string): SimulatedSubscription {
    const sub = subscriptions.get(id);
    if (!sub) throw new ProviderError('RESOURCE_NOT_FOUND', 404);
    return sub;
  }

  function charge(sub: SimulatedSubscription, ok: boolean) {
    const amountCents = planPriceCents[sub.plan as Plan];
    // charges of one subscription never share a millisecond, so "which came last" is always defined
    const previous = sub.transactions.at(-1)?.time.getTime() ?? 0;
    const time = new Date(Math.max(Date.now(), previous + 1));
    const transaction: ProviderTransaction = { id: `SIM-TX-${randomUUID()}`, result: ok ? 'COMPLETADO' : 'FALLIDO', amountCents, currency: 'USD', time };
    sub.transactions.push(transaction);
    if (ok) sub.lastPayment = { amountCents, time };
    else sub.lastFailedPayment = { amountCents, time };
    return transaction;
  }

  const withSubscriptionId = (url: string, id: string) => {
    const target = new URL(url);
    target.searchParams.set('subscription_id', id);
    return target.toString();
  };

  const provider: PaymentProvider & {
    /** Applies what the person pressed on the checkout page; returns where the browser goes next. */
    act(kind: 'subscription' | 'order', id: string, action: SimulatedAction): string;
    describe(kind: 'subscription' | 'order', id: string): (SimulatedSubscription | SimulatedOrder) | null;
    setTransport(next: WebhookTransport): void;
    /** Resolves when every webhook sent so far has been delivered (tests). */
    settled(): Promise<void>;
  } = {
    name: 'simulado',
    displayName: 'Pago simulado',

    async createSubscription({ plan, customId, returnUrl, cancelUrl }) {
      const id = `I-SIM${randomUUID().replaceAll('-', '').slice(0, 12).toUpperCase()}`;
      subscriptions.set(id, { id, status: 'APPROVAL_PENDING', plan, customId, lastPayment: null, lastFailedPayment: null, returnUrl, cancelUrl, transactions: [] });
      send('BILLING.SUBSCRIPTION.CREATED', { id, status: 'APPROVAL_PENDING', custom_id: customId });
      return { id, approvalUrl: `${options.publicUrl}/pago-simulado/suscripcion/${id}` };
    },

    async getSubscription(id) {
      const sub = subscriptions.get(id);
      if (!sub) return null;
      const { returnUrl: _r, cancelUrl: _c, transactions: _t, ...record } = sub;
      return structuredClone(record);
    },

    async listTransactions(id) {
      return structuredClone(findSubscription(id).transactions);
    },

    async suspendSubscription(id) {
      const sub = findSubscription(id);
      if (sub.status !== 'ACTIVE') throw new ProviderError('SUBSCRIPTION_STATUS_INVALID', 422);
      sub.status = 'SUSPENDED';
      send('BILLING.SUBSCRIPTION.SUSPENDED', subscriptionResource(sub));
    },

    async activateSubscription(id) {
      const sub = findSubscription(id);
      if (sub.status !== 'SUSPENDED') throw new ProviderError('SUBSCRIPTION_STATUS_INVALID', 422);
      sub.status = 'ACTIVE';
      send('BILLING.SUBSCRIPTION.ACTIVATED', subscriptionResource(sub));
    },

    async cancelSubscription(id) {
      const sub = findSubscription(id);
      if (sub.status === 'CANCELLED' || sub.status === 'EXPIRED') throw new ProviderError('SUBSCRIPTION_STATUS_INVALID', 422);
      sub.status = 'CANCELLED';
      send('BILLING.SUBSCRIPTION.CANCELLED', subscriptionResource(sub));
    },

    async createOrder({ amountCents, description, customId, returnUrl, cancelUrl }) {
      const id = `SIM-ORDER-${randomUUID().slice(0, 8).toUpperCase()}`;
      orders.set(id, { id, status: 'CREATED', amountCents, customId, captureId: null, returnUrl, cancelUrl, description });
      return { id, approvalUrl: `${options.publicUrl}/pago-simulado/orden/${id}` };
    },

    async getOrder(id) {
      const order = orders.get(id);
      if (!order) return null;
      const { returnUrl: _r, cancelUrl: _c, description: _d, ...record } = order;
      return structuredClone(record);
    },

    async captureOrder(id) {
      const order = orders.get(id);
      if (!order) throw new ProviderError('RESOURCE_NOT_FOUND', 404);
      if (order.status === 'APPROVED') {
        order.status = 'COMPLETED';
        order.captureId = `SIM-CAP-${randomUUID().slice(0, 8).toUpperCase()}`;
        send('PAYMENT.CAPTURE.COMPLETED', { id: order.captureId, status: 'COMPLETED', supplementary_data: { related_ids: { order_id: id } } });
      } else if (order.status !== 'COMPLETED') {
        throw new ProviderError('ORDER_NOT_APPROVED', 422);
      }
      const { returnUrl: _r, cancelUrl: _c, description: _d, ...record } = order;
      return structuredClone(record);
    },

    async verifyWebhook({ headers, rawBody }) {
      const header = headers[simulatedSignatureHeader];
      if (typeof header !== 'string') return null;
      const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
      if (!match) return null;
      const time = Number(match[1]);
      if (Math.abs(Date.now() - time) > toleranceMs) return null;
      const expected = Buffer.from(signSimulatedWebhook(options.secret, rawBody, time).split('v1=')[1]!, 'hex');
      const given = Buffer.from(match[2]!, 'hex');
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
      let event: { id?: unknown; event_type?: unknown; resource?: unknown };
      try {
        event = JSON.parse(rawBody) as typeof event;
      } catch {
        return null;
      }
      if (typeof event.id !== 'string' || typeof event.event_type !== 'string') return null;
      return { id: event.id, type: event.event_type, target: webhookTarget(event), payload: event };
    },

    act(kind, id, action) {
      if (kind === 'order') {
        const order = orders.get(id);
        if (!order) throw new ProviderError('RESOURCE_NOT_FOUND', 404);
        if (action === 'approve' && order.status === 'CREATED') {
          order.status = 'APPROVED';
          send('CHECKOUT.ORDER.APPROVED', { id, status: 'APPROVED' });
          const target = new URL(order.returnUrl);
          target.searchParams.set('token', id);
          return target.toString();
        }
        if (action === 'fail') {
          order.status = 'VOIDED';
          send('CHECKOUT.ORDER.VOIDED', { id, status: 'VOIDED' });
        }
        return order.cancelUrl;
      }
      const sub = findSubscription(id);
      switch (action) {
        case 'approve':
          if (sub.status === 'APPROVAL_PENDING') {
            sub.status = 'ACTIVE';
            const sale = charge(sub, true);
            send('BILLING.SUBSCRIPTION.ACTIVATED', subscriptionResource(sub));
            send('PAYMENT.SALE.COMPLETED', { id: sale.id, state: 'completed', billing_agreement_id: id, amount: { total: (sale.amountCents / 100).toFixed(2), currency: 'USD' } });
          }
          return withSubscriptionId(sub.returnUrl, id);
        case 'fail':
          if (sub.status === 'APPROVAL_PENDING') {
            sub.status = 'SUSPENDED';
            charge(sub, false);
            send('BILLING.SUBSCRIPTION.PAYMENT.FAILED', subscriptionResource(sub));
          }
          return withSubscriptionId(sub.returnUrl, id);
        case 'renew':
          if (sub.status === 'ACTIVE') {
            const sale = charge(sub, true);
            send('PAYMENT.SALE.COMPLETED', { id: sale.id, state: 'completed', billing_agreement_id: id, amount: { total: (sale.amountCents / 100).toFixed(2), currency: 'USD' } });
          }
          return `${options.publicUrl}/pago-simulado/suscripcion/${id}`;
        case 'renew-fail':
          if (sub.status === 'ACTIVE') {
            charge(sub, false);
            send('BILLING.SUBSCRIPTION.PAYMENT.FAILED', subscriptionResource(sub));
          }
          return `${options.publicUrl}/pago-simulado/suscripcion/${id}`;
        case 'provider-cancel':
          if (sub.status === 'ACTIVE' || sub.status === 'SUSPENDED') {
            sub.status = 'CANCELLED';
            send('BILLING.SUBSCRIPTION.CANCELLED', subscriptionResource(sub));
          }
          return `${options.publicUrl}/pago-simulado/suscripcion/${id}`;
        case 'cancel':
        default:
          return sub.cancelUrl;
      }
    },

    describe(kind, id) {
      return (kind === 'order' ? orders.get(id) : subscriptions.get(id)) ?? null;
    },

    setTransport(next) {
      transport = next;
    },

    async settled() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
  };
  return provider;
}

export type SimulatedProvider = ReturnType<typeof createSimulatedProvider>;
