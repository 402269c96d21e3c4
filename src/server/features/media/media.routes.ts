import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import rangeParser from 'range-parser';
import mime from 'mime-types';
import fresh from 'fresh';
import { AppError } from '#shared/errors.ts';
import type { FileStorage, OpenedFile, StoredFile } from '#server/services/storage.ts';
import { isSafeKey } from '#server/services/storage.ts';
import { internalMediaPath } from '#server/services/media-url.ts';
import {
  isPictureKey,
  isPictureVariantWidth,
  pictureVariantWidths,
  type PictureVariantWidth,
} from '#shared/media/picture-variants.ts';
import type { MediaService, MediaVisibility } from './media.service.ts';
import { createPictureVariants } from './picture-variants.ts';
import { createFileBuffers, sendFileRange } from './file-buffers.ts';
import { createHandOverLane, type HandOverLane } from './media-hand-over-lane.ts';
import type { SetSecurityHeaders } from '#server/plugins/security-headers.ts';

// stored files are written once under a new key and never changed in place: size and time identify a version
function validators(file: StoredFile): { etag: string; lastModified: string | undefined } {
  const time = file.modifiedAt?.getTime() ?? 0;
  return { etag: `"${file.size.toString(16)}-${time.toString(16)}"`, lastModified: file.modifiedAt?.toUTCString() };
}

/** If-Range: a range of a changed file would splice two versions, so the whole new file is sent instead. */
function rangeStillValid(ifRange: string | undefined, etag: string, modifiedAt: Date | undefined): boolean {
  if (!ifRange) return true;
  if (ifRange.startsWith('"') || ifRange.startsWith('W/')) return ifRange === etag;
  const since = Date.parse(ifRange);
  return modifiedAt !== undefined && !Number.isNaN(since) && Math.floor(modifiedAt.getTime() / 1000) * 1000 <= since;
}

/**
 * If-Match, then If-Unmodified-Since (RFC 9110 §13.2.2): a client that holds another version must not get this one.
 * If-Match compares strongly, so a weak tag never matches.
 */
function preconditionFailed(
  headers: { 'if-match'?: string; 'if-unmodified-since'?: string },
  etag: string,
  modifiedAt: Date | undefined,
): boolean {
  const ifMatch = headers['if-match'];
  if (ifMatch !== undefined) {
    const tags = ifMatch.split(',').map((tag) => tag.trim());
    return !tags.includes('*') && !tags.includes(etag);
  }
  const since = headers['if-unmodified-since'] ? Date.parse(headers['if-unmodified-since']) : Number.NaN;
  return !Number.isNaN(since) && modifiedAt !== undefined && Math.floor(modifiedAt.getTime() / 1000) * 1000 > since;
}

/** A suffix longer than the file asks for all of it (RFC 9110 §14.1.2), which range-parser calls unsatisfiable. */
const clampSuffixes = (rangeHeader: string, size: number) =>
  rangeHeader.replace(
    /([=,]\s*)-(\d+)/g,
    (_, before: string, length: string) => `${before}-${Math.min(Number(length), size)}`,
  );

async function readText(storage: FileStorage, key: string): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of storage.read(key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Relative URIs drop the playlist's query: each one gets the viewing token, so segments pass the same check. */
function withViewingToken(playlist: string, viewingToken: string | undefined): string {
  if (!viewingToken) return playlist;
  const query = `?vt=${encodeURIComponent(viewingToken)}`;
  return playlist
    .split('\n')
    .map((line) => (line.trim() && !line.startsWith('#') ? `${line.trim()}${query}` : line))
    .join('\n');
}

// a held-open file is sent 1 MiB at a time through reused buffers (a player's usual range is one of them)
const fileBufferBytes = 1024 * 1024;
const idleFileBuffers = 16;

/** Signed URLs of an object store: public files (previews, demos) an hour, or longer when private ones get longer. */
export const publicSignedUrlSeconds = (privateSeconds: number) => Math.max(3600, privateSeconds);

// subtitles and the video ladders stay on our origin: a <track> or hls.js fetching from another origin needs CORS on
// the bucket; playlists are rewritten with the viewing token, and segments are a few seconds each
const servedThroughUs = (key: string) => key.endsWith('.vtt') || key.startsWith('hls/');
// ladder playlists are rewritten per viewer (the viewing token in every URI): always sent by us
const isPlaylist = (key: string) => key.startsWith('hls/') && key.endsWith('.m3u8');
const widthList = `${pictureVariantWidths.slice(0, -1).join(', ')} o ${pictureVariantWidths.at(-1)}`;

/** The `w` of a picture's narrower copy (pictureVariantWidths only); absent means the original. */
function requestedWidth(key: string, w: unknown): PictureVariantWidth | null {
  if (w === undefined) return null;
  if (!isPictureKey(key)) {
    throw new AppError('VALIDATION', {
      fields: { w: 'Solo las imágenes (JPG, PNG o WebP) se sirven en otros anchos.' },
    });
  }
  const width = typeof w === 'string' && /^\d{1,4}$/.test(w) ? Number(w) : NaN;
  if (!isPictureVariantWidth(width))
    throw new AppError('VALIDATION', { fields: { w: `Ancho no disponible: usa ${widthList} píxeles.` } });
  return width;
}

const contentTypeOf = (key: string) =>
  key.endsWith('.ts') && key.startsWith('hls/') ? 'video/mp2t' : mime.lookup(key) || 'application/octet-stream';

/** A permitted file handed to nginx: its Content-Type and Cache-Control, which nginx keeps, and where nginx finds it. */
function handOverHeaders(key: string, visibility: MediaVisibility, prefix: string): Record<string, string> {
  return {
    'content-type': contentTypeOf(key),
    'x-content-type-options': 'nosniff',
    'cache-control': visibility === 'public' ? 'public, max-age=3600' : 'private, no-store',
    'x-accel-redirect': internalMediaPath(prefix, key),
  };
}

/**
 * Serves stored files after the per-file permission check: from the local store with single-range support and
 * revalidation (304); from an object store by a redirect to a short-lived signed URL, so video bytes never pass
 * through this server (docs/decisions/015-object-storage.md); from the local store behind nginx, with
 * MEDIA_ACCEL_REDIRECT, by an X-Accel-Redirect that nginx answers from the file (decision 019).
 */
export function registerMediaRoutes(
  app: FastifyInstance,
  deps: {
    media: MediaService;
    storage: FileStorage;
    /** Private files' URLs (S3_SIGNED_URL_SECONDS). */
    signedUrlSeconds: number;
    /** MEDIA_ACCEL_REDIRECT: nginx's internal prefix for the local upload folder. */
    accelRedirect?: string;
    /** For the hand-over lane: the security headers every answer carries, and whether the server is closing. */
    securityHeaders: SetSecurityHeaders;
    isClosing: () => boolean;
  },
): { handOverLane: HandOverLane | null } {
  const { media, storage } = deps;
  // an object store redirects to signed URLs instead: its files are not in a folder nginx could read
  const accelRedirect = storage.kind === 'local' ? deps.accelRedirect : undefined;
  const signedUrlSeconds = { private: deps.signedUrlSeconds, public: publicSignedUrlSeconds(deps.signedUrlSeconds) };
  const variants = createPictureVariants({ storage, log: app.log });
  const fileBuffers = createFileBuffers({ size: fileBufferBytes, keep: idleFileBuffers });

  app.get<{ Params: { '*': string }; Querystring: { vt?: string; w?: string } }>('/media/*', async (request, reply) => {
    const requested = request.params['*'];
    if (!isSafeKey(requested)) throw new AppError('NOT_FOUND');
    // the permission is the original's, whatever copy is sent: a copy never reaches anyone the original would refuse
    const visibility = await media.authorize(requested, {
      cookie: request.headers.cookie,
      viewingToken: typeof request.query.vt === 'string' ? request.query.vt : undefined,
      currentUser: () => request.currentUser(),
    });
    const width = requestedWidth(requested, request.query.w);
    // from here on, the file sent: the copy (its own key in the store) or the original
    const key = width ? await variants.keyFor(requested, width) : requested;
    if (storage.signedUrl && !servedThroughUs(key)) {
      const seconds = signedUrlSeconds[visibility];
      const url = await storage.signedUrl(key, {
        expiresInSeconds: seconds,
        cacheControl: visibility === 'public' ? `public, max-age=${seconds}` : 'private, no-store',
      });
      // the redirect itself may be reused only while its target is surely still valid
      reply.header('cache-control', visibility === 'public' ? `public, max-age=${seconds - 600}` : 'private, no-store');
      return reply.redirect(url, 302);
    }
    if (accelRedirect && !isPlaylist(key)) return handOver(reply, key, visibility, accelRedirect);
    // the local store keeps a video open between its range requests; other stores are read by key
    const opened = storage.openFile ? await storage.openFile(key) : null;
    const file = storage.openFile ? opened : await storage.stat(key);
    try {
      return await answer(request, reply, key, visibility, file, opened);
    } finally {
      opened?.release();
    }
  });

  /**
   * Permitted: nginx sends the file, with its own Range, ETag and 304 handling. nginx keeps Content-Type and
   * Cache-Control of this answer; the security headers are copied by its internal location (deploy/nginx.conf).
   */
  async function handOver(reply: FastifyReply, key: string, visibility: MediaVisibility, prefix: string) {
    // a missing file gets our 404, as without nginx; the held-open file makes this check free on later ranges
    const opened = storage.openFile ? await storage.openFile(key) : null;
    const exists = storage.openFile ? opened !== null : (await storage.stat(key)) !== null;
    opened?.release();
    if (!exists) throw new AppError('NOT_FOUND');
    return reply.headers(handOverHeaders(key, visibility, prefix)).send();
  }

  async function answer(
    request: FastifyRequest<{ Querystring: { vt?: string } }>,
    reply: FastifyReply,
    key: string,
    visibility: MediaVisibility,
    file: StoredFile | null,
    opened: OpenedFile | null,
  ) {
    if (!file) throw new AppError('NOT_FOUND');
    if (isPlaylist(key)) {
      const viewingToken = typeof request.query.vt === 'string' ? request.query.vt : undefined;
      return reply
        .header('content-type', 'application/vnd.apple.mpegurl')
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', visibility === 'public' ? 'public, max-age=3600' : 'private, no-store')
        .send(withViewingToken(await readText(storage, key), viewingToken));
    }
    const { etag, lastModified } = validators(file);

    reply
      .header('content-type', contentTypeOf(key))
      .header('x-content-type-options', 'nosniff')
      .header('accept-ranges', 'bytes')
      .header('cache-control', visibility === 'public' ? 'public, max-age=3600' : 'private, no-store')
      .header('etag', etag);
    if (lastModified) reply.header('last-modified', lastModified);

    if (preconditionFailed(request.headers, etag, file.modifiedAt)) throw new AppError('PRECONDITION_FAILED');
    if (fresh(request.headers, { etag, 'last-modified': lastModified })) {
      return reply.status(304).send();
    }

    const rangeHeader = request.headers.range;
    if (
      rangeHeader &&
      file.size > 0 &&
      rangeStillValid(String(request.headers['if-range'] ?? '') || undefined, etag, file.modifiedAt)
    ) {
      const ranges = rangeParser(file.size, clampSuffixes(rangeHeader, file.size), { combine: true });
      if (ranges === -1) {
        reply.header('content-range', `bytes */${file.size}`);
        throw new AppError('RANGE_NOT_SATISFIABLE');
      }
      // several ranges get the whole file (RFC 9110 lets a server ignore Range), as deploy/nginx.conf's max_ranges 1
      if (Array.isArray(ranges) && ranges.type === 'bytes' && ranges.length === 1) {
        const [range] = ranges;
        if (range) {
          const length = range.end - range.start + 1;
          reply
            .status(206)
            .header('content-range', `bytes ${range.start}-${range.end}/${file.size}`)
            .header('content-length', String(length));
          return opened ? sendFileRange(reply, opened, range, fileBuffers) : reply.send(storage.read(key, range));
        }
      }
    }
    reply.header('content-length', String(file.size));
    return opened
      ? sendFileRange(reply, opened, file.size > 0 ? { start: 0, end: file.size - 1 } : null, fileBuffers)
      : reply.send(storage.read(key));
  }

  // behind nginx, a video's repeat range requests are answered before Fastify once everything is remembered
  const isHeldOpen = storage.isHeldOpen?.bind(storage);
  const handOverLane =
    accelRedirect && isHeldOpen
      ? createHandOverLane({
          rememberedVisibility: media.rememberedVisibility,
          isHeldOpen,
          handOverHeaders: (key, visibility) => handOverHeaders(key, visibility, accelRedirect),
          securityHeaders: deps.securityHeaders,
          isClosing: deps.isClosing,
          log: app.log,
        })
      : null;
  return { handOverLane };
}
