import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { backupRunSchema, backupsStatusSchema, startBackupResponseSchema } from '#shared/backups/backups.schemas.ts';
import { AppError } from '#shared/errors.ts';
import type { BackupsService } from './backups.service.ts';

/** The Admin console's backups screen (registered inside the Admin scope). */
export function registerBackupAdminRoutes(
  app: FastifyInstance,
  deps: { backups: BackupsService; runJobs: () => void },
) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.get('/api/admin/backups', { schema: { response: { 200: backupsStatusSchema } } }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return deps.backups.status();
  });
  typed.post(
    '/api/admin/backups',
    { schema: { response: { 202: startBackupResponseSchema } } },
    async (_request, reply) => {
      const queued = await deps.backups.request();
      // the runner picks it up now rather than at its next poll; the request does not wait for the backup
      if (queued) deps.runJobs();
      return reply.status(202).send({ queued });
    },
  );
}

export const backupCliHeader = 'x-cxvet-backup-token';

/** What `npm run backup` sends to a running server: derived from the session secret, which only the site's owner can read. */
export function backupCliToken(sessionSecret: string): string {
  return createHmac('sha256', sessionSecret).update('cxvet-backup-cli').digest('hex');
}

function isLoopback(address: string | undefined) {
  return address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1';
}

/**
 * `npm run backup` while the server holds the PGlite folder: the command asks the server, which takes the backup
 * between requests. Only from this machine and with the token; anything else is a plain 404.
 */
export function registerBackupCliRoute(app: FastifyInstance, deps: { backups: BackupsService; sessionSecret: string }) {
  const expected = Buffer.from(backupCliToken(deps.sessionSecret));
  app
    .withTypeProvider<ZodTypeProvider>()
    .post(
      '/api/internal/backup',
      { schema: { response: { 200: z.object({ run: backupRunSchema }) } } },
      async (request) => {
        const given = Buffer.from(String(request.headers[backupCliHeader] ?? ''));
        if (
          !isLoopback(request.socket.remoteAddress) ||
          given.length !== expected.length ||
          !timingSafeEqual(given, expected)
        ) {
          throw new AppError('NOT_FOUND');
        }
        return { run: await deps.backups.run('comando') };
      },
    );
}
