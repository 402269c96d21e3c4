import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '#shared/errors.ts';
import {
  continueWatchingSchema,
  favoritesSchema,
  procedureProgressSchema,
  savePositionSchema,
} from '#shared/watching/watching.schemas.ts';
import { requireUser } from '#server/plugins/authorization.ts';
import type { WatchingService } from './watching.service.ts';

const params = z.object({ id: z.string().max(100) });
const maxBeaconBytes = 1024;

/** Member-only routes: positions (also sent by `navigator.sendBeacon` as text/plain), 'Seguir viendo' and favourites. */
export async function registerWatchingRoutes(app: FastifyInstance, deps: { watching: WatchingService }) {
  const { watching } = deps;

  await app.register(async (scope) => {
    // sendBeacon posts a Blob; a text/plain one is sent by every browser without a preflight, so JSON arrives as text
    scope.addContentTypeParser(
      'text/plain',
      { parseAs: 'string', bodyLimit: maxBeaconBytes },
      (_request, body, done) => {
        try {
          done(null, JSON.parse(body as string));
        } catch {
          done(new AppError('VALIDATION'), undefined);
        }
      },
    );
    const api = scope.withTypeProvider<ZodTypeProvider>();

    api.post(
      '/api/watching/procedures/:id/position',
      { schema: { params, body: savePositionSchema }, bodyLimit: maxBeaconBytes },
      async (request, reply) => {
        await watching.savePosition(await requireUser(request), request.params.id, request.body);
        return reply.status(204).send();
      },
    );
  });

  const api = app.withTypeProvider<ZodTypeProvider>();
  const noStore = { 'cache-control': 'private, no-store' };

  api.get(
    '/api/watching/procedures/:id',
    { schema: { params, response: { 200: procedureProgressSchema } } },
    async (request, reply) => {
      reply.headers(noStore);
      return watching.progressOf(await requireUser(request), request.params.id);
    },
  );

  api.get(
    '/api/watching/continue',
    { schema: { response: { 200: continueWatchingSchema } } },
    async (request, reply) => {
      reply.headers(noStore);
      return watching.continueWatching(await requireUser(request));
    },
  );

  api.get('/api/favorites', { schema: { response: { 200: favoritesSchema } } }, async (request, reply) => {
    reply.headers(noStore);
    return watching.favorites(await requireUser(request));
  });

  api.put('/api/favorites/:id', { schema: { params } }, async (request, reply) => {
    await watching.addFavorite(await requireUser(request), request.params.id);
    return reply.status(204).send();
  });

  api.delete('/api/favorites/:id', { schema: { params } }, async (request, reply) => {
    await watching.removeFavorite(await requireUser(request), request.params.id);
    return reply.status(204).send();
  });
}
