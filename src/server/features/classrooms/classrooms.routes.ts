import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireUser } from '#server/plugins/authorization.ts';
import {
  classroomParamsSchema,
  expiryWarningListSchema,
  myClassroomListSchema,
  myClassroomSchema,
} from '#shared/classrooms/classrooms.schemas.ts';
import type { ClassroomsService } from './classrooms.service.ts';

/** My Aulas (any signed-in account) and the expiry warnings. */
export function registerClassroomRoutes(app: FastifyInstance, deps: { classrooms: ClassroomsService }) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { classrooms } = deps;

  routes.get('/api/classrooms', { schema: { response: { 200: myClassroomListSchema } } }, async (request) => ({
    items: await classrooms.listMine(await requireUser(request)),
  }));
  routes.get(
    '/api/classrooms/:id',
    { schema: { params: classroomParamsSchema, response: { 200: myClassroomSchema } } },
    async (request) => classrooms.getMine(await requireUser(request), request.params.id),
  );
  // POST: it records the warnings it returns, so each shows once
  routes.post(
    '/api/classrooms/expiry-warnings',
    { schema: { response: { 200: expiryWarningListSchema } } },
    async (request) => ({
      items: await classrooms.claimExpiryWarnings(await requireUser(request)),
    }),
  );
}
