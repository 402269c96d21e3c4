import type { MercadoPagoPayment } from '#server/services/payments/mercadopago-records.ts';
import type { OrderEventKind } from './payments.rules.ts';

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
