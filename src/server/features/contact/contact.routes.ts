import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { contactSchema } from '#shared/contact/contact.schemas.ts';
import type { ContactService } from './contact.service.ts';

export function registerContactRoutes(app: FastifyInstance, deps: { contact: ContactService }) {
  app
    .withTypeProvider<ZodTypeProvider>()
    .post(
      '/api/contact',
      { schema: { body: contactSchema }, config: { rateLimit: { max: 5, timeWindow: '10 minutes' } } },
      async (request, reply) => {
        await deps.contact.send(request.body);
        return reply.status(204).send();
      },
    );
}
