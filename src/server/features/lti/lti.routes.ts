import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { ltiPlatforms } from '#server/db/schema/index.ts';
import { AppError } from '#shared/errors.ts';
import { claims, isInstructor, messageTypes } from './lti-claims.ts';
import { toolJwks } from './lti-key.ts';
import { LaunchRefused } from './lti-launch.ts';
import {
  autoPostPage,
  autoSubmitScript,
  linkPage,
  page,
  pickPage,
  refusalPage,
  sendPage,
  type RefusalPage,
} from './lti-pages.ts';
import type { ErrorCode } from '#shared/errors.ts';
import type { Lti } from './lti.ts';
import { createLaunchTickets, registerLtiWindowRoutes } from './lti-window.routes.ts';
import { registerLtiRosterRoutes } from './lti-roster.routes.ts';

const text = (max: number) => z.string().min(1).max(max);
const loginSchema = z.object({
  iss: text(2000),
  login_hint: text(2000),
  target_link_uri: text(2000),
  lti_message_hint: z.string().max(4000).optional(),
  client_id: z.string().max(500).optional(),
  lti_deployment_id: z.string().max(500).optional(),
});
const launchSchema = z.object({ id_token: text(30_000), state: text(200) });
const linkSchema = z.object({ link: text(200), email: text(320), password: text(200) });
const pickSchema = z.object({ context: text(8000), target: text(100) });

/** The public side of the LTI tool: its keys, login initiation, launch, account linking and deep linking. */
export function registerLtiRoutes(app: FastifyInstance, lti: Lti): void {
  const refuse = (reply: FastifyReply, reason: RefusalPage, code: ErrorCode = 'VALIDATION') =>
    sendPage(reply, code, refusalPage(reason));
  const tickets = createLaunchTickets(lti);
  registerLtiWindowRoutes(app, lti, tickets);

  app.get('/api/lti/jwks', async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=300');
    return lti.key ? toolJwks(lti.key) : { keys: [] };
  });
  app.get('/api/lti/auto-submit.js', async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=3600').send(autoSubmitScript),
  );

  // a platform's form posts, parsed here only: the rest of the API takes JSON
  void app.register(async (forms) => {
    forms.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 64 * 1024 },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    const routes = forms.withTypeProvider<ZodTypeProvider>();

    const initiate = async (input: z.infer<typeof loginSchema>, reply: FastifyReply) => {
      try {
        return reply.redirect(await lti.launch.initiate(input), 302);
      } catch (error) {
        if (error instanceof LaunchRefused) return refuse(reply, error.reason);
        throw error;
      }
    };
    routes.get('/api/lti/login', { schema: { querystring: loginSchema } }, (request, reply) =>
      initiate(request.query, reply),
    );
    routes.post('/api/lti/login', { schema: { body: loginSchema } }, (request, reply) => initiate(request.body, reply));

    routes.post('/api/lti/launch', { schema: { body: launchSchema } }, async (request, reply) => {
      let verified;
      try {
        verified = await lti.launch.verify({ idToken: request.body.id_token, state: request.body.state });
      } catch (error) {
        if (error instanceof LaunchRefused) return refuse(reply, error.reason, 'UNAUTHENTICATED');
        throw error;
      }
      const { platform, token } = verified;
      if (!lti.targets) return refuse(reply, 'destino-invalido');
      const account = await lti.accounts.accountFor(platform, token);
      if (account.kind === 'disabled') return refuse(reply, 'cuenta-deshabilitada', 'FORBIDDEN');
      if (account.kind === 'link') return sendPage(reply, null, linkPage({ linkId: account.linkId }));
      const deepLinking = token[claims.messageType] === messageTypes.deepLinking;
      if (deepLinking && !isInstructor(token[claims.roles] as string[]))
        return refuse(reply, 'mensaje-invalido', 'FORBIDDEN');
      const next = deepLinking
        ? `/api/lti/deep-linking?context=${encodeURIComponent(await lti.targets.pickContext(platform, token, account.user.id))}`
        : await lti.targets.open(platform, token, account.user);
      if (!next) return refuse(reply, 'destino-invalido', 'NOT_FOUND');
      reply.header('set-cookie', await lti.accounts.launchSession(request, account.user.id, platform.id));
      return reply.redirect(await tickets.continueUrl(account.user.id, platform.id, next), 303);
    });

    routes.post('/api/lti/link', { schema: { body: linkSchema } }, async (request, reply) => {
      const pending = await lti.accounts.pendingLink(request.body.link);
      if (!pending) return refuse(reply, 'inicio-vencido');
      let userId: string;
      try {
        const signedIn = await lti.signIn(request, { email: request.body.email, password: request.body.password });
        userId = signedIn.user.id;
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        const message =
          error.code === 'RATE_LIMITED'
            ? 'Demasiados intentos. Espera un momento y vuelve a intentarlo.'
            : 'El correo o la contraseña no son correctos.';
        return sendPage(
          reply,
          'UNAUTHENTICATED',
          linkPage({ linkId: request.body.link, email: request.body.email, error: message }),
        );
      }
      if (userId !== pending.userId || !(await lti.accounts.completeLink(request.body.link, userId))) {
        return sendPage(
          reply,
          'FORBIDDEN',
          linkPage({
            linkId: request.body.link,
            email: request.body.email,
            error: 'Inicia sesión con la cuenta de tu correo de la plataforma.',
          }),
        );
      }
      return sendPage(
        reply,
        null,
        page(
          'Cuenta vinculada',
          '<p>Tu cuenta de CxVet quedó vinculada. Vuelve a abrir la actividad desde tu curso.</p>',
        ),
      );
    });

    routes.get(
      '/api/lti/deep-linking',
      { schema: { querystring: z.object({ context: text(8000) }) } },
      async (request, reply) => {
        const user = await request.currentUser();
        const picked = user && lti.targets ? await lti.targets.readPickContext(request.query.context, user.id) : null;
        if (!picked) return refuse(reply, 'inicio-vencido', 'UNAUTHENTICATED');
        const [platform] = await lti.db.select().from(ltiPlatforms).where(eq(ltiPlatforms.id, picked.platformId));
        if (!platform) return refuse(reply, 'plataforma-desconocida');
        return sendPage(reply, null, pickPage(request.query.context, await lti.targets!.options(platform)));
      },
    );
    routes.post('/api/lti/deep-linking', { schema: { body: pickSchema } }, async (request, reply) => {
      const user = await request.currentUser();
      const picked = user && lti.targets ? await lti.targets.readPickContext(request.body.context, user.id) : null;
      if (!picked) return refuse(reply, 'inicio-vencido', 'UNAUTHENTICATED');
      const [platform] = await lti.db.select().from(ltiPlatforms).where(eq(ltiPlatforms.id, picked.platformId));
      if (!platform) return refuse(reply, 'plataforma-desconocida');
      const option = (await lti.targets!.options(platform)).find(
        (candidate) => `${candidate.kind}:${candidate.id}` === request.body.target,
      );
      if (!option) return refuse(reply, 'destino-invalido');
      const jwt = await lti.targets!.deepLinkingResponse(platform, picked, option);
      return sendPage(reply, null, autoPostPage(picked.returnUrl, { JWT: jwt }));
    });
  });
  registerLtiRosterRoutes(app, lti);
}
