import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { MailingService } from './mailing.service.ts';

/** The link in each promotional mail: public, the signed token identifies the member. */
export function registerMailingPublicRoutes(app: FastifyInstance, deps: { mailing: MailingService }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const query = z.object({ u: z.string().max(100), t: z.string().max(100) });
  void app.register(async (scope) => {
    // RFC 8058 one-click: the mail client POSTs 'List-Unsubscribe=One-Click' to the link; the signed query decides
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, _body, done) =>
      done(null, {}),
    );
    scope
      .withTypeProvider<ZodTypeProvider>()
      .post('/api/mailing/unsubscribe', { schema: { querystring: query } }, async (request, reply) => {
        const done = await deps.mailing.unsubscribe(request.query.u, request.query.t);
        return reply.status(done ? 200 : 400).send({ unsubscribed: done });
      });
  });
  api.get(
    '/api/mailing/unsubscribe',
    { schema: { querystring: z.object({ u: z.string().max(100), t: z.string().max(100) }) } },
    async (request, reply) => {
      const done = await deps.mailing.unsubscribe(request.query.u, request.query.t);
      reply.status(done ? 200 : 400).type('text/html; charset=utf-8');
      return `<!doctype html><html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>CxVet</title></head><body style="font-family:sans-serif;padding:24px"><h1>CxVet</h1><p>${
        done ? 'Listo: ya no recibirás correos promocionales de CxVet.' : 'El enlace no es válido.'
      }</p><p><a href="/">Ir a CxVet</a></p></body></html>`;
    },
  );
}
