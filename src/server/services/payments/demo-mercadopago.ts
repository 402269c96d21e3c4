import { createHash } from 'node:crypto';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { AppError } from '#shared/errors.ts';
import type { MercadoPagoOptions } from './mercadopago-provider.ts';
import { buildSimulatedMercadoPago } from './simulated-mercadopago.ts';
import { isHostedPage } from './simulated-mercadopago-pages.ts';

/** Where the demo's Mercado Pago pages live on the site itself: no second port, no other origin. */
const demoMercadoPagoPath = '/simulado/mercadopago';
/** Never resolved: the adapter's calls are answered in process (fetch below), not over a network. */
const apiBase = 'http://mercadopago.simulado.invalid';

/**
 * The demo's Mercado Pago (PAYMENTS_PROVIDERS=simulado with the demo content, no MERCADOPAGO_*): the strict
 * simulated Mercado Pago of the tests answers our real adapter in process, its card and voucher pages are served
 * under /simulado/mercadopago, and its voucher page can pay or expire a voucher. So the demo offers card, OXXO and
 * SPEI in pesos through the very code a real account uses, and nobody pays real money.
 */
export function createDemoMercadoPago(input: { publicUrl: string; dataDir: string; secret: string }) {
  const derived = (purpose: string) => createHash('sha256').update(`${input.secret}:${purpose}`).digest('hex');
  const accessToken = `TEST-${derived('token')}`;
  const webhookSecret = derived('webhooks');
  let site: FastifyInstance | null = null;
  const simulated = buildSimulatedMercadoPago({
    accessToken,
    webhookSecret,
    url: new URL(demoMercadoPagoPath, input.publicUrl).toString(),
    stateFile: path.join(input.dataDir, 'mercadopago-simulado.json'),
    deliver: async (hook) => {
      await site?.inject({
        method: 'POST',
        url: `/api/payments/webhooks/mercadopago?${new URLSearchParams(hook.query).toString()}`,
        headers: hook.headers,
        payload: hook.rawBody,
      });
    },
  });

  const fetchInProcess: typeof fetch = async (resource, init) => {
    const url = new URL(resource instanceof Request ? resource.url : resource.toString());
    const answer = await simulated.app.inject({
      method: (init?.method ?? 'GET') as 'GET',
      url: url.pathname + url.search,
      headers: Object.fromEntries(new Headers(init?.headers).entries()),
      ...(typeof init?.body === 'string' ? { payload: init.body } : {}),
    });
    const type = answer.headers['content-type'];
    return new Response(answer.statusCode === 204 ? null : answer.body, {
      status: answer.statusCode,
      headers: typeof type === 'string' ? { 'content-type': type } : {},
    });
  };

  const providerOptions: MercadoPagoOptions = { apiUrl: apiBase, accessToken, webhookSecret, fetch: fetchInProcess };

  /** Serves the hosted pages (card checkout, subscription checkout, voucher) to the payer's browser. */
  function register(app: FastifyInstance) {
    site = app;
    void app.register(async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 16 * 1024 }, (_request, body, done) =>
        done(null, body),
      );
      scope.all(`${demoMercadoPagoPath}/*`, async (request, reply) => {
        const inner = request.url.slice(demoMercadoPagoPath.length);
        // the API itself is reached in process only: the browser gets the pages a payer sees
        if (!isHostedPage(inner)) throw new AppError('NOT_FOUND');
        const answer = await simulated.app.inject({
          method: request.method as 'GET',
          url: inner,
          headers: { 'content-type': request.headers['content-type'] ?? 'text/plain' },
          ...(typeof request.body === 'string' ? { payload: request.body } : {}),
        });
        const location = answer.headers.location;
        if (typeof location === 'string') return reply.redirect(location, answer.statusCode === 303 ? 303 : 302);
        const type = answer.headers['content-type'];
        reply.header('content-type', typeof type === 'string' ? type : 'text/html; charset=utf-8');
        reply.header('cache-control', 'no-store');
        return reply.code(answer.statusCode).send(answer.body);
      });
    });
  }

  return { providerOptions, register };
}
