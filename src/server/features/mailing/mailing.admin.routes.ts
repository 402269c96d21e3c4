import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { bulkMailCreatedSchema, bulkMailSchema } from '#shared/mailing/mailing.schemas.ts';
import { requireAdmin } from '#server/plugins/authorization.ts';
import type { MailingService } from './mailing.service.ts';

/** The console's bulk e-mail (spec 2); registered in the Admin scope. */
export function registerAdminMailingRoutes(app: FastifyInstance, deps: { mailing: MailingService }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.post(
    '/api/admin/mailing',
    { schema: { body: bulkMailSchema, response: { 202: bulkMailCreatedSchema } } },
    async (request, reply) => {
      const actor = await requireAdmin(request);
      return reply.status(202).send(await deps.mailing.create(request.body, actor.id));
    },
  );
}
