import { paymentForms, type PaymentForm } from '#shared/facturas/fiscal.rules.ts';
import type { MercadoPagoPayment } from '#server/services/payments/mercadopago-records.ts';

/** c_FormaPago of a Mercado Pago payment: 01 cash (OXXO), 03 transfer (SPEI), 28 debit card, 04 credit card. */
export function paymentFormOf(payment: Pick<MercadoPagoPayment, 'methodId' | 'typeId'>): PaymentForm {
  if (payment.typeId === 'ticket' || payment.methodId === 'oxxo') return paymentForms.oxxo;
  if (payment.typeId === 'bank_transfer' || payment.methodId === 'clabe') return paymentForms.spei;
  if (payment.typeId === 'debit_card') return paymentForms.debit_card;
  return paymentForms.credit_card;
}
