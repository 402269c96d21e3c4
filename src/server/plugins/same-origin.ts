import type { FastifyInstance } from 'fastify';
import { AppError } from '#shared/errors.ts';

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);
// provider webhooks and one-click unsubscribes (RFC 8058) are posted by servers, and verified by signature instead
const exemptPrefixes = ['/api/payments/webhooks/', '/api/mailing/unsubscribe'];

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
