import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { mxnPlanPricesSchema } from '#shared/payments/prices.schemas.ts';
import type { PricesService } from './prices.service.ts';

/** The console's prices in pesos; registered in the Admin scope. */
export function registerPricesAdminRoutes(app: FastifyInstance, deps: { prices: PricesService }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get('/api/admin/prices/mxn', { schema: { response: { 200: mxnPlanPricesSchema } } }, () =>
    deps.prices.mxnPlanPrices(),
  );
  api.put(
    '/api/admin/prices/mxn',
    { schema: { body: mxnPlanPricesSchema, response: { 200: mxnPlanPricesSchema } } },
    (request) => deps.prices.setMxnPlanPrices(request.body),
  );
}
