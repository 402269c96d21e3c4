import type { FastifyRequest } from 'fastify';

export type FakeTransaction = {
  id: string;
  status: 'COMPLETED' | 'DECLINED' | 'PENDING' | 'REFUNDED' | 'PARTIALLY_REFUNDED';
  time: string;
  value: string;
  currency?: string;
};
export type FakeSubscription = {
  id: string;
  status: 'APPROVAL_PENDING' | 'APPROVED' | 'ACTIVE' | 'SUSPENDED' | 'CANCELLED' | 'EXPIRED';
  plan_id: string;
  custom_id: string;
  failed_payments_count: number;
  next_billing_time: string | null;
  transactions: FakeTransaction[];
};
export type FakeOrder = {
  id: string;
  status: 'CREATED' | 'PAYER_ACTION_REQUIRED' | 'APPROVED' | 'COMPLETED' | 'VOIDED';
  purchase_units: Record<string, unknown>[];
  /** What the buyer's funding will do at capture. */
  captureOutcome: 'COMPLETED' | 'PENDING' | 'DECLINED';
  capture: { id: string; status: string } | null;
};

export const money = (value: string, currency = 'USD') => ({ currency_code: currency, value });

/** A subscription as PayPal answers it; `price` is the plan's value, `fields` the ?fields= asked for. */
export function subscriptionBody(sub: FakeSubscription, fields: string) {
  const paid = sub.transactions.filter((tx) => tx.status !== 'DECLINED' && tx.status !== 'PENDING').at(-1);
  const failed = sub.transactions.filter((tx) => tx.status === 'DECLINED').at(-1);
  const active = sub.status !== 'APPROVAL_PENDING' && sub.status !== 'APPROVED';
  return {
    id: sub.id,
    status: sub.status,
    plan_id: sub.plan_id,
    // PayPal leaves out a field that was never set
    ...(sub.custom_id ? { custom_id: sub.custom_id } : {}),
    ...(active
      ? {
          billing_info: {
            outstanding_balance: money(failed && sub.failed_payments_count > 0 ? failed.value : '0.00'),
            failed_payments_count: sub.failed_payments_count,
            ...(paid ? { last_payment: { amount: money(paid.value, paid.currency), time: paid.time } } : {}),
            ...(sub.next_billing_time && sub.status === 'ACTIVE' ? { next_billing_time: sub.next_billing_time } : {}),
            // PayPal returns it only when asked for
            ...(failed && fields.split(',').includes('last_failed_payment')
              ? {
                  last_failed_payment: {
                    amount: money(failed.value),
                    time: failed.time,
                    reason_code: 'PAYMENT_DENIED',
                  },
                }
              : {}),
          },
        }
      : {}),
    links: [{ rel: 'self', href: `/v1/billing/subscriptions/${sub.id}`, method: 'GET' }],
  };
}

/** Prefer (Orders v2, Subscriptions v1): return=minimal, the default, answers id, status and links only. */
export function preferred(request: FastifyRequest, body: { id: string; status: string; links: unknown[] }) {
  if (request.headers.prefer === 'return=representation') return body;
  return { id: body.id, status: body.status, links: body.links };
}

export function orderBody(order: FakeOrder) {
  const unit = {
    ...order.purchase_units[0],
    ...(order.capture
      ? {
          payments: {
            captures: [{ ...order.capture, amount: (order.purchase_units[0] as { amount: unknown }).amount }],
          },
        }
      : {}),
  };
  return {
    id: order.id,
    intent: 'CAPTURE',
    status: order.status,
    purchase_units: [unit],
    links: [
      { rel: 'payer-action', href: `https://www.sandbox.paypal.com/checkoutnow?token=${order.id}`, method: 'GET' },
    ],
  };
}
