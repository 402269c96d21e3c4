import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  adminNewsletterSchema,
  landingInputSchema,
  newsletterInputSchema,
} from '#shared/landing/landing.admin.schemas.ts';
import type { AdminLandingService } from './landing.admin.service.ts';
import type { AdminNewsletterService } from './newsletter.admin.service.ts';

/** The console's landing photos and newsletter image under /api/admin; registered in the Admin scope. */
export function registerAdminLandingRoutes(
  app: FastifyInstance,
  deps: { landing: AdminLandingService; newsletter: AdminNewsletterService },
) {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get('/api/admin/landing', { schema: { response: { 200: landingInputSchema } } }, () => deps.landing.get());
  routes.put(
    '/api/admin/landing',
    { schema: { body: landingInputSchema, response: { 200: landingInputSchema } } },
    (request) => deps.landing.save(request.body),
  );

  routes.get('/api/admin/newsletter', { schema: { response: { 200: adminNewsletterSchema } } }, () =>
    deps.newsletter.get(),
  );
  routes.put(
    '/api/admin/newsletter',
    { schema: { body: newsletterInputSchema, response: { 200: adminNewsletterSchema } } },
    (request) => deps.newsletter.save(request.body.image),
  );
}
