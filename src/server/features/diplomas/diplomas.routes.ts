import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requirePremium } from '#server/plugins/authorization.ts';
import { savePositionSchema } from '#shared/watching/watching.schemas.ts';
import {
  confirmPurchaseInputSchema,
  courseSchema,
  diplomaSalesPageSchema,
  enrollmentSchema,
  examResultSchema,
  examViewSchema,
  memberDiplomaListSchema,
  memberDiplomaParamsSchema,
  memberExamParamsSchema,
  memberVideoParamsSchema,
  purchaseErrorInputSchema,
  saveAnswerInputSchema,
  startPurchaseResponseSchema,
  submitExamInputSchema,
  videoCompletionSchema,
  videoWatchingSchema,
} from '#shared/diplomas/diplomas.schemas.ts';
import type { DiplomasService } from './diplomas.service.ts';
import type { CertificatesService } from './certificates.service.ts';
import type { DiplomaPurchaseService } from './diploma-purchase.service.ts';

const okSchema = z.object({ ok: z.literal(true) });

/** Member routes: Premium (or active Legacy) and Admins only; Basic members get 403. */
export async function registerDiplomaRoutes(
  app: FastifyInstance,
  deps: { diplomas: DiplomasService; certificates: CertificatesService; purchase: DiplomaPurchaseService },
) {
  const { diplomas, certificates, purchase } = deps;
  await app.register(async (scope) => {
    scope.addHook('onRequest', async (request, reply) => {
      await requirePremium(request);
      reply.header('cache-control', 'no-store');
    });
    const api = scope.withTypeProvider<ZodTypeProvider>();

    api.get('/api/diplomas', { schema: { response: { 200: memberDiplomaListSchema } } }, async (request) => ({
      items: await diplomas.listForMember(await requirePremium(request)),
    }));

    api.get(
      '/api/diplomas/:id/sales-page',
      { schema: { params: memberDiplomaParamsSchema, response: { 200: diplomaSalesPageSchema } } },
      async (request) => diplomas.salesPage(await requirePremium(request), request.params.id),
    );

    api.get(
      '/api/diplomas/:id/course',
      { schema: { params: memberDiplomaParamsSchema, response: { 200: courseSchema } } },
      async (request) => diplomas.course(await requirePremium(request), request.params.id),
    );

    api.post(
      '/api/diplomas/:id/videos/:videoId/complete',
      { schema: { params: memberVideoParamsSchema, response: { 200: videoCompletionSchema } } },
      async (request) =>
        diplomas.completeVideo(await requirePremium(request), request.params.id, request.params.videoId),
    );

    api.post(
      '/api/diplomas/:id/videos/:videoId/position',
      {
        schema: { params: memberVideoParamsSchema, body: savePositionSchema, response: { 200: videoWatchingSchema } },
        bodyLimit: 1024,
      },
      async (request) =>
        diplomas.savePosition(await requirePremium(request), request.params.id, request.params.videoId, request.body),
    );

    api.get(
      '/api/diplomas/:id/exams/:examId',
      { schema: { params: memberExamParamsSchema, response: { 200: examViewSchema } } },
      async (request) => diplomas.exam(await requirePremium(request), request.params.id, request.params.examId),
    );

    api.put(
      '/api/diplomas/:id/exams/:examId/answers',
      { schema: { params: memberExamParamsSchema, body: saveAnswerInputSchema, response: { 200: okSchema } } },
      async (request) =>
        diplomas.saveAnswer(await requirePremium(request), request.params.id, request.params.examId, request.body),
    );

    api.post(
      '/api/diplomas/:id/exams/:examId/submit',
      { schema: { params: memberExamParamsSchema, body: submitExamInputSchema, response: { 200: examResultSchema } } },
      async (request) =>
        diplomas.submitExam(await requirePremium(request), request.params.id, request.params.examId, request.body),
    );

    api.post(
      '/api/diplomas/:id/exams/:examId/retake',
      { schema: { params: memberExamParamsSchema, response: { 200: okSchema } } },
      async (request) => diplomas.retakeExam(await requirePremium(request), request.params.id, request.params.examId),
    );

    api.get(
      '/api/diplomas/:id/certificate.pdf',
      { schema: { params: memberDiplomaParamsSchema } },
      async (request, reply) => {
        const { bytes, fileName } = await certificates.download(await requirePremium(request), request.params.id);
        return reply
          .header('content-type', 'application/pdf')
          .header('content-disposition', `attachment; filename="${fileName}"`)
          .send(Buffer.from(bytes));
      },
    );

    api.get(
      '/api/diplomas/:id/enrollment',
      { schema: { params: memberDiplomaParamsSchema, response: { 200: enrollmentSchema } } },
      async (request) => ({
        isEnrolled: await diplomas.isEnrolled((await requirePremium(request)).id, request.params.id),
      }),
    );

    api.post(
      '/api/diplomas/:id/purchase',
      {
        schema: { params: memberDiplomaParamsSchema, response: { 200: startPurchaseResponseSchema } },
        config: { rateLimit: { max: 20, timeWindow: '10 minutes' } },
      },
      async (request) => purchase.start(await requirePremium(request), request.params.id),
    );

    api.post(
      '/api/diplomas/:id/purchase/confirm',
      {
        schema: {
          params: memberDiplomaParamsSchema,
          body: confirmPurchaseInputSchema,
          response: { 200: enrollmentSchema },
        },
      },
      async (request) => purchase.confirm(await requirePremium(request), request.params.id, request.body.orderId),
    );

    api.post(
      '/api/diplomas/:id/purchase/error',
      {
        schema: { params: memberDiplomaParamsSchema, body: purchaseErrorInputSchema, response: { 200: okSchema } },
        config: { rateLimit: { max: 20, timeWindow: '10 minutes' } },
      },
      async (request) => purchase.recordClientError(await requirePremium(request), request.params.id, request.body),
    );
  });
}
