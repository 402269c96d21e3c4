import dayjs from 'dayjs';
import timezonePlugin from 'dayjs/plugin/timezone.js';
import utcPlugin from 'dayjs/plugin/utc.js';
import ical, { ICalCalendarMethod } from 'ical-generator';
import sanitizeHtml from 'sanitize-html';
import { tzlib_get_ical_block } from 'timezones-ical-library';
import type { events } from '#server/db/schema/index.ts';

dayjs.extend(utcPlugin);
dayjs.extend(timezonePlugin);

type EventRow = typeof events.$inferSelect;
/** An event with its real start and end. */
export type DatedEvent = EventRow & { startsAt: Date; endsAt: Date };

export const isDated = (row: EventRow): row is DatedEvent => row.startsAt !== null && row.endsAt !== null;

const plainText = (html: string) =>
  sanitizeHtml(html.replace(/<\/(p|li|h[2-4])>|<br\s*\/?>/gi, '\n'), { allowedTags: [], allowedAttributes: {} })
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\n{3,}/g, '\n\n')
    .trim();

/**
 * An iCalendar (RFC 5545) of events, times on the site's clock with the zone's VTIMEZONE, so a calendar shows them at
 * the right hour wherever it is. One UID per event, kept across downloads, so a second import updates the first.
 */
export function eventsCalendar(
  rows: DatedEvent[],
  options: { publicUrl: string; timeZone: string; name: string; isFeed: boolean },
): string {
  const host = new URL(options.publicUrl).hostname;
  // a native Date would be written on the server's clock: dayjs on the site's zone writes the site's wall time
  const onSiteClock = (date: Date) => dayjs(date).tz(options.timeZone);
  const agenda = new URL('/eventos', options.publicUrl).toString();
  const calendar = ical({
    name: options.name,
    prodId: { company: 'CxVet', product: 'Eventos', language: 'ES' },
    // no calendar-wide zone: DTSTAMP stays in UTC as RFC 5545 §3.8.7.2 requires; each event names its zone
    timezone: { name: null, generator: (zone) => tzlib_get_ical_block(zone)[0] ?? null },
    url: agenda,
    // a feed is subscribed to; a single event's file is imported (RFC 5546's PUBLISH suits both)
    method: ICalCalendarMethod.PUBLISH,
    ...(options.isFeed ? { ttl: 60 * 60 * 6 } : {}),
  });
  calendar.x('X-WR-TIMEZONE', options.timeZone);
  for (const row of rows) {
    calendar.createEvent({
      id: `evento-${row.id}@${host}`,
      start: onSiteClock(row.startsAt),
      end: onSiteClock(row.endsAt),
      timezone: options.timeZone,
      stamp: row.updatedAt,
      summary: row.name,
      description: [row.displayDate, plainText(row.detailHtml)].filter(Boolean).join('\n\n'),
      location: row.place || null,
      url: agenda,
    });
  }
  return calendar.toString();
}
