import { z } from 'zod';
import { messages } from './messages.ts';

/** Spec 2 §1 and §9: every console table shows 12 rows a page. */
export const adminPageSize = 12;

/** A server-paged console table's query (`useServerTable`): the search, the sorted column and direction, the page. */
export function consoleListQuerySchema<const Column extends string>(
  columns: readonly [Column, ...Column[]],
  initial: { sort: NoInfer<Column>; dir: 'asc' | 'desc' },
) {
  return z.object({
    q: z.string().trim().max(100).optional(),
    sort: z.enum(columns).default(initial.sort as never),
    dir: z.enum(['asc', 'desc']).default(initial.dir),
    page: z.coerce.number().int().min(1).max(100_000).default(1),
  });
}

/** A yes-or-no filter in a query string: 'true' or 'false', absent meaning no. */
export const queryFlag = z
  .enum(['true', 'false'])
  .transform((value) => value === 'true')
  .optional();

export const requiredText = (message: string = messages.requiredDot, max = 5000) =>
  z.string({ error: message }).trim().min(1, message).max(max);
/** A stored file's key: an existing one of the record, or a pending upload. */
export const fileKey = (message: string = messages.requiredDot) =>
  z.string({ error: message }).min(1, message).max(512);
export const optionalFileKey = z.string().max(512).nullable();
export const recordId = z.uuid();

export const recordParamsSchema = z.object({ id: recordId });
export const okSchema = z.object({ ok: z.literal(true) });
