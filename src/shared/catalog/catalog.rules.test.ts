import { describe, expect, it } from 'vitest';
import { canWatchFullProcedure, formatChapterTime, parseChapterTime } from './catalog.rules.ts';

describe('chapter times', () => {
  it.each([
    ['0:00:00', 0],
    ['0:01:30', 90],
    ['1:05:09', 3909],
    ['0:69:59', 69 * 60 + 59],
  ])('parses %s', (text, seconds) => {
    expect(parseChapterTime(text)).toBe(seconds);
  });

  it.each(['0:70:00', '0:00:60', '1:2:03', 'abc', '', '0:00'])('refuses %j', (text) => {
    expect(parseChapterTime(text)).toBeNull();
  });

  it('formats seconds as h:mm:ss', () => {
    expect(formatChapterTime(3909)).toBe('1:05:09');
    expect(formatChapterTime(59)).toBe('0:00:59');
  });
});

describe('canWatchFullProcedure', () => {
  const guest = { isLoggedIn: false, hasPremiumAccess: false, hasClassroomAccess: false };
  const basic = { isLoggedIn: true, hasPremiumAccess: false, hasClassroomAccess: false };
  it.each([
    ['a guest, Gratis', guest, 'Gratis', false],
    ['a guest, Premium', guest, 'Premium', false],
    ['a guest even with an aula flag', { ...guest, hasClassroomAccess: true }, 'Premium', false],
    ['a Basic member, Gratis', basic, 'Gratis', true],
    ['a Basic member, Premium', basic, 'Premium', false],
    ['a Basic member of an aula, Premium', { ...basic, hasClassroomAccess: true }, 'Premium', true],
    ['a Premium member, Premium', { ...basic, hasPremiumAccess: true }, 'Premium', true],
  ] as const)('%s', (_case, viewer, type, expected) => {
    expect(canWatchFullProcedure(viewer, type)).toBe(expected);
  });
});
