import type { MercadoPagoPayment } from '#server/services/payments/mercadopago-records.ts';
import type { OrderEventKind } from './payments.rules.ts';
import type { PaymentResult } from '#shared/payments/payments.rules.ts';

/**
 * What a payment's status means for what it paid for. `in_mediation` (a dispute opened) changes nothing until
 * Mercado Pago decides: charged back removes access, a dispute won leaves it approved.
 */
export function offlineOutcome(payment: Pick<MercadoPagoPayment, 'status' | 'statusDetail'>): {
  kind: OrderEventKind;
  status: string;
} | null {
  switch (payment.status) {
    case 'approved':
      return { kind: 'completed', status: 'COMPLETED' };
    case 'pending':
    case 'in_process':
    case 'authorized':
      return { kind: 'pending', status: 'PENDING' };
    case 'cancelled':
      // an OXXO voucher or a CLABE not paid in time
      return { kind: 'denied', status: payment.statusDetail === 'expired' ? 'EXPIRED' : 'DENIED' };
    case 'rejected':
      return { kind: 'denied', status: 'DENIED' };
    case 'refunded':
    case 'charged_back':
      return { kind: 'refunded', status: 'REFUNDED' };
    case 'in_mediation':
      return null;
  }
}

/**
 * What the history records of an approved payment: part of it refunded (Mercado Pago keeps it `approved`, with
 * `status_detail: partially_refunded` and the refunds' sum in `transaction_amount_refunded`) is REEMBOLSO_PARCIAL;
 * what it paid for stays granted. Any other payment keeps the result of its status.
 */
export function historyResult(
  payment: Pick<MercadoPagoPayment, 'status' | 'amountCents' | 'refundedCents'>,
  result: PaymentResult,
): PaymentResult {
  return result === 'COMPLETADO' &&
    payment.status === 'approved' &&
    payment.refundedCents > 0 &&
    payment.refundedCents < payment.amountCents
    ? 'REEMBOLSO_PARCIAL'
    : result;
}
