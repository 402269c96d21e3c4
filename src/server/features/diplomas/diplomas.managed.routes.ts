import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  assignInputSchema,
  diplomaParamsSchema,
  diplomaUserPageSchema,
  diplomaUsersQuerySchema,
  diplomaUserParamsSchema,
  managedDiplomaListSchema,
  managedDiplomaSchema,
  okSchema,
} from '#shared/diplomas/diplomas.admin.schemas.ts';
import { requireUser } from '#server/plugins/authorization.ts';
import { registerManagedScope } from '#server/plugins/admin-scope.ts';
import type { ManagedDiplomasService } from './diplomas.managed.service.ts';
import type { DiplomaProgressService } from './diploma-progress.service.ts';
import {
  addedSchema,
  addUsersInputSchema,
  importInputSchema,
  managedImportPreviewSchema,
} from '#shared/classrooms/classrooms.schemas.ts';
import { diplomaProgressSchema, progressQuerySchema } from '#shared/progress/progress.schemas.ts';
import { importBodyLimit } from '#server/features/classrooms/classrooms.admin.routes.ts';
import { sendXlsx } from '#server/services/xlsx.ts';

/**
 * /administrar-diplomado's API under /api/diploma-admin, in its managed scope: the guard admits only
 * administrators of an active diploma (and Admins), and each diploma is then checked against the account that administers it.
 */
export async function registerManagedDiplomaRoutes(
  app: FastifyInstance,
  deps: { managed: ManagedDiplomasService; progress: DiplomaProgressService },
) {
  const service = deps.managed;
  const prefix = '/api/diploma-admin';
  await registerManagedScope(app, { prefix, isAdministrator: service.isAdministrator }, (scope) => {
    const routes = scope.withTypeProvider<ZodTypeProvider>();
    const user = async (request: Parameters<typeof requireUser>[0]) => requireUser(request);

    routes.get(`${prefix}/diplomas`, { schema: { response: { 200: managedDiplomaListSchema } } }, async (request) => ({
      items: await service.listOwn(await user(request)),
    }));
    routes.get(
      `${prefix}/diplomas/:id`,
      { schema: { params: diplomaParamsSchema, response: { 200: managedDiplomaSchema } } },
      async (request) => service.getOwn(await user(request), request.params.id),
    );
    routes.get(
      `${prefix}/diplomas/:id/users`,
      {
        schema: {
          params: diplomaParamsSchema,
          querystring: diplomaUsersQuerySchema,
          response: { 200: diplomaUserPageSchema },
        },
      },
      async (request) => service.listUsers(await user(request), request.params.id, request.query),
    );
    routes.put(
      `${prefix}/diplomas/:id/users/:userId`,
      { schema: { params: diplomaUserParamsSchema, body: assignInputSchema, response: { 200: okSchema } } },
      async (request) => {
        await service.setUserAssigned(
          await user(request),
          request.params.id,
          request.params.userId,
          request.body.assigned,
        );
        return { ok: true as const };
      },
    );
    routes.post(
      `${prefix}/diplomas/:id/import-preview`,
      {
        bodyLimit: importBodyLimit,
        schema: { params: diplomaParamsSchema, body: importInputSchema, response: { 200: managedImportPreviewSchema } },
        // each preview checks up to 20,000 addresses: bounded so it cannot be used to sweep for accounts
        config: { rateLimit: { max: 20, timeWindow: '10 minutes' } },
      },
      async (request) => service.previewImport(await user(request), request.params.id, request.body),
    );
    routes.post(
      `${prefix}/diplomas/:id/users`,
      { schema: { params: diplomaParamsSchema, body: addUsersInputSchema, response: { 200: addedSchema } } },
      async (request) => ({
        added: await service.addUsers(await user(request), request.params.id, request.body.userIds),
      }),
    );
    routes.get(
      `${prefix}/diplomas/:id/progress`,
      {
        schema: {
          params: diplomaParamsSchema,
          querystring: progressQuerySchema,
          response: { 200: diplomaProgressSchema },
        },
      },
      async (request) => {
        const diploma = await service.getOwn(await user(request), request.params.id);
        return deps.progress.page(diploma.id, request.query);
      },
    );
    routes.get(
      `${prefix}/diplomas/:id/progress.xlsx`,
      { schema: { params: diplomaParamsSchema, querystring: progressQuerySchema } },
      async (request, reply) => {
        const diploma = await service.getOwn(await user(request), request.params.id);
        return sendXlsx(reply, await deps.progress.exportXlsx(diploma.id, diploma.title, request.query));
      },
    );
  });
}
