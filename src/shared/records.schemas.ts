import { z } from 'zod';
import { messages } from './messages.ts';

/** Spec 2 §1 and §9: every console table shows 12 rows a page. */
export const adminPageSize = 12;

export const requiredText = (message: string = messages.requiredDot, max = 5000) =>
  z.string({ error: message }).trim().min(1, message).max(max);
/** A stored file's key: an existing one of the record, or a pending upload. */
export const fileKey = (message: string = messages.requiredDot) =>
  z.string({ error: message }).min(1, message).max(512);
export const optionalFileKey = z.string().max(512).nullable();
export const recordId = z.uuid();

export const recordParamsSchema = z.object({ id: recordId });
export const okSchema = z.object({ ok: z.literal(true) });
