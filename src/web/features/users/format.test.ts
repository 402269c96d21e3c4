import { describe, expect, it } from 'vitest';
import { membershipLabel, phoneLabel, spanishDate } from './format.ts';

describe('the people screens’ display values', () => {
  it.each([
    [{ type: 'Premium', annualPlan: true }, 'Premium anual'],
    [{ type: 'Premium', annualPlan: false }, 'Premium mensual'],
    [{ type: 'Gratis', annualPlan: false }, 'Gratis'],
    [{ type: 'Legacy', annualPlan: true }, 'Legacy'],
    [{ type: 'Admin', annualPlan: false }, 'Admin'],
  ] as const)('a %o member shows as %s', (user, label) => {
    expect(membershipLabel(user)).toBe(label);
  });

  it('a stored Mexican number is grouped for reading and an empty one shows a dash', () => {
    expect(phoneLabel('+525512345678')).toBe('+52 55 1234 5678');
    expect(phoneLabel('')).toBe('-');
    expect(phoneLabel('sin número')).toBe('sin número');
  });

  it('dates are written in Spanish', () => {
    expect(spanishDate('2026-03-05T12:00:00.000Z')).toBe('5 de marzo de 2026');
    expect(spanishDate(null)).toBe('-');
  });
});
