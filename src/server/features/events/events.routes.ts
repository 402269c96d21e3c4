import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { publicEventsSchema } from '#shared/events/events.schemas.ts';
import type { EventsService } from './events.service.ts';

export function registerEventRoutes(app: FastifyInstance, deps: { events: EventsService }) {
  app
    .withTypeProvider<ZodTypeProvider>()
    .get('/api/events', { schema: { response: { 200: publicEventsSchema } } }, async () => ({
      events: await deps.events.listActive(),
    }));
}
