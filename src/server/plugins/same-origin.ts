import type { FastifyInstance } from 'fastify';
import { AppError } from '#shared/errors.ts';

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);
// provider webhooks and one-click unsubscribes (RFC 8058) are posted by servers, and verified by signature instead;
// an LMS posts its login initiation and signed launch from its own site, checked by state, nonce and signature
const exemptPrefixes = ['/api/payments/webhooks/', '/api/mailing/unsubscribe', '/api/lti/login', '/api/lti/launch'];

/** Refuses state-changing requests that a browser sent from another site (CSRF). */
export function registerSameOriginCheck(app: FastifyInstance, trustedOrigins: string[]): void {
  const trusted = new Set(trustedOrigins);
  app.addHook('onRequest', async (request) => {
    if (safeMethods.has(request.method)) return;
    if (exemptPrefixes.some((prefix) => request.url.startsWith(prefix))) return;
    const origin = request.headers.origin;
    const crossSite = request.headers['sec-fetch-site'] === 'cross-site';
    if ((origin && !trusted.has(origin)) || crossSite) throw new AppError('FORBIDDEN');
  });
}
