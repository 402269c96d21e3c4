import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminUserInputSchema,
  adminUserSchema,
  adminUsersPageSchema,
  adminUsersQuerySchema,
} from '#shared/admin-people/users.schemas.ts';
import {
  manualPremiumDowngradeSchema,
  manualPremiumListSchema,
  manualPremiumUpgradeSchema,
  userPickSchema,
} from '#shared/admin-people/manual-premium.schemas.ts';
import { statisticsQuerySchema, statisticsSchema } from '#shared/admin-people/statistics.schemas.ts';
import { bulkMailCreatedSchema, bulkMailSchema } from '#shared/admin-people/mailing.schemas.ts';
import type { Db } from '#server/db/client.ts';
import { requireAdmin } from '#server/plugins/authorization.ts';
import type { AdminUsersService } from './users.service.ts';
import type { ManualPremiumService } from './manual-premium.service.ts';
import type { StatisticsService } from './statistics.service.ts';
import type { MailingService } from './mailing.service.ts';
import { streamUsersReport } from './users-report.ts';

const idParams = z.object({ id: z.string().min(1).max(100) });

/** The people half of the console (spec 2 users, report, mailing, statistics; spec 3 manual Premium); registered in the Admin scope. */
export function registerAdminPeopleRoutes(
  app: FastifyInstance,
  deps: { db: Db; users: AdminUsersService; manualPremium: ManualPremiumService; statistics: StatisticsService; mailing: MailingService },
) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get('/api/admin/users', { schema: { querystring: adminUsersQuerySchema, response: { 200: adminUsersPageSchema } } }, async (request) =>
    deps.users.list(request.query),
  );
  api.get('/api/admin/users/report.xlsx', async (request, reply) => {
    const actor = await requireAdmin(request);
    const { fileName, stream } = streamUsersReport({ db: deps.db, requestedBy: actor.id });
    reply
      .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .header('content-disposition', `attachment; filename="${fileName}"`)
      .header('cache-control', 'private, no-store');
    return reply.send(stream);
  });
  api.get('/api/admin/users/:id', { schema: { params: idParams, response: { 200: adminUserSchema } } }, async (request) =>
    deps.users.get(request.params.id),
  );
  api.post('/api/admin/users', { schema: { body: adminUserInputSchema, response: { 201: adminUserSchema } } }, async (request, reply) =>
    reply.status(201).send(await deps.users.create(request.body)),
  );
  api.put('/api/admin/users/:id', { schema: { params: idParams, body: adminUserInputSchema, response: { 200: adminUserSchema } } }, async (request) =>
    deps.users.update(request.params.id, request.body),
  );
  api.delete('/api/admin/users/:id', { schema: { params: idParams } }, async (request, reply) => {
    const actor = await requireAdmin(request);
    await deps.users.remove(request.params.id, actor.id);
    return reply.status(204).send();
  });

  api.get('/api/admin/manual-premium', { schema: { response: { 200: manualPremiumListSchema } } }, async () => ({
    users: await deps.manualPremium.list(),
  }));
  api.get(
    '/api/admin/manual-premium/candidates',
    { schema: { querystring: z.object({ q: z.string().trim().max(100).optional() }), response: { 200: userPickSchema } } },
    async (request) => ({ users: await deps.manualPremium.candidates(request.query.q) }),
  );
  api.post('/api/admin/manual-premium/upgrade', { schema: { body: manualPremiumUpgradeSchema } }, async (request, reply) => {
    await deps.manualPremium.upgrade(request.body.userId, request.body.period);
    return reply.status(204).send();
  });
  api.post('/api/admin/manual-premium/downgrade', { schema: { body: manualPremiumDowngradeSchema } }, async (request, reply) => {
    await deps.manualPremium.downgrade(request.body.userId);
    return reply.status(204).send();
  });

  api.get('/api/admin/statistics', { schema: { querystring: statisticsQuerySchema, response: { 200: statisticsSchema } } }, async (request) =>
    deps.statistics.get(request.query),
  );

  api.post('/api/admin/mailing', { schema: { body: bulkMailSchema, response: { 202: bulkMailCreatedSchema } } }, async (request, reply) => {
    const actor = await requireAdmin(request);
    return reply.status(202).send(await deps.mailing.create(request.body, actor.id));
  });
}

/** The link in each promotional mail: public, the signed token identifies the member. */
export function registerMailingPublicRoutes(app: FastifyInstance, deps: { mailing: MailingService }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const query = z.object({ u: z.string().max(100), t: z.string().max(100) });
  void app.register(async (scope) => {
    // RFC 8058 one-click: the mail client POSTs 'List-Unsubscribe=One-Click' to the link; the signed query decides
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, _body, done) => done(null, {}));
    scope.withTypeProvider<ZodTypeProvider>().post('/api/mailing/unsubscribe', { schema: { querystring: query } }, async (request, reply) => {
      const done = await deps.mailing.unsubscribe(request.query.u, request.query.t);
      return reply.status(done ? 200 : 400).send({ unsubscribed: done });
    });
  });
  api.get(
    '/api/mailing/unsubscribe',
    { schema: { querystring: z.object({ u: z.string().max(100), t: z.string().max(100) }) } },
    async (request, reply) => {
      const done = await deps.mailing.unsubscribe(request.query.u, request.query.t);
      reply.status(done ? 200 : 400).type('text/html; charset=utf-8');
      return `<!doctype html><html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>CxVet</title></head><body style="font-family:sans-serif;padding:24px"><h1>CxVet</h1><p>${
        done ? 'Listo: ya no recibirás correos promocionales de CxVet.' : 'El enlace no es válido.'
      }</p><p><a href="/">Ir a CxVet</a></p></body></html>`;
    },
  );
}
