import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { okSchema, recordParamsSchema } from '#shared/records.schemas.ts';
import {
  adminProcedureListQuerySchema,
  adminProcedurePageSchema,
  adminProcedureSchema,
  procedureInputSchema,
} from '#shared/catalog/procedures.admin.schemas.ts';
import type { AdminProceduresService } from './procedures.admin.service.ts';

/** The console's procedures under /api/admin/procedures; registered in the Admin scope. */
export function registerAdminProcedureRoutes(app: FastifyInstance, deps: { procedures: AdminProceduresService }) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const byId = { params: recordParamsSchema };

  routes.get(
    '/api/admin/procedures',
    { schema: { querystring: adminProcedureListQuerySchema, response: { 200: adminProcedurePageSchema } } },
    (request) => deps.procedures.list(request.query),
  );
  routes.get('/api/admin/procedures/:id', { schema: { ...byId, response: { 200: adminProcedureSchema } } }, (request) =>
    deps.procedures.get(request.params.id),
  );
  routes.put(
    '/api/admin/procedures/:id',
    { schema: { ...byId, body: procedureInputSchema, response: { 200: adminProcedureSchema } } },
    (request) => deps.procedures.save(request.params.id, request.body),
  );
  routes.delete('/api/admin/procedures/:id', { schema: { ...byId, response: { 200: okSchema } } }, async (request) => {
    await deps.procedures.remove(request.params.id);
    return { ok: true as const };
  });
}
