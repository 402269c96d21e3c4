import { describe, expect, it } from 'vitest';
import type { CurrentUser } from '#shared/accounts/accounts.schemas.ts';
import { guards, loginReturningTo, safeReturnPath } from './guards.ts';

function user(overrides: Partial<CurrentUser> = {}): CurrentUser {
  return {
    id: 'u1',
    name: 'Ana',
    email: 'ana@example.com',
    type: 'Gratis',
    paymentStatus: 'BIEN',
    annualPlan: false,
    paymentDay: null,
    terminationDate: null,
    subscriptionId: null,
    country: 'México',
    city: 'Puebla',
    phoneNumber: '+522221234567',
    hasPremiumAccess: false,
    isClassroomAdmin: false,
    isDiplomaAdmin: false,
    ...overrides,
  };
}

const guest = null;
const gratis = user();
const premium = user({ type: 'Premium', hasPremiumAccess: true });
const expiredLegacy = user({ type: 'Legacy', hasPremiumAccess: false });
const admin = user({ type: 'Admin', hasPremiumAccess: true });
const classroomAdmin = user({ isClassroomAdmin: true });
const diplomaAdmin = user({ type: 'Premium', hasPremiumAccess: true, isDiplomaAdmin: true });

describe('route guards', () => {
  it.each([
    ['guestsOnly', guest, null],
    ['guestsOnly', gratis, '/'],
    ['guestsOnly', admin, '/admin'],
    ['signedIn', guest, '/login'],
    ['signedIn', gratis, null],
    ['admin', guest, '/login'],
    ['admin', gratis, '/login'],
    ['admin', premium, '/login'],
    ['admin', admin, null],
    ['premiumAccess', guest, '/login'],
    ['premiumAccess', gratis, '/'],
    ['premiumAccess', expiredLegacy, '/'],
    ['premiumAccess', premium, null],
    ['premiumAccess', admin, null],
    ['classroomAdmin', guest, '/login'],
    ['classroomAdmin', gratis, '/'],
    ['classroomAdmin', classroomAdmin, null],
    ['classroomAdmin', admin, null],
    ['diplomaAdmin', premium, '/'],
    ['diplomaAdmin', diplomaAdmin, null],
    ['diplomaAdmin', admin, null],
  ] as const)('%s sends %o to %s', (guard, visitor, target) => {
    expect(guards[guard](visitor)).toBe(target);
  });
});

describe('coming back after signing in', () => {
  it('sends a guest to /login with the page to come back to', () => {
    expect(loginReturningTo('/mis-diplomados?x=1')).toBe('/login?volver=%2Fmis-diplomados%3Fx%3D1');
  });

  it.each([
    ['/mis-diplomados', '/mis-diplomados'],
    ['https://otro.example.com/', null],
    ['//otro.example.com', null],
    ['/\\otro.example.com', null],
    [null, null],
  ] as const)('returns to %s only when it is a path of this site', (value, expected) => {
    expect(safeReturnPath(value)).toBe(expected);
  });
});
