import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { okSchema } from '#shared/records.schemas.ts';
import {
  adminClassroomListSchema,
  adminClassroomSchema,
  adminCandidatesQuerySchema,
  adminImportInputSchema,
  classroomActiveInputSchema,
  classroomCandidatePageSchema,
  classroomInputSchema,
  classroomParamsSchema,
  classroomVideoOptionListSchema,
  importPreviewSchema,
} from '#shared/classrooms/classrooms.schemas.ts';
import { AppError } from '#shared/errors.ts';
import { messages } from '#shared/messages.ts';
import { organizations } from '#server/db/schema/index.ts';
import { eq } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import type { AdminClassroomsService } from './classrooms.admin.service.ts';
import type { ClassroomMembersService } from './classroom-members.service.ts';
import { sendXlsx } from '#server/services/xlsx.ts';
import { classroomProgressSchema, progressQuerySchema } from '#shared/progress/progress.schemas.ts';
import type { ClassroomProgressService } from './classroom-progress.service.ts';

export const importBodyLimit = 12 * 1024 * 1024;

/** The console's aulas under /api/admin/classrooms; registered in the Admin scope. */
export function registerAdminClassroomRoutes(
  app: FastifyInstance,
  deps: {
    db: Db;
    classrooms: AdminClassroomsService;
    members: ClassroomMembersService;
    progress: ClassroomProgressService;
  },
) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { classrooms, members, db, progress } = deps;
  const byId = { params: classroomParamsSchema };

  async function audienceOfOrganization(organizationId: string) {
    const [organization] = await db.select().from(organizations).where(eq(organizations.id, organizationId));
    if (!organization) throw new AppError('VALIDATION', { fields: { organizationId: messages.fieldRequired } });
    return { organizationType: organization.type, organizationId };
  }

  routes.get('/api/admin/classrooms', { schema: { response: { 200: adminClassroomListSchema } } }, async () => ({
    items: await classrooms.list(),
  }));
  routes.get(
    '/api/admin/classrooms/videos',
    { schema: { response: { 200: classroomVideoOptionListSchema } } },
    async () => ({
      items: await classrooms.videoOptions(),
    }),
  );
  routes.get(
    '/api/admin/classrooms/candidates',
    { schema: { querystring: adminCandidatesQuerySchema, response: { 200: classroomCandidatePageSchema } } },
    async (request) => {
      const { organizationId, classroomId, ...query } = request.query;
      return members.candidatePage(await audienceOfOrganization(organizationId), classroomId ?? null, query);
    },
  );
  routes.post(
    '/api/admin/classrooms/import-preview',
    { bodyLimit: importBodyLimit, schema: { body: adminImportInputSchema, response: { 200: importPreviewSchema } } },
    async (request) => {
      const { organizationId, classroomId, addedUserIds, removedUserIds, source } = request.body;
      const removed = new Set(removedUserIds);
      const saved = classroomId ? await members.memberIds(classroomId) : [];
      const current = [...saved.filter((userId) => !removed.has(userId)), ...addedUserIds];
      return members.preview(await audienceOfOrganization(organizationId), current, source);
    },
  );
  routes.get('/api/admin/classrooms/:id', { schema: { ...byId, response: { 200: adminClassroomSchema } } }, (request) =>
    classrooms.get(request.params.id),
  );
  routes.put(
    '/api/admin/classrooms/:id',
    { schema: { ...byId, body: classroomInputSchema, response: { 200: adminClassroomSchema } } },
    (request) => classrooms.save(request.params.id, request.body),
  );
  routes.put(
    '/api/admin/classrooms/:id/active',
    { schema: { ...byId, body: classroomActiveInputSchema, response: { 200: okSchema } } },
    async (request) => {
      await classrooms.setActive(request.params.id, request.body.isActive);
      return { ok: true as const };
    },
  );
  routes.delete('/api/admin/classrooms/:id', { schema: { ...byId, response: { 200: okSchema } } }, async (request) => {
    await classrooms.remove(request.params.id);
    return { ok: true as const };
  });
  routes.get('/api/admin/classrooms/:id/users.xlsx', { schema: byId }, async (request, reply) => {
    const { title } = await classrooms.audienceOf(request.params.id);
    return sendXlsx(reply, await members.exportXlsx(request.params.id, title));
  });
  routes.get(
    '/api/admin/classrooms/:id/progress',
    { schema: { ...byId, querystring: progressQuerySchema, response: { 200: classroomProgressSchema } } },
    async (request) => {
      await classrooms.audienceOf(request.params.id);
      return progress.page(request.params.id, request.query);
    },
  );
  routes.get(
    '/api/admin/classrooms/:id/progress.xlsx',
    { schema: { ...byId, querystring: progressQuerySchema } },
    async (request, reply) => {
      const { title } = await classrooms.audienceOf(request.params.id);
      return sendXlsx(reply, await progress.exportXlsx(request.params.id, title, request.query));
    },
  );
}
