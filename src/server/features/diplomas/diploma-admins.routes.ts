import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  assignInputSchema,
  diplomaParamsSchema,
  diplomaUserListSchema,
  diplomaUserParamsSchema,
  managedDiplomaListSchema,
  managedDiplomaSchema,
  okSchema,
} from '#shared/diplomas/diplomas.admin.schemas.ts';
import { requireUser } from '#server/plugins/authorization.ts';
import { AppError } from '#shared/errors.ts';
import { isAdmin } from '#shared/accounts/accounts.rules.ts';
import type { DiplomaAdminsService } from './diploma-admins.service.ts';

/**
 * /administrar-diplomado's API under /api/diploma-admin, in a scope of its own: the guard admits only
 * administrators of an active diploma (and Admins), and each diploma is then checked against the account that administers it.
 */
export async function registerDiplomaAdminRoutes(app: FastifyInstance, deps: { diplomaAdmins: DiplomaAdminsService }) {
  const service = deps.diplomaAdmins;
  await app.register(async (scope) => {
    scope.addHook('onRequest', async (request) => {
      const signedIn = await requireUser(request);
      // Admins pass (the web lets them open /administrar-diplomado) but still see only diplomas they administer
      if (!isAdmin(signedIn) && !(await service.isAdministrator(signedIn.id))) throw new AppError('FORBIDDEN');
    });
    const routes = scope.withTypeProvider<ZodTypeProvider>();
    const user = async (request: Parameters<typeof requireUser>[0]) => requireUser(request);

    routes.get(
      '/api/diploma-admin/diplomas',
      { schema: { response: { 200: managedDiplomaListSchema } } },
      async (request) => ({
        items: await service.listOwn(await user(request)),
      }),
    );
    routes.get(
      '/api/diploma-admin/diplomas/:id',
      { schema: { params: diplomaParamsSchema, response: { 200: managedDiplomaSchema } } },
      async (request) => service.getOwn(await user(request), request.params.id),
    );
    routes.get(
      '/api/diploma-admin/diplomas/:id/users',
      { schema: { params: diplomaParamsSchema, response: { 200: diplomaUserListSchema } } },
      async (request) => ({
        items: await service.listUsers(await user(request), request.params.id),
      }),
    );
    routes.put(
      '/api/diploma-admin/diplomas/:id/users/:userId',
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
  });
}
