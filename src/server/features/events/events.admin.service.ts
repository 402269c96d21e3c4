import { asc, eq } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { events } from '#server/db/schema/index.ts';
import { AppError } from '#shared/errors.ts';
import { messages } from '#shared/messages.ts';
import type { AdminEvent, AdminEventRow, EventInput } from '#shared/events/events.admin.schemas.ts';
import { uploadTargets } from '#shared/uploads/uploads.rules.ts';
import type { UploadsService } from '#server/features/uploads/uploads.service.ts';
import { hasVisibleText, sanitizeRichText } from '#server/services/rich-text.ts';
import { dateToZonedWallTime, zonedWallTimeToDate } from '#shared/time-zone.ts';

const fileFields = [
  ['image', 'event-image'],
  ['pdf', 'event-pdf'],
  ['programPdf', 'event-program'],
] as const;

export function createAdminEventsService(deps: { db: Db; uploads: UploadsService; timeZone: string }) {
  const { db, uploads, timeZone } = deps;
  // the form's dates and times are on the site's clock, wherever the Admin's browser is
  const toWallTime = (date: Date | null) => (date ? dateToZonedWallTime(date, timeZone) : '');
  const fromWallTime = (wallTime: string) => (wallTime ? zonedWallTimeToDate(wallTime, timeZone) : null);

  async function list(): Promise<AdminEventRow[]> {
    const rows = await db.select().from(events).orderBy(asc(events.sortDate));
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      displayDate: row.displayDate,
      sortDate: row.sortDate.toISOString(),
      type: row.type,
      status: row.status,
    }));
  }

  async function find(id: string) {
    const [row] = await db.select().from(events).where(eq(events.id, id));
    return row ?? null;
  }

  async function get(id: string): Promise<AdminEvent> {
    const row = await find(id);
    if (!row) throw new AppError('NOT_FOUND');
    return {
      id: row.id,
      name: row.name,
      displayDate: row.displayDate,
      sortDate: row.sortDate.toISOString(),
      type: row.type,
      status: row.status,
      detailHtml: row.detailHtml,
      image: row.image ?? '',
      pdf: row.pdf,
      programPdf: row.programPdf,
      promoVideoId: row.promoVideoId ?? '',
      startsAt: toWallTime(row.startsAt),
      endsAt: toWallTime(row.endsAt),
      place: row.place,
    };
  }

  /** Creates or replaces an event; the detail is sanitised before it is stored. */
  async function save(id: string, input: EventInput): Promise<AdminEvent> {
    const detailHtml = sanitizeRichText(input.detailHtml);
    if (!hasVisibleText(detailHtml)) throw new AppError('VALIDATION', { fields: { detailHtml: messages.requiredDot } });
    const current = await find(id);
    const { claimed, obsolete } = await uploads.plan(
      fileFields.map(([field, target]) => ({
        field,
        next: input[field] || null,
        current: current?.[field] ?? null,
        folder: 'events',
        kinds: uploadTargets[target].kinds,
      })),
    );
    const values = {
      name: input.name,
      displayDate: input.displayDate,
      sortDate: new Date(input.sortDate),
      type: input.type,
      status: input.status,
      detailHtml,
      image: input.image,
      pdf: input.pdf || null,
      programPdf: input.programPdf || null,
      promoVideoId: input.promoVideoId || null,
      startsAt: fromWallTime(input.startsAt),
      endsAt: fromWallTime(input.endsAt),
      place: input.place,
      updatedAt: new Date(),
    };
    await db.transaction(async (tx) => {
      await tx
        .insert(events)
        .values({ id, ...values })
        .onConflictDoUpdate({ target: events.id, set: values });
      await uploads.claim(claimed, tx);
    });
    await uploads.removeFiles(obsolete);
    return get(id);
  }

  /** Deletes an event and its image and PDFs. */
  async function remove(id: string): Promise<void> {
    const [row] = await db.delete(events).where(eq(events.id, id)).returning();
    if (!row) throw new AppError('NOT_FOUND');
    await uploads.removeFiles(fileFields.map(([field]) => row[field]));
  }

  return { list, get, save, remove };
}

export type AdminEventsService = ReturnType<typeof createAdminEventsService>;
