import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  adminEventListSchema,
  adminEventSchema,
  adminLandingSchema,
  adminNewsletterSchema,
  adminOrganizationListSchema,
  adminOrganizationSchema,
  adminProcedureListQuerySchema,
  adminProcedurePageSchema,
  adminProcedureSchema,
  adminTagListSchema,
  adminTagSchema,
  eventInputSchema,
  landingInputSchema,
  newsletterInputSchema,
  okSchema,
  organizationInputSchema,
  procedureInputSchema,
  recordParamsSchema,
  tagInputSchema,
} from '#shared/admin-content/admin-content.schemas.ts';
import type { AdminProceduresService } from './procedures.service.ts';
import type { AdminTagsService } from './tags.service.ts';
import type { AdminEventsService } from './events.service.ts';
import type { AdminOrganizationsService } from './organizations.service.ts';
import type { AdminLandingService } from './landing.service.ts';
import type { AdminNewsletterService } from './newsletter.service.ts';

type Deps = {
  procedures: AdminProceduresService;
  tags: AdminTagsService;
  events: AdminEventsService;
  organizations: AdminOrganizationsService;
  landing: AdminLandingService;
  newsletter: AdminNewsletterService;
};

const ok = { ok: true as const };

/** The console's content API under /api/admin; registered in the Admin scope. */
export function registerAdminContentRoutes(app: FastifyInstance, deps: Deps) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const byId = { params: recordParamsSchema };

  routes.get('/api/admin/procedures', { schema: { querystring: adminProcedureListQuerySchema, response: { 200: adminProcedurePageSchema } } }, (request) =>
    deps.procedures.list(request.query),
  );
  routes.get('/api/admin/procedures/:id', { schema: { ...byId, response: { 200: adminProcedureSchema } } }, (request) =>
    deps.procedures.get(request.params.id),
  );
  routes.put('/api/admin/procedures/:id', { schema: { ...byId, body: procedureInputSchema, response: { 200: adminProcedureSchema } } }, (request) =>
    deps.procedures.save(request.params.id, request.body),
  );
  routes.delete('/api/admin/procedures/:id', { schema: { ...byId, response: { 200: okSchema } } }, async (request) => {
    await deps.procedures.remove(request.params.id);
    return ok;
  });

  routes.get('/api/admin/tags', { schema: { response: { 200: adminTagListSchema } } }, async () => ({ items: await deps.tags.list() }));
  routes.get('/api/admin/tags/:id', { schema: { ...byId, response: { 200: adminTagSchema } } }, (request) => deps.tags.get(request.params.id));
  routes.put('/api/admin/tags/:id', { schema: { ...byId, body: tagInputSchema, response: { 200: adminTagSchema } } }, (request) =>
    deps.tags.save(request.params.id, request.body),
  );
  routes.delete('/api/admin/tags/:id', { schema: { ...byId, response: { 200: okSchema } } }, async (request) => {
    await deps.tags.remove(request.params.id);
    return ok;
  });

  routes.get('/api/admin/events', { schema: { response: { 200: adminEventListSchema } } }, async () => ({ items: await deps.events.list() }));
  routes.get('/api/admin/events/:id', { schema: { ...byId, response: { 200: adminEventSchema } } }, (request) => deps.events.get(request.params.id));
  routes.put('/api/admin/events/:id', { schema: { ...byId, body: eventInputSchema, response: { 200: adminEventSchema } } }, (request) =>
    deps.events.save(request.params.id, request.body),
  );
  routes.delete('/api/admin/events/:id', { schema: { ...byId, response: { 200: okSchema } } }, async (request) => {
    await deps.events.remove(request.params.id);
    return ok;
  });

  routes.get('/api/admin/organizations', { schema: { response: { 200: adminOrganizationListSchema } } }, async () => ({
    items: await deps.organizations.list(),
  }));
  routes.get('/api/admin/organizations/:id', { schema: { ...byId, response: { 200: adminOrganizationSchema } } }, (request) =>
    deps.organizations.get(request.params.id),
  );
  routes.put(
    '/api/admin/organizations/:id',
    { schema: { ...byId, body: organizationInputSchema, response: { 200: adminOrganizationSchema } } },
    (request) => deps.organizations.save(request.params.id, request.body),
  );

  routes.get('/api/admin/landing', { schema: { response: { 200: adminLandingSchema } } }, () => deps.landing.get());
  routes.put('/api/admin/landing', { schema: { body: landingInputSchema, response: { 200: adminLandingSchema } } }, (request) =>
    deps.landing.save(request.body),
  );

  routes.get('/api/admin/newsletter', { schema: { response: { 200: adminNewsletterSchema } } }, () => deps.newsletter.get());
  routes.put('/api/admin/newsletter', { schema: { body: newsletterInputSchema, response: { 200: adminNewsletterSchema } } }, (request) =>
    deps.newsletter.save(request.body.image),
  );
}
