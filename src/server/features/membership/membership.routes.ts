import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireUser } from '#server/plugins/authorization.ts';
import { membershipCheckResponseSchema, membershipResponseSchema } from '#shared/membership/membership.schemas.ts';
import type { MembershipService } from './membership.service.ts';

export function registerMembershipRoutes(app: FastifyInstance, deps: { membership: MembershipService }) {
  const { membership } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const schema = { response: { 200: membershipResponseSchema } };

  api.post('/api/membership/downgrade', { schema }, async (request) => ({
    membership: await membership.downgrade(await requireUser(request)),
  }));

  api.post('/api/membership/reactivate', { schema }, async (request) => ({
    membership: await membership.reactivate(await requireUser(request)),
  }));

  /** The startup check (checkAccountMembership): applies due scheduled changes of the signed-in member. */
  api.post(
    '/api/membership/check',
    { schema: { response: { 200: membershipCheckResponseSchema } } },
    async (request) => {
      const user = await requireUser(request);
      return { changed: await membership.applyDueChanges(user.id) };
    },
  );
}
