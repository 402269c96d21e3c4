import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  catalogFiltersSchema,
  catalogPageSchema,
  catalogQuerySchema,
  procedureDetailSchema,
} from '#shared/catalog/catalog.schemas.ts';
import { AppError } from '#shared/errors.ts';
import type { ClassroomsService } from '#server/features/classrooms/classrooms.service.ts';
import type { AnalyticsService } from '#server/features/analytics/analytics.service.ts';
import type { AccountsService } from '#server/features/accounts/accounts.service.ts';
import { keptMarksName } from '#server/features/watching/watch-marks.service.ts';
import type { CatalogService } from './catalog.service.ts';

export function registerCatalogRoutes(
  app: FastifyInstance,
  deps: {
    catalog: CatalogService;
    classrooms: ClassroomsService;
    analytics: AnalyticsService;
    accounts: AccountsService;
  },
) {
  const { catalog, classrooms, analytics, accounts } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();

  // an Admin's save shows to guests at once here; other instances drop their cache on the database's notification
  app.addHook('onSend', async (request, _reply, payload) => {
    if (request.method !== 'GET' && request.url.startsWith('/api/admin/')) catalog.invalidate();
    return payload;
  });

  api.get(
    '/api/catalog/procedures',
    { schema: { querystring: catalogQuerySchema, response: { 200: catalogPageSchema } } },
    async (request) =>
      catalog.list(await request.currentUser(), request.query, (load) =>
        accounts.keptWithSession(request, keptMarksName, load),
      ),
  );

  api.get('/api/catalog/filters', { schema: { response: { 200: catalogFiltersSchema } } }, async () => {
    const [tags, openClassrooms] = await Promise.all([catalog.listTags(), classrooms.listOpen()]);
    return { tags, classrooms: openClassrooms };
  });

  api.get(
    '/api/catalog/procedures/:id',
    { schema: { params: z.object({ id: z.string() }), response: { 200: procedureDetailSchema } } },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return catalog.detail(await request.currentUser(), request.params.id);
    },
  );

  api.post(
    '/api/catalog/procedures/:id/guide-clicks',
    { schema: { params: z.object({ id: z.string() }) } },
    async (request, reply) => {
      const procedure = await catalog.find(request.params.id);
      if (!procedure) throw new AppError('NOT_FOUND');
      // once per visitor, guide and day: reloading or scripting the button does not inflate the statistic
      await analytics.recordOncePerDay(
        'FASCICULOS',
        { id: procedure.id, label: procedure.name },
        { user: await request.currentUser(), ip: request.ip },
      );
      return reply.status(204).send();
    },
  );
}
