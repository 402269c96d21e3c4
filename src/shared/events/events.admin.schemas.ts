import { z } from 'zod';
import { messages } from '../messages.ts';
import { fileKey, optionalFileKey, requiredText } from '../records.schemas.ts';
import { eventStatuses } from './events.rules.ts';
import { wallTimePattern } from '../time-zone.ts';

/** A YouTube video id: what follows 'https://www.youtube.com/watch?v='. */
const promoVideoIdPattern = /^[A-Za-z0-9_-]{1,64}$/;

/** A date and time on the site's clock ('YYYY-MM-DDTHH:mm'), or '' for none. */
const wallTime = z
  .string()
  .trim()
  .refine((value) => value === '' || wallTimePattern.test(value), messages.invalidDateTime);

const eventFields = z.object({
  name: requiredText(messages.requiredDot, 300),
  displayDate: requiredText(messages.requiredDot, 200),
  sortDate: z
    .string({ error: messages.requiredDot })
    .min(1, messages.requiredDot)
    .refine((value) => value === '' || !Number.isNaN(Date.parse(value)), messages.requiredDot),
  type: requiredText(messages.requiredDot, 200),
  status: z.enum(eventStatuses, { error: messages.requiredDot }),
  detailHtml: requiredText(messages.requiredDot, 100_000),
  image: fileKey(),
  pdf: optionalFileKey,
  programPdf: optionalFileKey,
  promoVideoId: z
    .string()
    .trim()
    .max(64)
    .refine((value) => value === '' || promoVideoIdPattern.test(value), messages.invalidTimeFormat),
  // '' and '' for an event with only its display text
  startsAt: wallTime,
  endsAt: wallTime,
  place: z.string().trim().max(300),
});

/** The real start and end come together, the end after the start. */
function checkDates(event: { startsAt: string; endsAt: string }, context: z.RefinementCtx) {
  if ((event.startsAt === '') !== (event.endsAt === '')) {
    const field = event.startsAt === '' ? 'startsAt' : 'endsAt';
    context.addIssue({ code: 'custom', path: [field], message: messages.eventDatesTogether });
  } else if (event.startsAt !== '' && event.endsAt <= event.startsAt) {
    context.addIssue({ code: 'custom', path: ['endsAt'], message: messages.eventEndsBeforeStart });
  }
}

export const eventInputSchema = eventFields.superRefine(checkDates);
export type EventInput = z.infer<typeof eventInputSchema>;

export const adminEventSchema = eventFields.extend({ id: z.string() });
export type AdminEvent = z.infer<typeof adminEventSchema>;
const adminEventRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  displayDate: z.string(),
  sortDate: z.string(),
  type: z.string(),
  status: z.enum(eventStatuses),
});
export type AdminEventRow = z.infer<typeof adminEventRowSchema>;
export const adminEventListSchema = z.object({ items: z.array(adminEventRowSchema) });
