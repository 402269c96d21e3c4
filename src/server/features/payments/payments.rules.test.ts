import { describe, expect, it } from 'vitest';
import type {
  ProviderOrder,
  ProviderSubscription,
  ProviderTransaction,
} from '#server/services/payments/payment-provider.ts';
import { cutToLimit, orderEventKind, subscriptionOutcome } from './payments.rules.ts';

const paid = { amountCents: 999, currency: 'USD', time: new Date('2026-11-01T00:00:00Z') };
const failedLater = { amountCents: 999, currency: 'USD', time: new Date('2026-12-01T00:00:00Z') };
const failedEarlier = { amountCents: 999, currency: 'USD', time: new Date('2026-10-01T00:00:00Z') };
const base: ProviderSubscription = {
  id: 'I-1',
  status: 'ACTIVE',
  plan: 'monthly',
  customId: 'u',
  lastPayment: null,
  lastFailedPayment: null,
  failedPaymentsCount: 0,
  nextBillingTime: null,
};
const tx = (result: ProviderTransaction['result'], day: number): ProviderTransaction => ({
  id: `T-${day}`,
  result,
  amountCents: 999,
  currency: 'USD',
  time: new Date(Date.UTC(2026, 10, day)),
});

describe('subscriptionOutcome', () => {
  it.each([
    ['pending approval', { status: 'APPROVAL_PENDING' }, 'none'],
    ['active without a payment yet', {}, 'none'],
    ['active and paid', { lastPayment: paid }, 'activate'],
    ['active, paid after an earlier failure', { lastPayment: paid, lastFailedPayment: failedEarlier }, 'activate'],
    ['active, failed after the last payment', { lastPayment: paid, lastFailedPayment: failedLater }, 'fail'],
    [
      'active, PayPal counting a failed renewal (no last_failed_payment read)',
      { lastPayment: paid, failedPaymentsCount: 1 },
      'fail',
    ],
    [
      'suspended by PayPal after repeated failures',
      { status: 'SUSPENDED', lastPayment: paid, failedPaymentsCount: 3 },
      'fail',
    ],
    ['suspended after a failure', { status: 'SUSPENDED', lastFailedPayment: failedLater }, 'fail'],
    [
      'suspended with no failed payment (a downgrade, the dashboard)',
      { status: 'SUSPENDED', lastPayment: paid },
      'suspend',
    ],
    ['cancelled', { status: 'CANCELLED', lastPayment: paid }, 'cancel'],
    ['cancelled after a failure', { status: 'CANCELLED', lastFailedPayment: failedLater }, 'cancel'],
    ['expired', { status: 'EXPIRED' }, 'cancel'],
  ] as const)('%s', (_case, facts, expected) => {
    expect(subscriptionOutcome({ ...base, ...facts } as ProviderSubscription)).toBe(expected);
  });

  it('ends Premium when the last payment was refunded, not when an older one was', () => {
    const active = { ...base, lastPayment: paid };
    expect(subscriptionOutcome(active, [tx('COMPLETADO', 1), tx('REEMBOLSADO', 2)])).toBe('refund');
    expect(subscriptionOutcome(active, [tx('REEMBOLSADO', 1), tx('COMPLETADO', 2)])).toBe('activate');
    expect(subscriptionOutcome(active, [tx('COMPLETADO', 1), tx('PENDIENTE', 2)])).toBe('activate');
  });
});

describe('orderEventKind', () => {
  const order: ProviderOrder = {
    id: 'O',
    status: 'COMPLETED',
    amountCents: 100,
    currency: 'USD',
    customId: 'u',
    captureId: 'C',
    captureStatus: 'COMPLETED',
  };
  it.each([
    ['COMPLETED', 'completed'],
    ['PENDING', 'pending'],
    ['DECLINED', 'denied'],
    ['FAILED', 'denied'],
    ['REFUNDED', 'refunded'],
    ['PARTIALLY_REFUNDED', 'completed'],
  ] as const)('a %s capture is %s', (captureStatus, kind) => {
    expect(orderEventKind({ ...order, captureStatus })).toBe(kind);
  });
  it('is nothing before a capture, and denied for a voided order', () => {
    expect(orderEventKind({ ...order, status: 'APPROVED', captureId: null, captureStatus: null })).toBeNull();
    expect(orderEventKind({ ...order, status: 'VOIDED', captureId: null, captureStatus: null })).toBe('denied');
  });
});

describe('cutToLimit', () => {
  it('keeps short texts and cuts long ones to 127 characters without splitting one', () => {
    expect(cutToLimit('Diplomado')).toBe('Diplomado');
    const long = 'é'.repeat(200);
    expect([...cutToLimit(long)]).toHaveLength(127);
  });
});
