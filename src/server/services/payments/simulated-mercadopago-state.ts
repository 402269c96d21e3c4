import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { FastifyReply } from 'fastify';
import type { MercadoPagoPaymentStatus } from './mercadopago-records.ts';

export type FakePreapproval = {
  id: string;
  status: 'pending' | 'authorized' | 'paused' | 'cancelled';
  reason: string;
  external_reference: string;
  payer_email: string;
  back_url: string;
  auto_recurring: { frequency: number; frequency_type: string; transaction_amount: number; currency_id: string };
  next_payment_date: string | null;
  date_created: string;
};
export type FakePayment = {
  id: string;
  status: MercadoPagoPaymentStatus;
  status_detail: string;
  payment_method_id: string;
  payment_type_id: string;
  transaction_amount: number;
  transaction_amount_refunded: number;
  /** Each refund made (Payments API `refunds[]`); absent on payments stored before partial refunds existed. */
  refunds?: { id: string; amount: number }[];
  currency_id: string;
  description: string;
  external_reference: string | null;
  date_of_expiration: string | null;
  payer_email: string;
  notification_url: string | null;
  date_created: string;
};
export type FakeAuthorizedPayment = {
  id: string;
  preapproval_id: string;
  status: 'scheduled' | 'processed' | 'recycling' | 'cancelled';
  transaction_amount: number;
  currency_id: string;
  payment_id: string;
};
export type FakePreference = { id: string; body: Record<string, unknown> };

/** What the fake Mercado Pago holds; `url` is set once it listens (init_point and voucher URLs point at it). */
export function createFakeState() {
  // ids never repeat across runs, as Mercado Pago's do not: a server kept between runs has the earlier ones stored
  let counter = Date.now();
  return {
    url: '',
    preapprovals: new Map<string, FakePreapproval>(),
    payments: new Map<string, FakePayment>(),
    authorizedPayments: new Map<string, FakeAuthorizedPayment>(),
    preferences: new Map<string, FakePreference>(),
    nextId: () => String(++counter),
  };
}
export type FakeState = ReturnType<typeof createFakeState>;

const stored = ['preapprovals', 'payments', 'authorizedPayments', 'preferences'] as const;

/** Reads what a demo stored before a restart; a file that cannot be read starts empty (only demo payments). */
export function loadFakeState(state: FakeState, file: string) {
  if (!existsSync(file)) return;
  try {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as Record<(typeof stored)[number], [string, never][]>;
    for (const name of stored) for (const [id, value] of saved[name] ?? []) state[name].set(id, value);
  } catch {
    // a torn file: the demo starts a new Mercado Pago; a voucher it no longer knows is refused as unavailable
  }
}

/** Writes the demo's payments beside its database, whole (a temporary file renamed over the last one). */
export function saveFakeState(state: FakeState, file: string) {
  const data = Object.fromEntries(stored.map((name) => [name, [...state[name].entries()]]));
  writeFileSync(`${file}.tmp`, JSON.stringify(data));
  renameSync(`${file}.tmp`, file);
}

/** Mercado Pago's error shape { message, error, status, cause[] }. */
export function fakeError(reply: FastifyReply, status: number, code: string, message: string) {
  const names: Record<number, string> = {
    400: 'bad_request',
    401: 'unauthorized',
    404: 'not_found',
    409: 'conflict',
    429: 'too_many_requests',
  };
  return reply
    .status(status)
    .header('x-request-id', randomUUID())
    .send({
      message,
      error: names[status] ?? 'internal_server_error',
      status,
      cause: status >= 500 || status === 401 ? [] : [{ code, description: message, data: null }],
    });
}

export function preapprovalBody(state: FakeState, pre: FakePreapproval) {
  return {
    id: pre.id,
    payer_id: pre.status === 'pending' ? null : 123456,
    payer_email: pre.payer_email,
    collector_id: 999,
    application_id: 777,
    status: pre.status,
    reason: pre.reason,
    external_reference: pre.external_reference,
    date_created: pre.date_created,
    last_modified: new Date().toISOString(),
    init_point: `${state.url}/subscriptions/checkout?preapproval_id=${pre.id}`,
    auto_recurring: { ...pre.auto_recurring, free_trial: null },
    summarized: {
      charged_quantity: [...state.authorizedPayments.values()].filter(
        (each) => each.preapproval_id === pre.id && state.payments.get(each.payment_id)?.status === 'approved',
      ).length,
      semaphore: 'green',
    },
    payment_method_id: pre.status === 'pending' ? null : 'master',
    back_url: pre.back_url,
    // Mercado Pago reports the next charge only while it will charge
    ...(pre.status === 'authorized' && pre.next_payment_date ? { next_payment_date: pre.next_payment_date } : {}),
  };
}

export function paymentBody(state: FakeState, payment: FakePayment) {
  const offline = payment.payment_method_id === 'oxxo' || payment.payment_method_id === 'clabe';
  return {
    id: Number(payment.id),
    date_created: payment.date_created,
    date_approved: payment.status === 'approved' ? new Date().toISOString() : null,
    date_of_expiration: payment.date_of_expiration,
    status: payment.status,
    status_detail: payment.status_detail,
    currency_id: payment.currency_id,
    description: payment.description,
    external_reference: payment.external_reference,
    payment_method_id: payment.payment_method_id,
    payment_type_id: payment.payment_type_id,
    transaction_amount: payment.transaction_amount,
    transaction_amount_refunded: payment.transaction_amount_refunded,
    payer: { email: payment.payer_email },
    notification_url: payment.notification_url,
    transaction_details: {
      net_received_amount: payment.status === 'approved' ? payment.transaction_amount : 0,
      total_paid_amount: payment.transaction_amount,
      ...(offline ? { external_resource_url: `${state.url}/voucher/${payment.id}` } : {}),
      ...(payment.payment_method_id === 'clabe' ? { financial_institution: 'STP' } : {}),
    },
    ...(payment.payment_method_id === 'clabe'
      ? {
          point_of_interaction: {
            type: 'OPENPLATFORM',
            transaction_data: {
              ticket_url: `${state.url}/voucher/${payment.id}`,
              bank_info: { collector: { account_id: `6461801570000${payment.id.slice(-5).padStart(5, '0')}` } },
            },
          },
        }
      : {}),
    refunds: payment.refunds
      ? payment.refunds.map((refund) => ({
          id: Number(refund.id),
          payment_id: Number(payment.id),
          amount: refund.amount,
        }))
      : payment.status === 'refunded'
        ? [{ id: Number(state.nextId()), payment_id: Number(payment.id), amount: payment.transaction_amount }]
        : [],
  };
}
