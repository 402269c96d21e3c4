import { describe, expect, it } from 'vitest';
import type { ProviderSubscription } from '#server/services/payments/payment-provider.ts';
import { subscriptionOutcome } from './payments.rules.ts';

const paid = { amountCents: 999, time: new Date('2026-11-01T00:00:00Z') };
const failedLater = { amountCents: 999, time: new Date('2026-12-01T00:00:00Z') };
const failedEarlier = { amountCents: 999, time: new Date('2026-10-01T00:00:00Z') };
const base: ProviderSubscription = { id: 'I-1', status: 'ACTIVE', plan: 'monthly', customId: 'u', lastPayment: null, lastFailedPayment: null };

describe('subscriptionOutcome', () => {
  it.each([
    ['pending approval', { status: 'APPROVAL_PENDING' }, 'none'],
    ['active without a payment yet', {}, 'none'],
    ['active and paid', { lastPayment: paid }, 'activate'],
    ['active, paid after an earlier failure', { lastPayment: paid, lastFailedPayment: failedEarlier }, 'activate'],
    ['active, failed after the last payment', { lastPayment: paid, lastFailedPayment: failedLater }, 'fail'],
    ['suspended after a failure', { status: 'SUSPENDED', lastFailedPayment: failedLater }, 'fail'],
    ['suspended by the member (downgrade)', { status: 'SUSPENDED', lastPayment: paid }, 'none'],
    ['cancelled', { status: 'CANCELLED', lastPayment: paid }, 'cancel'],
    ['cancelled after a failure', { status: 'CANCELLED', lastFailedPayment: failedLater }, 'cancel'],
    ['expired', { status: 'EXPIRED' }, 'cancel'],
  ] as const)('%s', (_case, facts, expected) => {
    expect(subscriptionOutcome({ ...base, ...facts } as ProviderSubscription)).toBe(expected);
  });
});
