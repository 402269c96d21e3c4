import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { okSchema } from '#shared/diplomas/diplomas.admin.schemas.ts';
import {
  adminCreditListSchema,
  creditOfferInputSchema,
  creditOfferResponseSchema,
  creditRecordsQuerySchema,
  evaluationInputSchema,
  evaluationStateSchema,
  procedureCreditParamsSchema,
} from '#shared/credits/credits.schemas.ts';
import { requirePremium } from '#server/plugins/authorization.ts';
import { sendXlsx } from '#server/services/xlsx.ts';
import type { ProcedureCreditsService } from './procedure-credits.service.ts';
import type { CreditRecordsService } from './credit-records.service.ts';

/** The procedure page's evaluation: Premium members whom the page gives the full video (decision 049). */
export function registerProcedureCreditRoutes(
  app: FastifyInstance,
  deps: { procedureCredits: ProcedureCreditsService },
) {
  const { procedureCredits } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const params = procedureCreditParamsSchema;

  api.get(
    '/api/procedures/:id/evaluation',
    { schema: { params, response: { 200: evaluationStateSchema } } },
    async (request, reply) => {
      reply.headers({ 'cache-control': 'no-store' });
      return procedureCredits.evaluationState(await requirePremium(request), request.params.id);
    },
  );

  api.post(
    '/api/procedures/:id/evaluation',
    { schema: { params, body: evaluationInputSchema, response: { 200: evaluationStateSchema } } },
    async (request) =>
      procedureCredits.submitEvaluation(await requirePremium(request), request.params.id, request.body),
  );
}

/** The console's procedure credit routes; registered in the Admin scope. Revocation is the diploma's route. */
export function registerProcedureCreditAdminRoutes(
  admin: FastifyInstance,
  deps: { procedureCredits: ProcedureCreditsService; records: CreditRecordsService },
) {
  const { procedureCredits, records } = deps;
  const api = admin.withTypeProvider<ZodTypeProvider>();
  const byId = { params: procedureCreditParamsSchema };

  api.get(
    '/api/admin/procedures/:id/credit',
    { schema: { ...byId, response: { 200: creditOfferResponseSchema } } },
    async (request) => ({ offer: await procedureCredits.getOffer(request.params.id) }),
  );
  api.put(
    '/api/admin/procedures/:id/credit',
    { schema: { ...byId, body: creditOfferInputSchema, response: { 200: creditOfferResponseSchema } } },
    async (request) => ({ offer: await procedureCredits.saveOffer(request.params.id, request.body) }),
  );
  api.delete(
    '/api/admin/procedures/:id/credit',
    { schema: { ...byId, response: { 200: okSchema } } },
    async (request) => {
      await procedureCredits.removeOffer(request.params.id);
      return { ok: true as const };
    },
  );
  api.get(
    '/api/admin/procedures/:id/credits',
    { schema: { ...byId, response: { 200: adminCreditListSchema } } },
    async (request) => ({ items: await procedureCredits.listForProcedure(request.params.id) }),
  );
  api.get(
    '/api/admin/procedures/:id/credit-records.xlsx',
    { schema: { ...byId, querystring: creditRecordsQuerySchema } },
    async (request, reply) =>
      sendXlsx(reply, await records.exportXlsx({ procedureId: request.params.id }, request.query)),
  );
}
