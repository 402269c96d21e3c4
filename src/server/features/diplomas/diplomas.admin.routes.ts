import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  activeInputSchema,
  adminDiplomaListSchema,
  adminDiplomaSchema,
  adminDiplomaVideoListSchema,
  adminExamListSchema,
  assignInputSchema,
  diplomaActivationWarningsSchema,
  diplomaAdminCandidatesQuerySchema,
  diplomaAdminCandidatesSchema,
  diplomaExamParamsSchema,
  diplomaInputSchema,
  diplomaOptionsSchema,
  diplomaParamsSchema,
  diplomaPreviewSchema,
  diplomaStatisticsSchema,
  diplomaUserPageSchema,
  diplomaUsersQuerySchema,
  diplomaStatisticsQuerySchema,
  diplomaUserParamsSchema,
  diplomaVideoParamsSchema,
  examInputSchema,
  linkVideoInputSchema,
  moveInputSchema,
  okSchema,
  ownVideoInputSchema,
} from '#shared/diplomas/diplomas.admin.schemas.ts';
import { requireAdmin } from '#server/plugins/authorization.ts';
import type { DiplomasAdminService } from './diplomas.admin.service.ts';
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

const ok = { ok: true as const };

/** The console's diplomas API under /api/admin/diplomas; registered in the Admin scope. */
export function registerDiplomasAdminRoutes(
  app: FastifyInstance,
  deps: { diplomasAdmin: DiplomasAdminService; progress: DiplomaProgressService },
) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const service = deps.diplomasAdmin;
  const byId = { params: diplomaParamsSchema };
  const byVideo = { params: diplomaVideoParamsSchema };
  const byExam = { params: diplomaExamParamsSchema };

  routes.get('/api/admin/diplomas', { schema: { response: { 200: adminDiplomaListSchema } } }, async () => ({
    items: await service.list(),
  }));
  routes.get('/api/admin/diplomas/options', { schema: { response: { 200: diplomaOptionsSchema } } }, () =>
    service.options(),
  );
  routes.get(
    '/api/admin/diplomas/admin-candidates',
    { schema: { querystring: diplomaAdminCandidatesQuerySchema, response: { 200: diplomaAdminCandidatesSchema } } },
    (request) => service.adminCandidates(request.query.q),
  );
  routes.get('/api/admin/diplomas/:id', { schema: { ...byId, response: { 200: adminDiplomaSchema } } }, (request) =>
    service.get(request.params.id),
  );
  routes.put(
    '/api/admin/diplomas/:id',
    { schema: { ...byId, body: diplomaInputSchema, response: { 200: adminDiplomaSchema } } },
    (request) => service.save(request.params.id, request.body),
  );
  routes.put(
    '/api/admin/diplomas/:id/active',
    { schema: { ...byId, body: activeInputSchema, response: { 200: okSchema } } },
    async (request) => {
      await service.setActive(request.params.id, request.body.isActive);
      return ok;
    },
  );
  routes.get(
    '/api/admin/diplomas/:id/activation-warnings',
    { schema: { ...byId, response: { 200: diplomaActivationWarningsSchema } } },
    (request) => service.activationWarnings(request.params.id),
  );
  routes.delete('/api/admin/diplomas/:id', { schema: { ...byId, response: { 200: okSchema } } }, async (request) => {
    await service.remove(request.params.id);
    return ok;
  });

  routes.get(
    '/api/admin/diplomas/:id/videos',
    { schema: { ...byId, response: { 200: adminDiplomaVideoListSchema } } },
    async (request) => ({
      items: await service.listVideos(request.params.id),
    }),
  );
  routes.post(
    '/api/admin/diplomas/:id/videos',
    { schema: { ...byId, body: linkVideoInputSchema, response: { 200: okSchema } } },
    async (request) => {
      await service.linkVideo(request.params.id, request.body.procedureId);
      return ok;
    },
  );
  routes.put(
    '/api/admin/diplomas/:id/videos/:videoId',
    { schema: { ...byVideo, body: ownVideoInputSchema, response: { 200: okSchema } } },
    async (request) => {
      await service.saveOwnVideo(request.params.id, request.params.videoId, request.body);
      return ok;
    },
  );
  routes.put(
    '/api/admin/diplomas/:id/videos/:videoId/active',
    { schema: { ...byVideo, body: activeInputSchema, response: { 200: okSchema } } },
    async (request) => {
      await service.setVideoActive(request.params.id, request.params.videoId, request.body.isActive);
      return ok;
    },
  );
  routes.post(
    '/api/admin/diplomas/:id/videos/:videoId/move',
    { schema: { ...byVideo, body: moveInputSchema, response: { 200: okSchema } } },
    async (request) => {
      await service.moveVideo(request.params.id, request.params.videoId, request.body.direction);
      return ok;
    },
  );
  routes.delete(
    '/api/admin/diplomas/:id/videos/:videoId',
    { schema: { ...byVideo, response: { 200: okSchema } } },
    async (request) => {
      await service.removeVideo(request.params.id, request.params.videoId);
      return ok;
    },
  );

  routes.get(
    '/api/admin/diplomas/:id/exams',
    { schema: { ...byId, response: { 200: adminExamListSchema } } },
    async (request) => ({
      items: await service.listExams(request.params.id),
    }),
  );
  routes.put(
    '/api/admin/diplomas/:id/exams/:examId',
    { schema: { ...byExam, body: examInputSchema, response: { 200: okSchema } } },
    async (request) => {
      await service.saveExam(request.params.id, request.params.examId, request.body);
      return ok;
    },
  );
  routes.put(
    '/api/admin/diplomas/:id/exams/:examId/active',
    { schema: { ...byExam, body: activeInputSchema, response: { 200: okSchema } } },
    async (request) => {
      await service.setExamActive(request.params.id, request.params.examId, request.body.isActive);
      return ok;
    },
  );
  routes.delete(
    '/api/admin/diplomas/:id/exams/:examId',
    { schema: { ...byExam, response: { 200: okSchema } } },
    async (request) => {
      await service.removeExam(request.params.id, request.params.examId);
      return ok;
    },
  );

  routes.get(
    '/api/admin/diplomas/:id/users',
    { schema: { ...byId, querystring: diplomaUsersQuerySchema, response: { 200: diplomaUserPageSchema } } },
    (request) => service.listUsers(request.params.id, request.query),
  );
  routes.put(
    '/api/admin/diplomas/:id/users/:userId',
    { schema: { params: diplomaUserParamsSchema, body: assignInputSchema, response: { 200: okSchema } } },
    async (request) => {
      await service.setUserAssigned(request.params.id, request.params.userId, request.body.assigned);
      return ok;
    },
  );

  routes.get(
    '/api/admin/diplomas/:id/statistics',
    { schema: { ...byId, querystring: diplomaStatisticsQuerySchema, response: { 200: diplomaStatisticsSchema } } },
    (request) => service.statistics(request.params.id, request.query),
  );
  routes.get(
    '/api/admin/diplomas/:id/preview',
    { schema: { ...byId, response: { 200: diplomaPreviewSchema } } },
    async (request) => {
      const viewer = await requireAdmin(request);
      return service.preview(request.params.id, viewer.id);
    },
  );

  routes.post(
    '/api/admin/diplomas/:id/import-preview',
    {
      bodyLimit: importBodyLimit,
      schema: { ...byId, body: importInputSchema, response: { 200: managedImportPreviewSchema } },
    },
    (request) => service.previewImport(request.params.id, request.body, true),
  );
  routes.post(
    '/api/admin/diplomas/:id/users',
    { schema: { ...byId, body: addUsersInputSchema, response: { 200: addedSchema } } },
    async (request) => ({ added: await service.addUsers(request.params.id, request.body.userIds) }),
  );
  routes.get(
    '/api/admin/diplomas/:id/progress',
    { schema: { ...byId, querystring: progressQuerySchema, response: { 200: diplomaProgressSchema } } },
    async (request) => {
      await service.get(request.params.id);
      return deps.progress.page(request.params.id, request.query);
    },
  );
  routes.get(
    '/api/admin/diplomas/:id/progress.xlsx',
    { schema: { ...byId, querystring: progressQuerySchema } },
    async (request, reply) => {
      const { title } = await service.get(request.params.id);
      return sendXlsx(reply, await deps.progress.exportXlsx(request.params.id, title, request.query));
    },
  );
}
