import { z } from 'zod';

export const outboxQuerySchema = z.object({
  to: z.email().optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

const outboxMailSchema = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  /** Sanitised on the server: no scripts, forms or event handlers; links, images and inline styles stay. */
  html: z.string(),
  createdAt: z.string(),
});

export const outboxResponseSchema = z.object({ mails: z.array(outboxMailSchema) });
