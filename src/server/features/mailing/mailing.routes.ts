import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorMessages } from '#shared/error-messages.ts';
import { withErrorStatus } from '#server/plugins/error-handler.ts';
import { escapeHtml } from '#server/services/mail-layout.ts';
import type { MailingService } from './mailing.service.ts';

const linkQuery = z.object({ u: z.string().max(100), t: z.string().max(100) });

/** One-click bodies are a single short field ('List-Unsubscribe=One-Click'); anything longer is not one. */
const oneClickBodyLimit = 4 * 1024;

function sendPage(reply: FastifyReply, body: string) {
  return reply
    .type('text/html; charset=utf-8')
    .send(
      `<!doctype html><html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Correos promocionales · CxVet</title></head><body style="font-family:sans-serif;padding:24px;max-width:40rem"><h1>CxVet</h1>${body}<p><a href="/">Ir a CxVet</a></p></body></html>`,
    );
}

/** The link in each promotional mail: public, the signed token identifies the member. */
export function registerMailingPublicRoutes(app: FastifyInstance, deps: { mailing: MailingService }) {
  void app.register(async (scope) => {
    // RFC 8058 one-click: mail clients POST 'List-Unsubscribe=One-Click' urlencoded or as multipart/form-data;
    // the signed query decides, so the body is read (bounded) and ignored
    const ignoreBody = (_request: unknown, _body: unknown, done: (error: null, body: object) => void) => done(null, {});
    scope.addContentTypeParser(
      ['application/x-www-form-urlencoded', 'multipart/form-data'],
      { parseAs: 'buffer', bodyLimit: oneClickBodyLimit },
      ignoreBody,
    );
    const api = scope.withTypeProvider<ZodTypeProvider>();

    // a GET only asks: mail providers' link scanners fetch every URL in a mail, and must not unsubscribe anyone
    api.get('/api/mailing/unsubscribe', { schema: { querystring: linkQuery } }, async (request, reply) => {
      const { u, t } = request.query;
      if (!deps.mailing.isUnsubscribeLink(u, t)) {
        const invalid = 'UNSUBSCRIBE_LINK_INVALID';
        return sendPage(withErrorStatus(reply, invalid), `<p>${errorMessages[invalid].message}</p>`);
      }
      const action = `/api/mailing/unsubscribe?u=${encodeURIComponent(u)}&t=${encodeURIComponent(t)}`;
      return sendPage(
        reply,
        `<p>¿Quieres dejar de recibir correos promocionales de CxVet?</p><form method="post" action="${escapeHtml(action)}"><button type="submit" style="font-size:1rem;padding:8px 16px">Dejar de recibir correos promocionales</button></form>`,
      );
    });

    api.post('/api/mailing/unsubscribe', { schema: { querystring: linkQuery } }, async (request, reply) => {
      await deps.mailing.unsubscribe(request.query.u, request.query.t);
      // the page's own button asks for HTML; a mail client's one-click POST gets a plain JSON answer
      if (request.headers.accept?.includes('text/html'))
        return sendPage(reply, '<p>Listo: ya no recibirás correos promocionales de CxVet.</p>');
      return { unsubscribed: true };
    });
  });
}
