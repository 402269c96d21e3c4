import { z } from 'zod';
import { renditionStatuses } from './renditions.rules.ts';

/** One video's ladder as the console shows it. */
const renditionStatusSchema = z.object({
  key: z.string(),
  status: z.enum(renditionStatuses),
  progress: z.number().int(),
  error: z.string().nullable(),
  heights: z.array(z.number().int()),
});
export type RenditionStatusView = z.infer<typeof renditionStatusSchema>;

export const renditionStatusQuerySchema = z.object({ keys: z.string().max(4000) });
export const renditionStatusListSchema = z.object({ items: z.array(renditionStatusSchema) });
export const prepareRenditionSchema = z.object({ key: z.string().min(1).max(512) });
