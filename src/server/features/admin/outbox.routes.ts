import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { desc, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '#server/db/client.ts';
import { mailOutbox } from '#server/db/schema/index.ts';

const outboxQuerySchema = z.object({
  to: z.email().optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

const outboxMailSchema = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  createdAt: z.string(),
});

/** The mails kept locally when no SMTP server is configured, newest first (registered in the Admin scope). */
export function registerOutboxRoutes(app: FastifyInstance, deps: { db: Db }) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/admin/outbox',
    { schema: { querystring: outboxQuerySchema, response: { 200: z.object({ mails: z.array(outboxMailSchema) }) } } },
    async (request) => {
      const { to, limit } = request.query;
      const mails = await deps.db
        .select({ id: mailOutbox.id, to: mailOutbox.to, subject: mailOutbox.subject, text: mailOutbox.text, createdAt: mailOutbox.createdAt })
        .from(mailOutbox)
        .where(to ? eq(mailOutbox.to, to.toLowerCase()) : undefined)
        .orderBy(desc(mailOutbox.createdAt))
        .limit(limit);
      return { mails: mails.map((mail) => ({ ...mail, createdAt: mail.createdAt.toISOString() })) };
    },
  );
}
