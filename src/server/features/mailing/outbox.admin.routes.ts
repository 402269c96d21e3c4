import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { desc, eq } from 'drizzle-orm';
import sanitizeHtml from 'sanitize-html';
import type { Db } from '#server/db/client.ts';
import { mailOutbox } from '#server/db/schema/index.ts';
import { outboxQuerySchema, outboxResponseSchema } from '#shared/mailing/outbox.schemas.ts';

const mailHtml: sanitizeHtml.IOptions = {
  allowedTags: [...sanitizeHtml.defaults.allowedTags, 'img', 'h1'],
  allowedAttributes: { '*': ['style'], a: ['href'], img: ['src', 'alt', 'width', 'height'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  disallowedTagsMode: 'discard',
  // the text of these is not mail content (the layout's <title> would show as a line)
  nonTextTags: ['style', 'script', 'textarea', 'option', 'noscript', 'title'],
};

/** The mails kept locally when no SMTP server is configured, newest first (registered in the Admin scope). */
export function registerOutboxRoutes(app: FastifyInstance, deps: { db: Db }) {
  app
    .withTypeProvider<ZodTypeProvider>()
    .get(
      '/api/admin/outbox',
      { schema: { querystring: outboxQuerySchema, response: { 200: outboxResponseSchema } } },
      async (request) => {
        const { to, limit } = request.query;
        const mails = await deps.db
          .select({
            id: mailOutbox.id,
            to: mailOutbox.to,
            subject: mailOutbox.subject,
            text: mailOutbox.text,
            html: mailOutbox.html,
            createdAt: mailOutbox.createdAt,
          })
          .from(mailOutbox)
          .where(to ? eq(mailOutbox.to, to.toLowerCase()) : undefined)
          .orderBy(desc(mailOutbox.createdAt))
          .limit(limit);
        return {
          mails: mails.map((mail) => ({
            ...mail,
            html: sanitizeHtml(mail.html, mailHtml),
            createdAt: mail.createdAt.toISOString(),
          })),
        };
      },
    );
}
