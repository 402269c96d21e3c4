import { asc, eq } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { events } from '#server/db/schema/index.ts';
import type { PublicEvent } from '#shared/events/events.schemas.ts';
import { mediaUrl } from '#server/services/media-url.ts';

export function createEventsService(deps: { db: Db }) {
  /** The agenda: active events by their sort date. */
  async function listActive(): Promise<PublicEvent[]> {
    const rows = await deps.db.select().from(events).where(eq(events.status, 'Activo')).orderBy(asc(events.sortDate));
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      displayDate: row.displayDate,
      type: row.type,
      detailHtml: row.detailHtml,
      imageUrl: mediaUrl(row.image),
      pdfUrl: mediaUrl(row.pdf),
      programPdfUrl: mediaUrl(row.programPdf),
      promoVideoId: row.promoVideoId,
    }));
  }
  return { listActive };
}

export type EventsService = ReturnType<typeof createEventsService>;
