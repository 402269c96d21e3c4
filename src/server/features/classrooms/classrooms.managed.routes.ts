import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireUser } from '#server/plugins/authorization.ts';
import { registerManagedScope } from '#server/plugins/admin-scope.ts';
import {
  addedSchema,
  addUsersInputSchema,
  changeUsersInputSchema,
  classroomCandidatePageSchema,
  classroomCandidatesQuerySchema,
  classroomParamsSchema,
  importInputSchema,
  managedImportPreviewSchema,
  managedClassroomListSchema,
  managedClassroomSchema,
} from '#shared/classrooms/classrooms.schemas.ts';
import { okSchema } from '#shared/records.schemas.ts';
import type { ManagedClassroomsService } from './classrooms.managed.service.ts';
import type { ClassroomMembersService } from './classroom-members.service.ts';
import { importBodyLimit } from './classrooms.admin.routes.ts';
import { sendXlsx } from '#server/services/xlsx.ts';
import { classroomProgressSchema, progressQuerySchema } from '#shared/progress/progress.schemas.ts';
import type { ClassroomProgressService } from './classroom-progress.service.ts';

const managedPrefix = '/api/classroom-admin';

/**
 * Aula administrators' API, in its managed scope: the guard admits only administrators of an active aula,
 * and every route then checks that the aula in the URL is one of theirs. Only the users list can change here.
 */
export async function registerManagedClassroomRoutes(
  app: FastifyInstance,
  deps: { service: ManagedClassroomsService; members: ClassroomMembersService; progress: ClassroomProgressService },
) {
  const { service, members, progress } = deps;
  await registerManagedScope(app, { prefix: managedPrefix, isAdministrator: service.isAdministrator }, (scope) => {
    const routes = scope.withTypeProvider<ZodTypeProvider>();
    const byId = { params: classroomParamsSchema };
    const own = async (request: Parameters<typeof requireUser>[0], id: string) =>
      service.ownClassroom((await requireUser(request)).id, id);

    routes.get(
      `${managedPrefix}/classrooms`,
      { schema: { response: { 200: managedClassroomListSchema } } },
      async (request) => ({
        items: await service.list((await requireUser(request)).id),
      }),
    );
    routes.get(
      `${managedPrefix}/classrooms/:id`,
      { schema: { ...byId, response: { 200: managedClassroomSchema } } },
      async (request) => service.get((await requireUser(request)).id, request.params.id),
    );
    routes.get(
      `${managedPrefix}/classrooms/:id/candidates`,
      {
        schema: {
          ...byId,
          querystring: classroomCandidatesQuerySchema,
          response: { 200: classroomCandidatePageSchema },
        },
      },
      async (request) => {
        const { classroom, audience } = await own(request, request.params.id);
        return members.candidatePage(audience, classroom.id, request.query);
      },
    );
    routes.patch(
      `${managedPrefix}/classrooms/:id/users`,
      { schema: { ...byId, body: changeUsersInputSchema, response: { 200: okSchema } } },
      async (request) => {
        await own(request, request.params.id);
        await members.changeUsers(request.params.id, request.body);
        return { ok: true as const };
      },
    );
    routes.post(
      `${managedPrefix}/classrooms/:id/users`,
      { schema: { ...byId, body: addUsersInputSchema, response: { 200: addedSchema } } },
      async (request) => {
        await own(request, request.params.id);
        return { added: await members.addUsers(request.params.id, request.body.userIds) };
      },
    );
    routes.post(
      `${managedPrefix}/classrooms/:id/import-preview`,
      {
        bodyLimit: importBodyLimit,
        schema: { ...byId, body: importInputSchema, response: { 200: managedImportPreviewSchema } },
        // each preview checks up to 20,000 addresses: bounded so it cannot be used to sweep for accounts
        config: { rateLimit: { max: 20, timeWindow: '10 minutes' } },
      },
      async (request) => {
        const { audience } = await own(request, request.params.id);
        return members.managedPreview(audience, await members.memberIds(request.params.id), request.body);
      },
    );
    routes.get(`${managedPrefix}/classrooms/:id/users.xlsx`, { schema: byId }, async (request, reply) => {
      const { classroom } = await own(request, request.params.id);
      return sendXlsx(reply, await members.exportXlsx(classroom.id, classroom.title));
    });
    routes.get(
      `${managedPrefix}/classrooms/:id/progress`,
      { schema: { ...byId, querystring: progressQuerySchema, response: { 200: classroomProgressSchema } } },
      async (request) => {
        const { classroom } = await own(request, request.params.id);
        return progress.page(classroom.id, request.query);
      },
    );
    routes.get(
      `${managedPrefix}/classrooms/:id/progress.xlsx`,
      { schema: { ...byId, querystring: progressQuerySchema } },
      async (request, reply) => {
        const { classroom } = await own(request, request.params.id);
        return sendXlsx(reply, await progress.exportXlsx(classroom.id, classroom.title, request.query));
      },
    );
  });
}
