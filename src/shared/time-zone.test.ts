import { describe, expect, it } from 'vitest';
import { dateToZonedWallTime, latestRevocationDay, revocationInstant, zonedWallTimeToDate } from './time-zone.ts';

describe('wall-clock times in a time zone', () => {
  it.each([
    ['2026-03-14T10:00', 'America/Mexico_City', '2026-03-14T16:00:00.000Z'],
    ['2026-07-01T09:30', 'America/New_York', '2026-07-01T13:30:00.000Z'],
    ['2026-01-01T09:30', 'America/New_York', '2026-01-01T14:30:00.000Z'],
    ['2026-03-29T12:00', 'Europe/Madrid', '2026-03-29T10:00:00.000Z'],
    ['2026-03-28T12:00', 'Europe/Madrid', '2026-03-28T11:00:00.000Z'],
  ])('%s in %s is %s, and back', (wall, zone, instant) => {
    expect(zonedWallTimeToDate(wall, zone)?.toISOString()).toBe(instant);
    expect(dateToZonedWallTime(new Date(instant), zone)).toBe(wall);
  });

  it.each(['', '2026-02-30T10:00', '2026-03-14 10:00', '2026-03-14T25:00'])('refuses %j', (text) => {
    expect(zonedWallTimeToDate(text, 'America/Mexico_City')).toBeNull();
  });
});

describe('a revocation dated by the Admin', () => {
  const mexico = 'America/Mexico_City';

  it('is recorded at noon on the clock its date is printed in', () => {
    const now = new Date('2026-11-28T20:00:00Z');
    expect(revocationInstant('2026-11-20', now, mexico)?.toISOString()).toBe('2026-11-20T18:00:00.000Z');
    expect(revocationInstant('2026-11-20', now, 'UTC')?.toISOString()).toBe('2026-11-20T12:00:00.000Z');
  });

  it('takes the UTC date at 00:30 UTC, when Mexico City is still on the day before, and is never after now', () => {
    const now = new Date('2026-11-28T00:30:00Z');
    expect(revocationInstant('2026-11-28', now, mexico)).toEqual(now);
    expect(revocationInstant('2026-11-27', now, mexico)?.toISOString()).toBe('2026-11-27T18:00:00.000Z');
    expect(revocationInstant('2026-11-28', now, 'UTC')).toEqual(now);
  });

  it.each(['2026-11-29', '2026-02-30', 'ayer', ''])('refuses %j', (text) => {
    expect(revocationInstant(text, new Date('2026-11-28T23:59:00Z'), mexico)).toBeNull();
  });
});

describe("the revocation form's day", () => {
  it('is the browser’s today, or the UTC date when that is earlier, so the server accepts it', () => {
    // Mexico City at 18:30 on the 27th: 00:30 UTC on the 28th
    expect(latestRevocationDay('2026-11-27', new Date('2026-11-28T00:30:00Z'))).toBe('2026-11-27');
    // Madrid at 00:30 on the 28th: 23:30 UTC on the 27th
    expect(latestRevocationDay('2026-11-28', new Date('2026-11-27T23:30:00Z'))).toBe('2026-11-27');
    const day = latestRevocationDay('2026-11-28', new Date('2026-11-27T23:30:00Z'));
    expect(revocationInstant(day, new Date('2026-11-27T23:30:00Z'), 'America/Mexico_City')).not.toBeNull();
  });
});
