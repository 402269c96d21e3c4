import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { diplomaParamsSchema, okSchema } from '#shared/diplomas/diplomas.admin.schemas.ts';
import {
  adminCreditListSchema,
  creditOfferInputSchema,
  creditOfferResponseSchema,
  creditParamsSchema,
  creditRecordsQuerySchema,
  revokeCreditInputSchema,
} from '#shared/credits/credits.schemas.ts';
import { sendXlsx } from '#server/services/xlsx.ts';
import type { CreditsService } from './credits.service.ts';
import type { CreditRecordsService } from './credit-records.service.ts';

/** The console's continuing-education routes; registered in the Admin scope. */
export function registerCreditAdminRoutes(
  admin: FastifyInstance,
  deps: { credits: CreditsService; records: CreditRecordsService },
) {
  const { credits, records } = deps;
  const api = admin.withTypeProvider<ZodTypeProvider>();
  const byId = { params: diplomaParamsSchema };

  api.get(
    '/api/admin/diplomas/:id/credit',
    { schema: { ...byId, response: { 200: creditOfferResponseSchema } } },
    async (request) => ({ offer: await credits.getOffer(request.params.id) }),
  );
  api.put(
    '/api/admin/diplomas/:id/credit',
    { schema: { ...byId, body: creditOfferInputSchema, response: { 200: creditOfferResponseSchema } } },
    async (request) => ({ offer: await credits.saveOffer(request.params.id, request.body) }),
  );
  api.delete(
    '/api/admin/diplomas/:id/credit',
    { schema: { ...byId, response: { 200: okSchema } } },
    async (request) => {
      await credits.removeOffer(request.params.id);
      return { ok: true as const };
    },
  );
  api.get(
    '/api/admin/diplomas/:id/credits',
    { schema: { ...byId, response: { 200: adminCreditListSchema } } },
    async (request) => ({ items: await credits.listForDiploma(request.params.id) }),
  );
  api.get(
    '/api/admin/diplomas/:id/credit-records.xlsx',
    { schema: { ...byId, querystring: creditRecordsQuerySchema } },
    async (request, reply) =>
      sendXlsx(reply, await records.exportXlsx({ diplomaId: request.params.id }, request.query)),
  );
  api.post(
    '/api/admin/credits/:creditId/revoke',
    {
      schema: {
        params: creditParamsSchema,
        body: revokeCreditInputSchema,
        response: { 200: z.object({ ok: z.literal(true) }) },
      },
    },
    async (request) => {
      await credits.revoke(request.params.creditId, request.body);
      request.log.warn({ creditId: request.params.creditId }, 'credit revoked');
      return { ok: true as const };
    },
  );
}
