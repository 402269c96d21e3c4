import { z } from 'zod';
import { messages } from '../messages.ts';
import { requiredText } from '../records.schemas.ts';

export const tagInputSchema = z.object({ name: requiredText(messages.requiredDot, 100) });
export type TagInput = z.infer<typeof tagInputSchema>;
export const adminTagSchema = z.object({ id: z.string(), name: z.string() });
export type AdminTag = z.infer<typeof adminTagSchema>;
export const adminTagListSchema = z.object({ items: z.array(adminTagSchema) });
