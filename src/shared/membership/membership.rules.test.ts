import { describe, expect, it } from 'vitest';
import {
  canDowngrade,
  canEndManualPremium,
  canGrantManualPremium,
  canReactivate,
  canUpgrade,
  dueScheduledChange,
  manualSubscriptionId,
  nextPaymentDate,
  periodMs,
} from './membership.rules.ts';

const day = 86_400_000;

describe('nextPaymentDate', () => {
  it.each([
    ['monthly, a few days after paying', '2026-01-31T12:00:00Z', false, '2026-02-10T00:00:00Z', '2026-03-02T12:00:00Z'],
    [
      'monthly, across February of a leap year',
      '2028-01-31T00:00:00Z',
      false,
      '2028-03-05T00:00:00Z',
      '2028-03-31T00:00:00Z',
    ],
    [
      'monthly, exactly on a payment date moves to the next',
      '2026-01-01T00:00:00Z',
      false,
      '2026-01-31T00:00:00Z',
      '2026-03-02T00:00:00Z',
    ],
    ['annual, in the first year', '2026-03-01T00:00:00Z', true, '2026-11-21T00:00:00Z', '2027-03-01T05:45:36Z'],
    ['annual, three years later', '2024-02-29T00:00:00Z', true, '2027-06-01T00:00:00Z', '2028-02-28T23:02:24Z'],
  ])('%s', (_case, paymentDay, annual, now, expected) => {
    expect(nextPaymentDate(new Date(paymentDay), annual, new Date(now)).toISOString()).toBe(
      new Date(expected).toISOString(),
    );
  });

  it('uses 30 and 365.24 day periods', () => {
    expect(periodMs.monthly).toBe(30 * day);
    expect(periodMs.annual).toBe(365.24 * day);
  });

  it('is always in the future', () => {
    const now = new Date('2026-11-21T10:00:00Z');
    for (let offset = 0; offset < 800; offset += 7) {
      const next = nextPaymentDate(new Date(now.getTime() - offset * day), offset % 2 === 0, now);
      expect(next.getTime()).toBeGreaterThan(now.getTime());
    }
  });
});

describe('dueScheduledChange', () => {
  const now = new Date('2026-11-21T12:00:00Z');
  const base = {
    type: 'Gratis',
    paymentStatus: 'BIEN',
    paymentDay: null,
    annualPlan: false,
    subscriptionId: null,
    terminationDate: null,
  };
  const at = (iso: string) => new Date(iso);
  it.each([
    [
      'a downgrade past its end',
      { paymentStatus: 'POR_TERMINAR', terminationDate: at('2026-11-21T11:59:59Z') },
      'downgradeEnded',
    ],
    ['a downgrade exactly at its end', { paymentStatus: 'POR_TERMINAR', terminationDate: now }, 'downgradeEnded'],
    [
      'a downgrade before its end',
      { paymentStatus: 'POR_TERMINAR', terminationDate: at('2026-11-22T00:00:00Z') },
      null,
    ],
    ['Legacy past terminationDate', { type: 'Legacy', terminationDate: at('2026-11-01T00:00:00Z') }, 'legacyEnded'],
    ['Legacy before terminationDate', { type: 'Legacy', terminationDate: at('2027-01-01T00:00:00Z') }, null],
    ['Legacy without terminationDate', { type: 'Legacy' }, null],
    [
      'manual monthly Premium after 30 days',
      { type: 'Premium', subscriptionId: 'MANUAL', paymentDay: at('2026-10-22T11:00:00Z') },
      'manualPremiumExpired',
    ],
    [
      'manual monthly Premium within 30 days',
      { type: 'Premium', subscriptionId: 'MANUAL', paymentDay: at('2026-10-22T13:00:00Z') },
      null,
    ],
    [
      'manual annual Premium within the year',
      { type: 'Premium', subscriptionId: 'MANUAL', annualPlan: true, paymentDay: at('2026-01-01T00:00:00Z') },
      null,
    ],
    [
      'manual annual Premium after 365.24 days',
      { type: 'Premium', subscriptionId: 'MANUAL', annualPlan: true, paymentDay: at('2025-11-20T00:00:00Z') },
      'manualPremiumExpired',
    ],
    [
      'a billed Premium long after paying',
      { type: 'Premium', subscriptionId: 'I-1', paymentDay: at('2020-01-01T00:00:00Z') },
      null,
    ],
    ['a Basic member', {}, null],
  ])('%s', (_case, facts, expected) => {
    expect(dueScheduledChange({ ...base, ...facts }, now)).toBe(expected);
  });
});

describe('what a member may ask for', () => {
  const now = new Date('2026-06-01T00:00:00Z');
  const later = new Date('2026-06-10T00:00:00Z');
  const earlier = new Date('2026-05-20T00:00:00Z');
  const member = (
    type: string,
    paymentStatus: string,
    subscriptionId: string | null = 'I-SUB',
    terminationDate: Date | null = null,
  ) => ({
    type,
    paymentStatus,
    subscriptionId,
    terminationDate,
  });

  // [case, account, upgrade, downgrade, reactivate, grant manual Premium, end manual Premium]
  it.each([
    ['Gratis that never paid', member('Gratis', 'BIEN', null), true, false, false, true, false],
    ['Gratis after a cancellation', member('Gratis', 'CANCELLED'), true, false, false, true, false],
    ['Gratis after a failed payment', member('Gratis', 'FALLIDO'), true, false, false, true, false],
    ['a downgrade still running', member('Gratis', 'POR_TERMINAR', 'I-SUB', later), false, false, true, true, false],
    [
      'a downgrade whose period ended',
      member('Gratis', 'POR_TERMINAR', 'I-SUB', earlier),
      false,
      false,
      false,
      true,
      false,
    ],
    ['a paying Premium', member('Premium', 'BIEN'), false, true, false, false, false],
    ['a manual Premium', member('Premium', 'BIEN', manualSubscriptionId), false, false, false, false, true],
    ['a Legacy until a date', member('Legacy', 'BIEN', null, later), false, false, false, false, false],
    ['a Legacy for good', member('Legacy', 'BIEN', null, null), false, false, false, false, false],
    ['an Admin', member('Admin', 'BIEN', null), false, false, false, false, false],
  ] as const)('%s', (_case, user, upgrade, downgrade, reactivate, grant, end) => {
    expect(canUpgrade(user)).toBe(upgrade);
    expect(canDowngrade(user)).toBe(downgrade);
    expect(canReactivate(user, now)).toBe(reactivate);
    expect(canGrantManualPremium(user)).toBe(grant);
    expect(canEndManualPremium(user)).toBe(end);
  });

  it('reactivation ends exactly when the paid period does', () => {
    const end = new Date('2026-06-01T00:00:00Z');
    expect(canReactivate(member('Gratis', 'POR_TERMINAR', 'I-SUB', end), new Date(end.getTime() - 1))).toBe(true);
    expect(canReactivate(member('Gratis', 'POR_TERMINAR', 'I-SUB', end), end)).toBe(false);
  });
});
