import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { okSchema, recordParamsSchema } from '#shared/records.schemas.ts';
import { adminTagListSchema, adminTagSchema, tagInputSchema } from '#shared/catalog/tags.admin.schemas.ts';
import type { AdminTagsService } from './tags.admin.service.ts';

/** The console's tags under /api/admin/tags; registered in the Admin scope. */
export function registerAdminTagRoutes(app: FastifyInstance, deps: { tags: AdminTagsService }) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const byId = { params: recordParamsSchema };

  routes.get('/api/admin/tags', { schema: { response: { 200: adminTagListSchema } } }, async () => ({
    items: await deps.tags.list(),
  }));
  routes.get('/api/admin/tags/:id', { schema: { ...byId, response: { 200: adminTagSchema } } }, (request) =>
    deps.tags.get(request.params.id),
  );
  routes.put(
    '/api/admin/tags/:id',
    { schema: { ...byId, body: tagInputSchema, response: { 200: adminTagSchema } } },
    (request) => deps.tags.save(request.params.id, request.body),
  );
  routes.delete('/api/admin/tags/:id', { schema: { ...byId, response: { 200: okSchema } } }, async (request) => {
    await deps.tags.remove(request.params.id);
    return { ok: true as const };
  });
}
