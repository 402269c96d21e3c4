import type { FastifyInstance } from 'fastify';
import type { Database } from '#server/db/client.ts';
import { errorBody } from '#server/plugins/error-handler.ts';

export function registerHealthRoutes(app: FastifyInstance, deps: { database: Database }) {
  app.get('/api/health', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    try {
      await deps.database.ping();
      return { status: 'ok' };
    } catch (error) {
      request.log.warn({ err: error }, 'health check failed');
      return reply.status(503).send(errorBody('SERVICE_UNAVAILABLE'));
    }
  });
}
