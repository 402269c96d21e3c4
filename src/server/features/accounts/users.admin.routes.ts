import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminUserInputSchema,
  adminUserSchema,
  adminUsersPageSchema,
  adminUsersQuerySchema,
} from '#shared/accounts/users.admin.schemas.ts';
import type { Db } from '#server/db/client.ts';
import { requireAdmin } from '#server/plugins/authorization.ts';
import type { AdminUsersService } from './users.admin.service.ts';
import { streamUsersReport } from './users-report.ts';
import { sendXlsx } from '#server/services/xlsx.ts';

const idParams = z.object({ id: z.string().min(1).max(100) });

/** The console's users and the users report (spec 2); registered in the Admin scope. */
export function registerAdminUserRoutes(
  app: FastifyInstance,
  deps: { db: Db; users: AdminUsersService; timeZone: string },
) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/api/admin/users',
    { schema: { querystring: adminUsersQuerySchema, response: { 200: adminUsersPageSchema } } },
    async (request) => deps.users.list(request.query),
  );
  api.get('/api/admin/users/report.xlsx', async (request, reply) => {
    const actor = await requireAdmin(request);
    return sendXlsx(reply, streamUsersReport({ db: deps.db, requestedBy: actor.id, timeZone: deps.timeZone }));
  });
  api.get(
    '/api/admin/users/:id',
    { schema: { params: idParams, response: { 200: adminUserSchema } } },
    async (request) => deps.users.get(request.params.id),
  );
  api.post(
    '/api/admin/users',
    { schema: { body: adminUserInputSchema, response: { 201: adminUserSchema } } },
    async (request, reply) => reply.status(201).send(await deps.users.create(request.body)),
  );
  api.put(
    '/api/admin/users/:id',
    { schema: { params: idParams, body: adminUserInputSchema, response: { 200: adminUserSchema } } },
    async (request) => deps.users.update(request.params.id, request.body),
  );
  api.delete('/api/admin/users/:id', { schema: { params: idParams } }, async (request, reply) => {
    const actor = await requireAdmin(request);
    await deps.users.remove(request.params.id, actor.id);
    return reply.status(204).send();
  });
}
