import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { tokenReplacedEvent, viewingTokenSchema } from '#shared/viewing/viewing.schemas.ts';
import { requireUser } from '#server/plugins/authorization.ts';
import type { ViewingService } from './viewing.service.ts';
import { createStreamRegistry, type StreamRegistry } from './stream-limits.ts';

const heartbeatMs = 25_000;

// an evicted stream's browser waits this long before reconnecting, so two crowded tabs do not take turns every few seconds
const evictedRetryMs = 60_000;

// on shutdown the browser reconnects soon, through the proxy, to an instance that stays
const shutdownRetryMs = 1_000;

/** Ends a stream when its session is signed out from another device ('Mis dispositivos'). */
type SessionEnds = { watchEnd(sessionId: string, onEnded: () => void): Promise<() => void> };

export function registerViewingRoutes(
  app: FastifyInstance,
  deps: { viewing: ViewingService; streams?: StreamRegistry; sessions?: SessionEnds },
) {
  const { viewing } = deps;
  const streams = deps.streams ?? createStreamRegistry();
  // open event streams never end by themselves: a shutdown ends them so the server can close
  const open = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const end of open) end();
  });
  const api = app.withTypeProvider<ZodTypeProvider>();

  // opening a procedure (or pressing 'Usar en este dispositivo') takes the account's single viewing slot
  api.post('/api/viewing/token', { schema: { response: { 200: viewingTokenSchema } } }, async (request) => {
    const user = await requireUser(request);
    return { token: await viewing.issue(user.id, await request.currentSessionId()) };
  });

  api.get(
    '/api/viewing/events',
    { schema: { querystring: z.object({ token: z.string().min(1).max(100) }) } },
    async (request, reply) => {
      const user = await requireUser(request);
      const sessionId = await request.currentSessionId();
      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      raw.write('retry: 5000\n\n');
      const heartbeat = setInterval(() => raw.write(': ping\n\n'), heartbeatMs);
      const unregister = streams.open(user.id, request.ip, () => {
        raw.write(`retry: ${evictedRetryMs}\n\n`);
        raw.end();
      });
      const stop = await viewing.watch(user.id, request.query.token, () => {
        raw.write(`event: ${tokenReplacedEvent}\ndata: {}\n\n`);
      });
      const stopSessionWatch =
        sessionId && deps.sessions ? await deps.sessions.watchEnd(sessionId, () => raw.end()) : () => {};
      const endForShutdown = () => {
        raw.write(`retry: ${shutdownRetryMs}\n\n`);
        raw.end();
      };
      open.add(endForShutdown);
      request.raw.on('close', () => {
        open.delete(endForShutdown);
        clearInterval(heartbeat);
        unregister();
        stop();
        stopSessionWatch();
      });
    },
  );
}
