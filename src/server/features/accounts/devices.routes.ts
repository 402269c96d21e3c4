import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  closedSessionsSchema,
  deviceSessionListSchema,
  deviceSessionParamsSchema,
} from '#shared/accounts/devices.schemas.ts';
import { AppError } from '#shared/errors.ts';
import { requireUser } from '#server/plugins/authorization.ts';
import type { DevicesService } from './devices.service.ts';

async function requireSession(request: FastifyRequest): Promise<{ userId: string; sessionId: string }> {
  const user = await requireUser(request);
  const sessionId = await request.currentSessionId();
  if (!sessionId) throw new AppError('UNAUTHENTICATED');
  return { userId: user.id, sessionId };
}

/** '/perfil/dispositivos': the signed-in member's own sessions only. */
export function registerDeviceRoutes(app: FastifyInstance, deps: { devices: DevicesService }) {
  const { devices } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/api/account/sessions',
    { schema: { response: { 200: deviceSessionListSchema } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const { userId, sessionId } = await requireSession(request);
      return { sessions: await devices.list(userId, sessionId) };
    },
  );

  api.delete('/api/account/sessions/:id', { schema: { params: deviceSessionParamsSchema } }, async (request, reply) => {
    const { userId } = await requireSession(request);
    await devices.close(userId, request.params.id);
    return reply.status(204).send();
  });

  api.post(
    '/api/account/sessions/close-others',
    { schema: { response: { 200: closedSessionsSchema } } },
    async (request) => {
      const { userId, sessionId } = await requireSession(request);
      return { closed: await devices.closeOthers(userId, sessionId) };
    },
  );
}
