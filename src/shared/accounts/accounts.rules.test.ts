import { describe, expect, it } from 'vitest';
import { effectiveType, hasPremiumAccess } from './accounts.rules.ts';

const now = new Date('2026-11-21T00:00:00Z');

describe('hasPremiumAccess', () => {
  it.each([
    ['nobody', null, false],
    ['Gratis', { type: 'Gratis', terminationDate: null }, false],
    ['Premium', { type: 'Premium', terminationDate: null }, true],
    ['Admin', { type: 'Admin', terminationDate: null }, true],
    ['Legacy before terminationDate', { type: 'Legacy', terminationDate: '2026-12-01T00:00:00Z' }, true],
    ['Legacy after terminationDate', { type: 'Legacy', terminationDate: '2026-11-01T00:00:00Z' }, false],
    [
      'a downgrade before its paid period ends',
      { type: 'Gratis', paymentStatus: 'POR_TERMINAR', terminationDate: '2026-12-01T00:00:00Z' },
      true,
    ],
    [
      'a downgrade after its paid period ended',
      { type: 'Gratis', paymentStatus: 'POR_TERMINAR', terminationDate: '2026-11-01T00:00:00Z' },
      false,
    ],
    ['Gratis with a failed payment', { type: 'Gratis', paymentStatus: 'FALLIDO', terminationDate: null }, false],
  ] as const)('%s', (_case, user, expected) => {
    expect(hasPremiumAccess(user, now)).toBe(expected);
  });

  it('treats a missing account as a guest', () => {
    expect(effectiveType(null)).toBe('Gest');
    expect(effectiveType({ type: 'Premium' })).toBe('Premium');
  });
});
