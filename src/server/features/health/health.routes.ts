import type { FastifyInstance } from 'fastify';
import type { Database } from '#server/db/client.ts';
import type { FileStorage } from '#server/services/storage.ts';
import { errorBody, withErrorStatus } from '#server/plugins/error-handler.ts';

// a readiness probe must answer before the proxy gives up on it
const checkTimeoutMs = 3000;

function withinTimeout<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${checkTimeoutMs} ms`)), checkTimeoutMs);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * /api/health: the process answers and reaches its database (liveness, kept as it was).
 * /api/ready: this instance should get traffic: database and file storage answer and it is not shutting down.
 */
export function registerHealthRoutes(
  app: FastifyInstance,
  deps: { database: Database; storage: FileStorage; isClosing: () => boolean },
) {
  app.get('/api/health', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    try {
      await deps.database.ping();
      return { status: 'ok' };
    } catch (error) {
      request.log.warn({ err: error }, 'health check failed');
      return withErrorStatus(reply, 'SERVICE_UNAVAILABLE').send(errorBody('SERVICE_UNAVAILABLE'));
    }
  });

  app.get('/api/ready', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const [database, storage] = await Promise.allSettled([
      withinTimeout(deps.database.ping()),
      withinTimeout(deps.storage.check()),
    ]);
    const closing = deps.isClosing();
    const checks = {
      database: database.status === 'fulfilled' ? 'ok' : 'error',
      storage: storage.status === 'fulfilled' ? 'ok' : 'error',
      // a load balancer polling readiness stops sending new requests while in-flight ones finish
      shutdown: closing ? 'in progress' : 'no',
    } as const;
    if (checks.database === 'ok' && checks.storage === 'ok' && !closing) return { status: 'ready', checks };
    for (const outcome of [database, storage]) {
      if (outcome.status === 'rejected') request.log.warn({ err: outcome.reason }, 'readiness check failed');
    }
    return withErrorStatus(reply, 'SERVICE_UNAVAILABLE').send({ ...errorBody('SERVICE_UNAVAILABLE'), checks });
  });
}
