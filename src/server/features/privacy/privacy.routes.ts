import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAdmin, requireUser } from '#server/plugins/authorization.ts';
import {
  adminDeleteAccountSchema,
  dataExportStateSchema,
  deleteAccountSchema,
} from '#shared/privacy/privacy.schemas.ts';
import type { AccountsService } from '#server/features/accounts/accounts.service.ts';
import { forwardCookies } from '#server/features/accounts/auth-bridge.ts';
import type { JobRunner } from '#server/services/jobs.ts';
import type { PrivacyService } from './privacy.service.ts';

/** Runs the queued work now (the export, the mail) instead of at the next poll. */
function kick(app: FastifyInstance, jobs: Pick<JobRunner, 'runDue'>) {
  setImmediate(
    () => void jobs.runDue().catch((error: unknown) => app.log.error({ err: error }, 'privacy job pass failed')),
  );
}

const exportParams = z.object({ id: z.uuid() });

/** /perfil/privacidad: the member's own export and deletion. */
export function registerPrivacyRoutes(
  app: FastifyInstance,
  deps: { privacy: PrivacyService; accounts: AccountsService; jobs: Pick<JobRunner, 'runDue'> },
) {
  const { privacy, accounts, jobs } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get('/api/privacy/export', { schema: { response: { 200: dataExportStateSchema } } }, async (request, reply) => {
    const user = await requireUser(request);
    reply.header('cache-control', 'no-store');
    return { export: await privacy.latestExport(user.id) };
  });

  api.post(
    '/api/privacy/export',
    { schema: { response: { 202: dataExportStateSchema } }, config: { rateLimit: { max: 20, timeWindow: '1 hour' } } },
    async (request, reply) => {
      const user = await requireUser(request);
      const state = await privacy.requestExport(user.id);
      kick(app, jobs);
      return reply.status(202).send({ export: state });
    },
  );

  api.get('/api/privacy/export/:id/file', { schema: { params: exportParams } }, async (request, reply) => {
    const user = await requireUser(request);
    const file = await privacy.openExport(user, request.params.id);
    return reply
      .header('content-type', 'application/zip')
      .header('content-length', String(file.size))
      .header('content-disposition', `attachment; filename="${file.fileName}"`)
      .header('cache-control', 'private, no-store')
      .send(file.stream);
  });

  api.post(
    '/api/privacy/delete-account',
    { schema: { body: deleteAccountSchema }, config: { rateLimit: { max: 10, timeWindow: '15 minutes' } } },
    async (request, reply) => {
      const user = await requireUser(request);
      await privacy.deleteOwnAccount(user, request.body);
      kick(app, jobs);
      // every session row is gone already; sign-out makes the browser forget its cookies too
      const signedOut = await accounts.logout(request).catch(() => ({ setCookies: [] as string[] }));
      forwardCookies(reply, signedOut.setCookies);
      return reply.status(204).send();
    },
  );
}

/** The Admin's deletion on a member's request; registered inside the Admin scope. */
export function registerPrivacyAdminRoutes(
  app: FastifyInstance,
  deps: { privacy: PrivacyService; jobs: Pick<JobRunner, 'runDue'> },
) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.post(
    '/api/admin/users/:id/delete-data',
    { schema: { params: z.object({ id: z.string().min(1).max(100) }), body: adminDeleteAccountSchema } },
    async (request, reply) => {
      const actor = await requireAdmin(request);
      await deps.privacy.deleteOnRequest(request.params.id, actor, request.body);
      kick(app, deps.jobs);
      return reply.status(204).send();
    },
  );
}
