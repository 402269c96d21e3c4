import { describe, expect, it } from 'vitest';
import type { MercadoPagoPayment } from '#server/services/payments/mercadopago-records.ts';
import type { PaymentResult } from '#shared/payments/payments.rules.ts';
import { historyResult } from './mercadopago-outcomes.ts';

describe('what the history records of a Mercado Pago payment', () => {
  const cases: [MercadoPagoPayment['status'], number, PaymentResult, PaymentResult][] = [
    ['approved', 0, 'COMPLETADO', 'COMPLETADO'],
    ['approved', 1, 'COMPLETADO', 'REEMBOLSO_PARCIAL'],
    ['approved', 50_000, 'COMPLETADO', 'REEMBOLSO_PARCIAL'],
    ['approved', 249_899, 'COMPLETADO', 'REEMBOLSO_PARCIAL'],
    // all of it back is Mercado Pago's `refunded`; an approved one reading so is not called partial
    ['approved', 249_900, 'COMPLETADO', 'COMPLETADO'],
    ['refunded', 249_900, 'REEMBOLSADO', 'REEMBOLSADO'],
    ['charged_back', 0, 'REEMBOLSADO', 'REEMBOLSADO'],
    ['pending', 0, 'PENDIENTE', 'PENDIENTE'],
    ['rejected', 0, 'FALLIDO', 'FALLIDO'],
  ];
  it.each(cases)('%s with %i cents refunded, read as %s, is recorded %s', (status, refundedCents, read, recorded) => {
    expect(historyResult({ status, amountCents: 249_900, refundedCents }, read)).toBe(recorded);
  });
});
