import { and, asc, eq, isNotNull } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { events } from '#server/db/schema/index.ts';
import { AppError } from '#shared/errors.ts';
import type { PublicEvent } from '#shared/events/events.schemas.ts';
import { uuidPattern } from '#shared/uuid.ts';
import { mediaUrl } from '#server/services/media-url.ts';
import { eventsCalendar, isDated } from './events.calendar.ts';

type EventRow = typeof events.$inferSelect;

export function createEventsService(deps: { db: Db; publicUrl: string; timeZone: string }) {
  const { db, publicUrl, timeZone } = deps;

  const activeRows = () => db.select().from(events).where(eq(events.status, 'Activo')).orderBy(asc(events.sortDate));

  /** The agenda: active events by their sort date. */
  async function listActive(): Promise<PublicEvent[]> {
    return (await activeRows()).map(toPublic);
  }

  /** The agenda's rows as stored (page metadata, sitemap). */
  async function activeEvents(): Promise<EventRow[]> {
    return activeRows();
  }

  /** One active event with real dates as an .ics file ('Añadir al calendario'). */
  async function calendarFile(id: string): Promise<{ fileName: string; body: string }> {
    if (!uuidPattern.test(id)) throw new AppError('NOT_FOUND');
    const [row] = await db
      .select()
      .from(events)
      .where(and(eq(events.id, id), eq(events.status, 'Activo')));
    if (!row || !isDated(row)) throw new AppError('NOT_FOUND');
    return {
      fileName: `evento-${row.id}.ics`,
      body: eventsCalendar([row], { publicUrl, timeZone, name: row.name, isFeed: false }),
    };
  }

  /** Every active event with real dates: the calendar feed members subscribe to. */
  async function calendarFeed(): Promise<string> {
    const rows = await db
      .select()
      .from(events)
      .where(and(eq(events.status, 'Activo'), isNotNull(events.startsAt), isNotNull(events.endsAt)))
      .orderBy(asc(events.startsAt));
    return eventsCalendar(rows.filter(isDated), { publicUrl, timeZone, name: 'Eventos CxVet', isFeed: true });
  }

  return { listActive, activeEvents, calendarFile, calendarFeed };
}

function toPublic(row: EventRow): PublicEvent {
  return {
    id: row.id,
    name: row.name,
    displayDate: row.displayDate,
    type: row.type,
    detailHtml: row.detailHtml,
    imageUrl: mediaUrl(row.image),
    pdfUrl: mediaUrl(row.pdf),
    programPdfUrl: mediaUrl(row.programPdf),
    promoVideoId: row.promoVideoId,
    startsAt: row.startsAt?.toISOString() ?? null,
    endsAt: row.endsAt?.toISOString() ?? null,
    place: row.place,
  };
}

export type EventsService = ReturnType<typeof createEventsService>;
