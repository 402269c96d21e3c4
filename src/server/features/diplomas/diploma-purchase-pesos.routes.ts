import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requirePremium } from '#server/plugins/authorization.ts';
import { memberDiplomaParamsSchema } from '#shared/diplomas/diplomas.schemas.ts';
import {
  cardCheckoutSchema,
  offlinePaymentSchema,
  startOfflinePaymentSchema,
} from '#shared/payments/mercadopago.schemas.ts';
import type { DiplomaPesosPurchaseService } from './diploma-purchase-pesos.service.ts';

/** A diploma paid in pesos at OXXO, by SPEI or by card (Mercado Pago). */
export function registerDiplomaPesosPurchaseRoutes(
  app: FastifyInstance,
  deps: { purchase: DiplomaPesosPurchaseService },
) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/diplomas/:id/purchase/pesos',
    {
      schema: {
        params: memberDiplomaParamsSchema,
        body: startOfflinePaymentSchema,
        response: { 200: offlinePaymentSchema },
      },
      config: { rateLimit: { max: 20, timeWindow: '10 minutes' } },
    },
    async (request) => deps.purchase.start(await requirePremium(request), request.params.id, request.body.method),
  );

  // by card on Checkout Pro's page: the answer is where to send the member
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/diplomas/:id/purchase/pesos/card',
    {
      schema: { params: memberDiplomaParamsSchema, response: { 200: cardCheckoutSchema } },
      config: { rateLimit: { max: 20, timeWindow: '10 minutes' } },
    },
    async (request) => deps.purchase.startCard(await requirePremium(request), request.params.id),
  );
}
