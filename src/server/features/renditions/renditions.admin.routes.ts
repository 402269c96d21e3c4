import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  prepareRenditionSchema,
  renditionStatusListSchema,
  renditionStatusQuerySchema,
} from '#shared/renditions/renditions.schemas.ts';
import type { RenditionsService } from './renditions.service.ts';

/** The console's view of video ladders: where each stands, and 'Reintentar' (registered inside the Admin scope). */
export function registerRenditionAdminRoutes(
  app: FastifyInstance,
  deps: { renditions: RenditionsService; runJobs: () => void },
) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.get(
    '/api/admin/video-renditions',
    { schema: { querystring: renditionStatusQuerySchema, response: { 200: renditionStatusListSchema } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const keys = request.query.keys.split(',').filter(Boolean).slice(0, 50);
      return { items: await deps.renditions.statusOf(keys) };
    },
  );
  typed.post(
    '/api/admin/video-renditions',
    { schema: { body: prepareRenditionSchema, response: { 202: z.object({ queued: z.literal(true) }) } } },
    async (request, reply) => {
      await deps.renditions.prepare(request.body.key);
      // this instance starts it now rather than at its next poll; the request does not wait for it
      deps.runJobs();
      return reply.status(202).send({ queued: true as const });
    },
  );
}
