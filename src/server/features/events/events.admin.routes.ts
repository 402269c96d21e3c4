import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { okSchema, recordParamsSchema } from '#shared/records.schemas.ts';
import { adminEventListSchema, adminEventSchema, eventInputSchema } from '#shared/events/events.admin.schemas.ts';
import type { AdminEventsService } from './events.admin.service.ts';

/** The console's events under /api/admin/events; registered in the Admin scope. */
export function registerAdminEventRoutes(app: FastifyInstance, deps: { events: AdminEventsService }) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const byId = { params: recordParamsSchema };

  routes.get('/api/admin/events', { schema: { response: { 200: adminEventListSchema } } }, async () => ({
    items: await deps.events.list(),
  }));
  routes.get('/api/admin/events/:id', { schema: { ...byId, response: { 200: adminEventSchema } } }, (request) =>
    deps.events.get(request.params.id),
  );
  routes.put(
    '/api/admin/events/:id',
    { schema: { ...byId, body: eventInputSchema, response: { 200: adminEventSchema } } },
    (request) => deps.events.save(request.params.id, request.body),
  );
  routes.delete('/api/admin/events/:id', { schema: { ...byId, response: { 200: okSchema } } }, async (request) => {
    await deps.events.remove(request.params.id);
    return { ok: true as const };
  });
}
