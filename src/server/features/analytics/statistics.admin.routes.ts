import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { statisticsQuerySchema, statisticsSchema } from '#shared/analytics/statistics.schemas.ts';
import type { StatisticsService } from './statistics.admin.service.ts';

/** The console's statistics (spec 2); registered in the Admin scope. */
export function registerStatisticsRoutes(app: FastifyInstance, deps: { statistics: StatisticsService }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/api/admin/statistics',
    { schema: { querystring: statisticsQuerySchema, response: { 200: statisticsSchema } } },
    async (request) => deps.statistics.get(request.query),
  );
}
