import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { landingSchema } from '#shared/landing/landing.schemas.ts';
import type { LandingService } from './landing.service.ts';

export function registerLandingRoutes(app: FastifyInstance, deps: { landing: LandingService }) {
  app
    .withTypeProvider<ZodTypeProvider>()
    .get('/api/landing', { schema: { response: { 200: landingSchema } } }, async (request) =>
      deps.landing.get(await request.currentUser()),
    );
}
