import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUserSchema, loginSchema, meResponseSchema } from '#shared/accounts/accounts.schemas.ts';
import {
  passwordChangeSchema,
  passwordResetConfirmSchema,
  passwordResetRequestSchema,
} from '#shared/accounts/password.schemas.ts';
import { requireUser } from '#server/plugins/authorization.ts';
import type { AccountsService } from './accounts.service.ts';
import { forwardCookies } from './auth-bridge.ts';

export function registerAccountRoutes(app: FastifyInstance, deps: { accounts: AccountsService }) {
  const { accounts } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get('/api/me', { schema: { response: { 200: meResponseSchema } } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const user = await request.currentUser();
    return { user: user ? await accounts.toCurrentUser(user, request) : null };
  });

  api.post(
    '/api/account/login',
    { schema: { body: loginSchema, response: { 200: z.object({ user: currentUserSchema }) } } },
    async (request, reply) => {
      const { user, setCookies } = await accounts.login(request, request.body);
      forwardCookies(reply, setCookies);
      return { user };
    },
  );

  api.post('/api/account/logout', async (request, reply) => {
    const { setCookies } = await accounts.logout(request);
    forwardCookies(reply, setCookies);
    return reply.status(204).send();
  });

  api.post('/api/account/password-reset', { schema: { body: passwordResetRequestSchema } }, async (request, reply) => {
    await accounts.requestPasswordReset(request, request.body);
    return reply.status(204).send();
  });

  api.get(
    '/api/account/password-reset/:code',
    {
      schema: {
        params: z.object({ code: z.string().min(1).max(200) }),
        response: { 200: z.object({ valid: z.boolean() }) },
      },
    },
    async (request) => ({ valid: await accounts.isResetCodeValid(request.params.code) }),
  );

  api.post(
    '/api/account/password-reset/confirm',
    { schema: { body: passwordResetConfirmSchema } },
    async (request, reply) => {
      await accounts.resetPassword(request, { code: request.body.code, password: request.body.password });
      return reply.status(204).send();
    },
  );

  api.post('/api/account/password', { schema: { body: passwordChangeSchema } }, async (request, reply) => {
    const user = await requireUser(request);
    const { setCookies } = await accounts.changePassword(request, user.id, request.body);
    forwardCookies(reply, setCookies);
    return reply.status(204).send();
  });
}
