import { describe, expect, it } from 'vitest';
import { dateToZonedWallTime, zonedWallTimeToDate } from './time-zone.ts';

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
