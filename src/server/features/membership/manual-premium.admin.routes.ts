import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  manualPremiumDowngradeSchema,
  manualPremiumListSchema,
  manualPremiumUpgradeSchema,
  userPickSchema,
} from '#shared/membership/manual-premium.schemas.ts';
import type { ManualPremiumService } from './manual-premium.admin.service.ts';

/** The console's manual Premium (spec 3); registered in the Admin scope. */
export function registerManualPremiumRoutes(app: FastifyInstance, deps: { manualPremium: ManualPremiumService }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get('/api/admin/manual-premium', { schema: { response: { 200: manualPremiumListSchema } } }, async () => ({
    users: await deps.manualPremium.list(),
  }));
  api.get(
    '/api/admin/manual-premium/candidates',
    {
      schema: {
        querystring: z.object({ q: z.string().trim().max(100).optional() }),
        response: { 200: userPickSchema },
      },
    },
    async (request) => ({ users: await deps.manualPremium.candidates(request.query.q) }),
  );
  api.post(
    '/api/admin/manual-premium/upgrade',
    { schema: { body: manualPremiumUpgradeSchema } },
    async (request, reply) => {
      await deps.manualPremium.upgrade(request.body.userId, request.body.period);
      return reply.status(204).send();
    },
  );
  api.post(
    '/api/admin/manual-premium/downgrade',
    { schema: { body: manualPremiumDowngradeSchema } },
    async (request, reply) => {
      await deps.manualPremium.downgrade(request.body.userId);
      return reply.status(204).send();
    },
  );
}
