import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

// built, hashed assets are our own scripts and styles, never documents; uploaded media keep the headers (an upload opened directly must not run)
const isBuiltAsset = (url: string) => url.startsWith('/assets/');

/** CSP and friends on HTML and API responses; HTTPS-only headers only when we are served over HTTPS. */
export async function registerSecurityHeaders(app: FastifyInstance, options: { https: boolean; mediaOrigin?: string }): Promise<void> {
  // built once: @fastify/helmet built helmet's middleware (and parsed the CSP) again for every request
  const setHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        // with STORAGE=s3 images and videos come from the bucket's signed URLs (the /media route redirects there)
        imgSrc: ["'self'", 'data:', 'blob:', ...(options.mediaOrigin ? [options.mediaOrigin] : [])],
        mediaSrc: ["'self'", 'blob:', ...(options.mediaOrigin ? [options.mediaOrigin] : [])],
        fontSrc: ["'self'", 'data:'],
        // the player fetches its chapters track from a blob: URL the page builds (procedure-player.tsx)
        connectSrc: ["'self'", 'blob:'],
        workerSrc: ["'self'", 'blob:'],
        frameSrc: ['https://www.youtube-nocookie.com', 'https://www.youtube.com'],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        ...(options.https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    hsts: options.https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onRequest', (request, reply, done) => {
    if (isBuiltAsset(request.url)) return done();
    // helmet's middleware only sets headers, synchronously; it throws rather than calling back with an error
    setHeaders(request.raw, reply.raw, () => done());
  });
}
