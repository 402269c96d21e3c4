import { existsSync } from 'node:fs';
import { brotliCompressSync, constants as zlibConstants } from 'node:zlib';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { AppError } from '#shared/errors.ts';
import { isAdmin } from '#shared/accounts/accounts.rules.ts';
import { createPageHints, type PageHintsContext } from './page-hints.ts';

/** Serves the built SPA: hashed assets cached for a year, index.html for every client route. */
export async function registerWebApp(
  app: FastifyInstance,
  distDir: string | null,
  context: PageHintsContext,
): Promise<void> {
  const hasBuild = distDir !== null && existsSync(path.join(distDir, 'index.html'));
  const pageHints = hasBuild ? createPageHints(distDir, context) : null;
  if (distDir !== null && hasBuild) {
    await app.register(fastifyStatic, {
      root: distDir,
      // one GET/HEAD route for the folder, the file looked up per request: `wildcard: false` globbed dist/ at start
      // and registered two routes per file (about 1,000 with the .br and .gz copies), ~0.1 s of every start and
      // several MB of route objects. A missing file still ends in the not-found handler below.
      wildcard: true,
      index: false,
      // as the globbed routes were: no dotfiles, and a folder ('/') is a page for the not-found handler below
      dotfiles: 'ignore',
      allowedPath: (pathname) => !pathname.endsWith('/'),
      preCompressed: true,
      cacheControl: false, // ours below; send's 'max-age=0' would replace it
      setHeaders(res, filePath) {
        const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
        res.setHeader('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  app.setNotFoundHandler(async (request, reply) => {
    const isPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !request.url.startsWith('/api/') &&
      !request.url.startsWith('/media/') &&
      !request.url.startsWith('/assets/');
    if (pageHints && isPage) {
      const html = await pageHints.html(new URL(request.url, 'http://localhost'), {
        isGuest: async () => (await request.currentUser()) === null,
        isAdmin: async () => isAdmin(await request.currentUser()),
      });
      // the hints differ for a signed-in member: a shared cache keeps one page per cookie, never a member's for a guest
      reply
        .header('cache-control', 'no-cache')
        .header('vary', 'accept-encoding, cookie')
        .type('text/html; charset=utf-8');
      // a few kB, compressed fast: the page is the first thing a phone waits for
      if (/\bbr\b/.test(String(request.headers['accept-encoding'] ?? ''))) {
        return reply
          .header('content-encoding', 'br')
          .send(brotliCompressSync(html, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } }));
      }
      return reply.send(html);
    }
    throw new AppError('NOT_FOUND');
  });
}
