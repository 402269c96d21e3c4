import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { simulatedProviderRecords } from '#server/db/schema/index.ts';
import { planPriceCents } from '#shared/payments/payments.rules.ts';
import { nextPaymentDate } from '#shared/membership/membership.rules.ts';
import {
  transactionResult,
  webhookTarget,
  type PaymentProvider,
  type ProviderOrder,
  type ProviderSubscription,
  type ProviderTransaction,
} from './payment-provider.ts';

const simulatedSignatureHeader = 'x-simulado-signature';
const toleranceMs = 5 * 60_000;
/** PayPal's limit on purchase_units[].description. */
const descriptionLimit = 127;
import {
  refuse,
  signSimulatedWebhook,
  type SimulatedAction,
  type SimulatedRecord,
  type StoredOrder,
  type StoredSubscription,
  type StoredTransaction,
  type TransactionStatus,
} from './simulated-records.ts';

/** The demo seed's record of its Premium member's paid subscription. */
export { paidSimulatedSubscription } from './simulated-records.ts';

export type WebhookTransport = (rawBody: string, headers: Record<string, string>) => Promise<void>;

/**
 * The built-in provider: our own checkout page (/pago-simulado/...) stands in for PayPal's, every
 * change is announced through signed webhooks, and its records live in the database so that they
 * survive a restart. It follows PayPal's state rules where they overlap (see paypal-fake.testing.ts):
 * a pending subscription cannot be cancelled, an order is captured once and only after approval.
 */
export function createSimulatedProvider(options: {
  db: Db;
  publicUrl: string;
  secret: string;
  transport?: WebhookTransport;
}) {
  const { db } = options;
  const pending = new Set<Promise<void>>();
  let transport = options.transport;

  function send(type: string, resource: Record<string, unknown>) {
    const event = {
      id: `WH-SIM-${randomUUID()}`,
      event_type: type,
      resource_type: type.split('.')[0]?.toLowerCase(),
      create_time: new Date().toISOString(),
      resource,
    };
    const rawBody = JSON.stringify(event);
    const headers = {
      'content-type': 'application/json',
      [simulatedSignatureHeader]: signSimulatedWebhook(options.secret, rawBody),
    };
    if (!transport) return;
    const delivery = transport(rawBody, headers).catch(() => {});
    pending.add(delivery);
    void delivery.finally(() => pending.delete(delivery));
  }

  async function load<T extends StoredSubscription | StoredOrder>(
    kind: 'subscription' | 'order',
    id: string,
  ): Promise<T | null> {
    const [row] = await db.select().from(simulatedProviderRecords).where(eq(simulatedProviderRecords.id, id));
    return row && row.kind === kind ? (row.data as T) : null;
  }

  /**
   * Reads, changes and writes one record under a row lock, then sends its webhooks once the change
   * is committed: two presses at once apply one after the other.
   */
  async function change<T extends StoredSubscription | StoredOrder, R>(
    kind: 'subscription' | 'order',
    id: string,
    mutate: (record: T, events: [string, Record<string, unknown>][]) => R,
  ): Promise<R> {
    const events: [string, Record<string, unknown>][] = [];
    const result = await db.transaction(async (tx) => {
      const [row] = await tx
        .select()
        .from(simulatedProviderRecords)
        .where(eq(simulatedProviderRecords.id, id))
        .for('update');
      if (!row || row.kind !== kind) throw refuse('RESOURCE_NOT_FOUND', 404);
      const record = structuredClone(row.data) as T;
      const outcome = mutate(record, events);
      await tx
        .update(simulatedProviderRecords)
        .set({ data: record, updatedAt: new Date() })
        .where(eq(simulatedProviderRecords.id, id));
      return outcome;
    });
    for (const [type, resource] of events) send(type, resource);
    return result;
  }

  const subscriptionResource = (sub: StoredSubscription) => ({
    id: sub.id,
    status: sub.status,
    plan_id: `SIM-${sub.plan}`,
    custom_id: sub.customId,
  });
  const saleResource = (sub: StoredSubscription, tx: StoredTransaction) => ({
    id: tx.id,
    state: tx.status.toLowerCase(),
    billing_agreement_id: sub.id,
    amount: { total: (tx.amountCents / 100).toFixed(2), currency: tx.currency },
  });

  function charge(sub: StoredSubscription, status: TransactionStatus): StoredTransaction {
    // charges of one subscription never share a millisecond, so "which came last" is always defined
    const previous = sub.transactions.at(-1) ? new Date(sub.transactions.at(-1)!.time).getTime() : 0;
    const time = new Date(Math.max(Date.now(), previous + 1)).toISOString();
    const transaction: StoredTransaction = {
      id: `SIM-TX-${randomUUID()}`,
      status,
      amountCents: planPriceCents[sub.plan],
      currency: 'USD',
      time,
    };
    sub.transactions.push(transaction);
    sub.failedPaymentsCount =
      status === 'DECLINED' ? sub.failedPaymentsCount + 1 : status === 'COMPLETED' ? 0 : sub.failedPaymentsCount;
    return transaction;
  }

  /** The record as PayPal's GET shows it: last payment, last failed payment, next billing time. */
  function snapshot(sub: StoredSubscription): ProviderSubscription {
    const at = (tx: StoredTransaction | undefined) =>
      tx ? { amountCents: tx.amountCents, currency: tx.currency, time: new Date(tx.time) } : null;
    const paid = sub.transactions.filter((tx) => tx.status !== 'DECLINED' && tx.status !== 'PENDING').at(-1);
    const failed = sub.transactions.filter((tx) => tx.status === 'DECLINED').at(-1);
    const billing = sub.status === 'ACTIVE' && paid;
    return {
      id: sub.id,
      status: sub.status,
      plan: sub.plan,
      customId: sub.customId,
      lastPayment: at(paid),
      lastFailedPayment: at(failed),
      failedPaymentsCount: sub.failedPaymentsCount,
      nextBillingTime: billing ? nextPaymentDate(new Date(paid.time), sub.plan === 'annual', new Date()) : null,
    };
  }

  const orderRecord = (order: StoredOrder): ProviderOrder => ({
    id: order.id,
    status: order.status,
    amountCents: order.amountCents,
    currency: order.currency,
    customId: order.customId,
    captureId: order.captureId,
    captureStatus: order.captureStatus,
  });
  const captureResource = (order: StoredOrder) => ({
    id: order.captureId,
    status: order.captureStatus,
    amount: { currency_code: order.currency, value: (order.amountCents / 100).toFixed(2) },
    custom_id: order.customId,
    supplementary_data: { related_ids: { order_id: order.id } },
  });

  // PayPal's refund (Payments v2) names its capture only through the link rel "up"
  const refundResource = (order: StoredOrder) => {
    const refundId = `SIM-REF-${randomUUID().slice(0, 8).toUpperCase()}`;
    return {
      id: refundId,
      status: 'COMPLETED',
      amount: { currency_code: order.currency, value: (order.amountCents / 100).toFixed(2) },
      links: [
        { href: `${options.publicUrl}/v2/payments/refunds/${refundId}`, rel: 'self', method: 'GET' },
        { href: `${options.publicUrl}/v2/payments/captures/${order.captureId}`, rel: 'up', method: 'GET' },
      ],
    };
  };

  const withParam = (url: string, name: string, value: string) => {
    // seeded records keep paths only: they resolve against this server
    const target = new URL(url, options.publicUrl);
    target.searchParams.set(name, value);
    return target.toString();
  };
  const pageUrl = (kind: 'suscripcion' | 'orden', id: string) => `${options.publicUrl}/pago-simulado/${kind}/${id}`;

  async function insert(id: string, kind: 'subscription' | 'order', data: StoredSubscription | StoredOrder) {
    await db.insert(simulatedProviderRecords).values({ id, kind, data });
  }

  const provider: PaymentProvider & {
    /** Applies what the person pressed on the checkout page; returns where the browser goes next. */
    act(kind: 'subscription' | 'order', id: string, action: SimulatedAction): Promise<string>;
    describe(kind: 'subscription' | 'order', id: string): Promise<SimulatedRecord | null>;
    setTransport(next: WebhookTransport): void;
    /** Resolves when every webhook sent so far has been delivered (tests). */
    settled(): Promise<void>;
  } = {
    name: 'simulado',
    displayName: 'Pago simulado',

    async createSubscription({ plan, customId, returnUrl, cancelUrl, requestId }) {
      // the same request id answers the subscription it already created, like PayPal-Request-Id
      const id = requestId
        ? `I-SIM${createHmac('sha256', 'sim').update(requestId).digest('hex').slice(0, 12).toUpperCase()}`
        : `I-SIM${randomUUID().replaceAll('-', '').slice(0, 12).toUpperCase()}`;
      if (!(await load('subscription', id))) {
        await insert(id, 'subscription', {
          id,
          status: 'APPROVAL_PENDING',
          plan,
          customId,
          failedPaymentsCount: 0,
          returnUrl,
          cancelUrl,
          transactions: [],
        });
        send('BILLING.SUBSCRIPTION.CREATED', { id, status: 'APPROVAL_PENDING', custom_id: customId });
      }
      return { id, approvalUrl: pageUrl('suscripcion', id) };
    },

    async getSubscription(id) {
      const sub = await load<StoredSubscription>('subscription', id);
      return sub ? snapshot(sub) : null;
    },

    async listTransactions(id) {
      const sub = await load<StoredSubscription>('subscription', id);
      if (!sub) throw refuse('RESOURCE_NOT_FOUND', 404);
      return sub.transactions.map((tx): ProviderTransaction => ({
        id: tx.id,
        result: transactionResult(tx.status),
        amountCents: tx.amountCents,
        currency: tx.currency,
        time: new Date(tx.time),
      }));
    },

    async suspendSubscription(id) {
      await change<StoredSubscription, void>('subscription', id, (sub, events) => {
        if (sub.status !== 'ACTIVE') throw refuse('SUBSCRIPTION_STATUS_INVALID');
        sub.status = 'SUSPENDED';
        events.push(['BILLING.SUBSCRIPTION.SUSPENDED', subscriptionResource(sub)]);
      });
    },

    async activateSubscription(id) {
      await change<StoredSubscription, void>('subscription', id, (sub, events) => {
        if (sub.status !== 'SUSPENDED') throw refuse('SUBSCRIPTION_STATUS_INVALID');
        sub.status = 'ACTIVE';
        events.push(['BILLING.SUBSCRIPTION.ACTIVATED', subscriptionResource(sub)]);
      });
    },

    async cancelSubscription(id) {
      await change<StoredSubscription, void>('subscription', id, (sub, events) => {
        // PayPal: "profile should be active or suspended"
        if (sub.status !== 'ACTIVE' && sub.status !== 'SUSPENDED') throw refuse('SUBSCRIPTION_STATUS_INVALID');
        sub.status = 'CANCELLED';
        events.push(['BILLING.SUBSCRIPTION.CANCELLED', subscriptionResource(sub)]);
      });
    },

    async createOrder({ amountCents, description, customId, returnUrl, cancelUrl }) {
      if (description.length > descriptionLimit) throw refuse('INVALID_STRING_LENGTH', 400);
      if (!Number.isInteger(amountCents) || amountCents <= 0) throw refuse('INVALID_PARAMETER_VALUE', 400);
      const id = `SIM-ORDER-${randomUUID().slice(0, 8).toUpperCase()}`;
      await insert(id, 'order', {
        id,
        status: 'CREATED',
        amountCents,
        currency: 'USD',
        customId,
        description,
        returnUrl,
        cancelUrl,
        captureId: null,
        captureStatus: null,
        settlesLater: false,
      });
      return { id, approvalUrl: pageUrl('orden', id) };
    },

    async getOrder(id) {
      const order = await load<StoredOrder>('order', id);
      return order ? orderRecord(order) : null;
    },

    async captureOrder(id) {
      return change<StoredOrder, ProviderOrder>('order', id, (order, events) => {
        if (order.status === 'COMPLETED') throw refuse('ORDER_ALREADY_CAPTURED');
        if (order.status !== 'APPROVED') throw refuse('ORDER_NOT_APPROVED');
        order.status = 'COMPLETED';
        order.captureId = `SIM-CAP-${randomUUID().slice(0, 8).toUpperCase()}`;
        order.captureStatus = order.settlesLater ? 'PENDING' : 'COMPLETED';
        events.push([
          order.settlesLater ? 'PAYMENT.CAPTURE.PENDING' : 'PAYMENT.CAPTURE.COMPLETED',
          captureResource(order),
        ]);
        return orderRecord(order);
      });
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

    async act(kind, id, action) {
      if (kind === 'order') {
        return change<StoredOrder, string>('order', id, (order, events) => {
          if ((action === 'approve' || action === 'approve-pending') && order.status === 'CREATED') {
            order.status = 'APPROVED';
            order.settlesLater = action === 'approve-pending';
            events.push([
              'CHECKOUT.ORDER.APPROVED',
              { id, status: 'APPROVED', purchase_units: [{ custom_id: order.customId }] },
            ]);
            return withParam(order.returnUrl, 'token', id);
          }
          if ((action === 'capture-complete' || action === 'capture-deny') && order.captureStatus === 'PENDING') {
            order.captureStatus = action === 'capture-complete' ? 'COMPLETED' : 'DECLINED';
            events.push([
              action === 'capture-complete' ? 'PAYMENT.CAPTURE.COMPLETED' : 'PAYMENT.CAPTURE.DENIED',
              captureResource(order),
            ]);
            return pageUrl('orden', id);
          }
          if (action === 'refund' && order.captureStatus === 'COMPLETED') {
            order.captureStatus = 'REFUNDED';
            events.push(['PAYMENT.CAPTURE.REFUNDED', refundResource(order)]);
            return pageUrl('orden', id);
          }
          if (action === 'fail' && order.status === 'CREATED') {
            order.status = 'VOIDED';
            events.push(['CHECKOUT.ORDER.VOIDED', { id, status: 'VOIDED' }]);
          }
          return action === 'cancel' || action === 'fail'
            ? new URL(order.cancelUrl, options.publicUrl).toString()
            : pageUrl('orden', id);
        });
      }
      return change<StoredSubscription, string>('subscription', id, (sub, events) => {
        const page = pageUrl('suscripcion', id);
        switch (action) {
          case 'approve':
            if (sub.status === 'APPROVAL_PENDING') {
              sub.status = 'ACTIVE';
              const sale = charge(sub, 'COMPLETED');
              events.push(
                ['BILLING.SUBSCRIPTION.ACTIVATED', subscriptionResource(sub)],
                ['PAYMENT.SALE.COMPLETED', saleResource(sub, sale)],
              );
            }
            return withParam(sub.returnUrl, 'subscription_id', id);
          case 'fail':
            if (sub.status === 'APPROVAL_PENDING') {
              // PayPal suspends a subscription whose first payment fails
              sub.status = 'SUSPENDED';
              charge(sub, 'DECLINED');
              events.push(['BILLING.SUBSCRIPTION.PAYMENT.FAILED', subscriptionResource(sub)]);
            }
            return withParam(sub.returnUrl, 'subscription_id', id);
          case 'renew':
            if (sub.status === 'ACTIVE')
              events.push(['PAYMENT.SALE.COMPLETED', saleResource(sub, charge(sub, 'COMPLETED'))]);
            return page;
          case 'renew-fail':
            if (sub.status === 'ACTIVE') {
              charge(sub, 'DECLINED');
              events.push(['BILLING.SUBSCRIPTION.PAYMENT.FAILED', subscriptionResource(sub)]);
            }
            return page;
          case 'refund': {
            const last = sub.transactions.filter((tx) => tx.status === 'COMPLETED').at(-1);
            if (last) {
              last.status = 'REFUNDED';
              // PayPal's refund notice names the sale, not the subscription
              events.push([
                'PAYMENT.SALE.REFUNDED',
                {
                  id: `SIM-REF-${randomUUID().slice(0, 8)}`,
                  state: 'completed',
                  sale_id: last.id,
                  parent_payment: `PAY-${last.id}`,
                },
              ]);
            }
            return page;
          }
          case 'provider-cancel':
            if (sub.status === 'ACTIVE' || sub.status === 'SUSPENDED') {
              sub.status = 'CANCELLED';
              events.push(['BILLING.SUBSCRIPTION.CANCELLED', subscriptionResource(sub)]);
            }
            return page;
          case 'cancel':
          default:
            return new URL(sub.cancelUrl, options.publicUrl).toString();
        }
      });
    },

    async describe(kind, id) {
      const record = await load(kind, id);
      return record ? ({ ...record, kind } as SimulatedRecord) : null;
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
