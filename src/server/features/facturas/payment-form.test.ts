import { describe, expect, it } from 'vitest';
import { paymentFormOf } from './payment-form.ts';

describe('the forma de pago of a Mercado Pago payment (c_FormaPago)', () => {
  it('is 01 at OXXO, 03 by SPEI, 28 by debit card and 04 by credit card', () => {
    expect(paymentFormOf({ methodId: 'oxxo', typeId: 'ticket' })).toBe('01');
    expect(paymentFormOf({ methodId: 'clabe', typeId: 'bank_transfer' })).toBe('03');
    expect(paymentFormOf({ methodId: 'debvisa', typeId: 'debit_card' })).toBe('28');
    expect(paymentFormOf({ methodId: 'visa', typeId: 'credit_card' })).toBe('04');
    expect(paymentFormOf({ methodId: 'master', typeId: '' })).toBe('04');
  });
});
