/** Mercado Pago's records as the adapter reads them: preapprovals, their charges and payments. */

/** Preapproval statuses (Subscriptions API, `/preapproval`). */
const preapprovalStatuses = ['pending', 'authorized', 'paused', 'cancelled'] as const;
type PreapprovalStatus = (typeof preapprovalStatuses)[number];

/** Payment statuses (Payments API, `/v1/payments`); only `approved` means the money arrived. */
const mercadoPagoPaymentStatuses = [
  'pending',
  'approved',
  'authorized',
  'in_process',
  'in_mediation',
  'rejected',
  'cancelled',
  'refunded',
  'charged_back',
] as const;
export type MercadoPagoPaymentStatus = (typeof mercadoPagoPaymentStatuses)[number];

/** The one-time methods paid outside a card: cash at OXXO (a voucher) and a SPEI transfer to a CLABE. */
export type OfflineMethod = 'oxxo' | 'clabe';

export type Preapproval = {
  id: string;
  status: PreapprovalStatus;
  /** Our reference (the account and intent), as sent at creation. */
  externalReference: string | null;
  amountCents: number;
  currency: string;
  frequency: { count: number; unit: 'days' | 'months' };
  /** Mercado Pago's hosted page where the member authorizes the card. */
  initPoint: string | null;
  /** When Mercado Pago will charge next, as it reports it. */
  nextPaymentDate: Date | null;
};

/** One recurring charge of a preapproval (`/authorized_payments/{id}`) and the payment it made, if any. */
export type AuthorizedPayment = {
  id: string;
  preapprovalId: string;
  status: string;
  amountCents: number;
  currency: string;
  payment: { id: string; status: MercadoPagoPaymentStatus; statusDetail: string } | null;
};

export type MercadoPagoPayment = {
  id: string;
  status: MercadoPagoPaymentStatus;
  statusDetail: string;
  methodId: string;
  /** ticket (OXXO), bank_transfer (SPEI), credit_card, debit_card… */
  typeId: string;
  amountCents: number;
  refundedCents: number;
  currency: string;
  externalReference: string | null;
  /** Until when an OXXO voucher or a CLABE can be paid. */
  expiresAt: Date | null;
  /** The voucher (OXXO) or the transfer instructions (SPEI), on Mercado Pago's site. */
  instructionsUrl: string | null;
  /** The CLABE to transfer to (SPEI), when Mercado Pago gives it as text. */
  clabe: string | null;
};

export type Json = Record<string, unknown>;

export const text = (value: unknown): string | null =>
  typeof value === 'string' && value ? value : typeof value === 'number' ? String(value) : null;
const toCents = (value: unknown) => Math.round(Number(value ?? 0) * 100);
export const toAmount = (cents: number) => Math.round(cents) / 100;
const toDate = (value: unknown) => {
  const date = typeof value === 'string' ? new Date(value) : null;
  return date && !Number.isNaN(date.getTime()) ? date : null;
};
export function toPreapproval(body: Json): Preapproval {
  const recurring = (body.auto_recurring ?? {}) as Json;
  const status = String(body.status) as PreapprovalStatus;
  return {
    id: String(body.id),
    status: preapprovalStatuses.includes(status) ? status : 'pending',
    externalReference: text(body.external_reference),
    amountCents: toCents(recurring.transaction_amount),
    currency: text(recurring.currency_id) ?? '',
    frequency: {
      count: Number(recurring.frequency ?? 0) || 0,
      unit: recurring.frequency_type === 'days' ? 'days' : 'months',
    },
    initPoint: text(body.init_point),
    nextPaymentDate: toDate(body.next_payment_date),
  };
}

export function toPayment(body: Json): MercadoPagoPayment {
  const status = String(body.status) as MercadoPagoPaymentStatus;
  const details = (body.transaction_details ?? {}) as Json;
  const transaction = ((body.point_of_interaction as Json | undefined)?.transaction_data ?? {}) as Json;
  const collector = ((transaction.bank_info as Json | undefined)?.collector ?? {}) as Json;
  // an 18-digit CLABE is only trusted as text: as a JSON number it would have lost digits
  const clabe =
    typeof collector.account_id === 'string' && /^\d{18}$/.test(collector.account_id) ? collector.account_id : null;
  return {
    id: String(body.id),
    // an unknown status grants nothing
    status: mercadoPagoPaymentStatuses.includes(status) ? status : 'pending',
    statusDetail: text(body.status_detail) ?? '',
    methodId: text(body.payment_method_id) ?? '',
    typeId: text(body.payment_type_id) ?? '',
    amountCents: toCents(body.transaction_amount),
    refundedCents: toCents(body.transaction_amount_refunded),
    currency: text(body.currency_id) ?? '',
    externalReference: text(body.external_reference),
    expiresAt: toDate(body.date_of_expiration),
    instructionsUrl: text(details.external_resource_url) ?? text(transaction.ticket_url),
    clabe,
  };
}

/** One recurring charge of a preapproval, as `GET /authorized_payments/{id}` and its search answer it. */
export function toAuthorizedPayment(body: Json): AuthorizedPayment {
  const payment = (body.payment ?? null) as Json | null;
  const paymentStatus = String(payment?.status) as MercadoPagoPaymentStatus;
  return {
    id: String(body.id),
    preapprovalId: text(body.preapproval_id) ?? '',
    status: text(body.status) ?? '',
    amountCents: toCents(body.transaction_amount),
    currency: text(body.currency_id) ?? '',
    payment:
      payment && text(payment.id)
        ? {
            id: text(payment.id)!,
            status: mercadoPagoPaymentStatuses.includes(paymentStatus) ? paymentStatus : 'pending',
            statusDetail: text(payment.status_detail) ?? '',
          }
        : null,
  };
}
