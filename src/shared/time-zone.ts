/** A wall-clock time as a date-time field holds it: 'YYYY-MM-DDTHH:mm'. */
export const wallTimePattern = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Milliseconds a clock in `timeZone` is ahead of UTC at `instant` (negative west of Greenwich). */
export function zoneOffsetAt(instant: number, timeZone: string): number {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, format);
  }
  const field: Record<string, number> = {};
  for (const part of format.formatToParts(instant)) field[part.type] = Number(part.value);
  const wall = Date.UTC(field.year!, field.month! - 1, field.day!, field.hour!, field.minute!, field.second!);
  return wall - Math.floor(instant / 1000) * 1000;
}

/** The instant a clock in `timeZone` shows `wallTime` ('YYYY-MM-DDTHH:mm'); null for text that is not one. */
export function zonedWallTimeToDate(wallTime: string, timeZone: string): Date | null {
  const match = wallTimePattern.exec(wallTime);
  if (!match) return null;
  const [, year, month, day, hour, minute] = match.map(Number) as number[];
  const asUtc = Date.UTC(year!, month! - 1, day!, hour!, minute!);
  if (new Date(asUtc).getUTCDate() !== day || new Date(asUtc).getUTCHours() !== hour) return null;
  // two passes settle the offset on either side of a change of offset
  let instant = asUtc - zoneOffsetAt(asUtc, timeZone);
  instant = asUtc - zoneOffsetAt(instant, timeZone);
  return new Date(instant);
}

/** The wall-clock time ('YYYY-MM-DDTHH:mm') a clock in `timeZone` shows at `date`. */
export function dateToZonedWallTime(date: Date, timeZone: string): string {
  const wall = new Date(date.getTime() + zoneOffsetAt(date.getTime(), timeZone));
  return wall.toISOString().slice(0, 16);
}

/**
 * When a revocation the Admin dated `revokedOn` ('YYYY-MM-DD') is recorded: noon on the clock its date is printed in
 * (`timeZone`), so every reader sees that day, and never later than `now`. The Admin's browser dates the form, where
 * today may already be tomorrow in the site's zone, so the latest day accepted is the UTC date, which no zone of the
 * Americas is ahead of; null for a later day or for text that is not a date.
 */
export function revocationInstant(revokedOn: string, now: Date, timeZone: string): Date | null {
  if (revokedOn > now.toISOString().slice(0, 10)) return null;
  const noon = zonedWallTimeToDate(`${revokedOn}T12:00`, timeZone);
  if (!noon) return null;
  return noon.getTime() > now.getTime() ? now : noon;
}

/**
 * The revocation form's day by default and at most: the browser's today (`localToday`), unless the UTC date, the
 * latest `revocationInstant` accepts, is earlier (an Admin east of UTC just after their midnight).
 */
export function latestRevocationDay(localToday: string, now: Date): string {
  const utcToday = now.toISOString().slice(0, 10);
  return localToday < utcToday ? localToday : utcToday;
}
