import { z } from 'zod';
import { messages } from '../messages.ts';
import { fileKey, optionalFileKey, requiredText } from '../records.schemas.ts';
import { eventStatuses } from './events.rules.ts';

/** A YouTube video id: what follows 'https://www.youtube.com/watch?v='. */
const promoVideoIdPattern = /^[A-Za-z0-9_-]{1,64}$/;

export const eventInputSchema = z.object({
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
});
export type EventInput = z.infer<typeof eventInputSchema>;

export const adminEventSchema = eventInputSchema.extend({ id: z.string() });
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
