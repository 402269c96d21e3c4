import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { publicEventsSchema } from '#shared/events/events.schemas.ts';
import type { EventsService } from './events.service.ts';

const calendarType = 'text/calendar; charset=utf-8';

export function registerEventRoutes(app: FastifyInstance, deps: { events: EventsService }) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.get('/api/events', { schema: { response: { 200: publicEventsSchema } } }, async () => ({
    events: await deps.events.listActive(),
  }));
  // 'Añadir al calendario': one event's file, downloaded
  routes.get(
    '/api/events/:id/calendar.ics',
    { schema: { params: z.object({ id: z.string() }) } },
    async (request, reply) => {
      const { fileName, body } = await deps.events.calendarFile(request.params.id);
      return reply
        .type(calendarType)
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .header('cache-control', 'no-cache')
        .send(body);
    },
  );
  // the agenda as a feed calendars subscribe to (webcal:// or 'Add by URL'): read in place, never an attachment
  routes.get('/eventos.ics', async (_request, reply) =>
    reply
      .type(calendarType)
      .header('cache-control', 'public, max-age=900')
      .send(await deps.events.calendarFeed()),
  );
}
