import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

// built, hashed assets are our own scripts and styles, never documents; uploaded media keep the headers (an upload opened directly must not run)
const isBuiltAsset = (url: string) => url.startsWith('/assets/');

type SecurityHeaderOptions = { https: boolean; mediaOrigin?: string };

/** CSP and friends on HTML and API responses; HTTPS-only headers only when we are served over HTTPS. */
export async function registerSecurityHeaders(
  app: FastifyInstance,
  options: SecurityHeaderOptions,
): Promise<SetSecurityHeaders> {
  const setHeaders = createSecurityHeaders(options);
  app.addHook('onRequest', (request, reply, done) => {
    if (isBuiltAsset(request.url)) return done();
    // helmet's middleware only sets headers, synchronously; it throws rather than calling back with an error
    setHeaders(request.raw, reply.raw, () => done());
  });
  return (request, response) => setHeaders(request, response, () => {});
}

/** Sets the security headers on a raw answer, synchronously. */
export type SetSecurityHeaders = (request: IncomingMessage, response: ServerResponse) => void;

/** Helmet's middleware with our policy, built once (@fastify/helmet built it, and parsed the CSP, again for every request). */
function createSecurityHeaders(options: SecurityHeaderOptions) {
  return helmet({
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
}
