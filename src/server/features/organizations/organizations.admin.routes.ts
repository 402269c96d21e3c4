import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { recordParamsSchema } from '#shared/records.schemas.ts';
import {
  adminOrganizationListSchema,
  adminOrganizationSchema,
  organizationInputSchema,
} from '#shared/organizations/organizations.admin.schemas.ts';
import type { AdminOrganizationsService } from './organizations.admin.service.ts';

/** The console's organizations under /api/admin/organizations; registered in the Admin scope. */
export function registerAdminOrganizationRoutes(
  app: FastifyInstance,
  deps: { organizations: AdminOrganizationsService },
) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const byId = { params: recordParamsSchema };

  routes.get('/api/admin/organizations', { schema: { response: { 200: adminOrganizationListSchema } } }, async () => ({
    items: await deps.organizations.list(),
  }));
  routes.get(
    '/api/admin/organizations/:id',
    { schema: { ...byId, response: { 200: adminOrganizationSchema } } },
    (request) => deps.organizations.get(request.params.id),
  );
  routes.put(
    '/api/admin/organizations/:id',
    { schema: { ...byId, body: organizationInputSchema, response: { 200: adminOrganizationSchema } } },
    (request) => deps.organizations.save(request.params.id, request.body),
  );
}
