import type { FastifyInstance } from 'fastify';
import rangeParser from 'range-parser';
import mime from 'mime-types';
import { AppError } from '#shared/errors.ts';
import type { FileStorage } from '#server/services/storage.ts';
import { isSafeKey } from '#server/services/storage.ts';
import type { MediaService } from './media.service.ts';

/** Serves stored files with single-range support after the per-file permission check. */
export function registerMediaRoutes(app: FastifyInstance, deps: { media: MediaService; storage: FileStorage }) {
  const { media, storage } = deps;

  app.get<{ Params: { '*': string }; Querystring: { vt?: string } }>('/media/*', async (request, reply) => {
    const key = request.params['*'];
    if (!isSafeKey(key)) throw new AppError('NOT_FOUND');
    const viewingToken = typeof request.query.vt === 'string' ? request.query.vt : undefined;
    const visibility = await media.authorize(key, await request.currentUser(), viewingToken);
    const file = await storage.stat(key);
    if (!file) throw new AppError('NOT_FOUND');

    reply
      .header('content-type', mime.lookup(key) || 'application/octet-stream')
      .header('x-content-type-options', 'nosniff')
      .header('accept-ranges', 'bytes')
      .header('cache-control', visibility === 'public' ? 'public, max-age=3600' : 'private, no-store');

    const rangeHeader = request.headers.range;
    if (rangeHeader && file.size > 0) {
      const ranges = rangeParser(file.size, rangeHeader, { combine: true });
      if (ranges === -1 || (Array.isArray(ranges) && ranges.length > 1)) {
        // many-range requests are refused: they cost far more to serve than to send
        reply.header('content-range', `bytes */${file.size}`);
        throw new AppError('RANGE_NOT_SATISFIABLE');
      }
      if (Array.isArray(ranges) && ranges.type === 'bytes') {
        const [range] = ranges;
        if (range) {
          reply
            .status(206)
            .header('content-range', `bytes ${range.start}-${range.end}/${file.size}`)
            .header('content-length', String(range.end - range.start + 1));
          return reply.send(storage.read(key, range));
        }
      }
    }
    reply.header('content-length', String(file.size));
    return reply.send(storage.read(key));
  });
}
