import { z } from 'zod';

const publicEventSchema = z.object({
  id: z.string(),
  name: z.string(),
  displayDate: z.string(),
  type: z.string(),
  /** Sanitised on the server before it is stored. */
  detailHtml: z.string(),
  imageUrl: z.string().nullable(),
  pdfUrl: z.string().nullable(),
  programPdfUrl: z.string().nullable(),
  promoVideoId: z.string().nullable(),
  /** When it really starts and ends (ISO instants), null for an event with only a display text. */
  startsAt: z.string().nullable(),
  endsAt: z.string().nullable(),
  place: z.string(),
});
export type PublicEvent = z.infer<typeof publicEventSchema>;

export const publicEventsSchema = z.object({ events: z.array(publicEventSchema) });

/** The fixed watch-URL prefix of spec 2; the embed uses the privacy-enhanced host. */
export const promoVideoWatchPrefix = 'https://www.youtube.com/watch?v=';
export const promoVideoEmbedUrl = (videoId: string) =>
  `https://www.youtube-nocookie.com/embed/${encodeURIComponent(videoId)}`;

/** One event's .ics download ('Añadir al calendario'). */
export const eventCalendarUrl = (id: string) => `/api/events/${encodeURIComponent(id)}/calendar.ics`;
/** The agenda's calendar feed, to subscribe to. */
export const eventsFeedPath = '/eventos.ics';
