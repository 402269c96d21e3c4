import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { SignJWT, jwtVerify, importJWK } from 'jose';
import { z } from 'zod';
import { eq } from 'drizzle-orm';
import { ltiLaunchSessions, ltiLaunchStates, ltiPlatforms } from '#server/db/schema/index.ts';
import { signedSessionValue } from './lti-accounts.ts';
import { toolJwks } from './lti-key.ts';
import { escapeHtml, page, refusalPage, sendPage } from './lti-pages.ts';
import type { Lti } from './lti.ts';

const ticketLifetimeSeconds = 120;
const sessionCookieSeconds = 7 * 24 * 3600;
const localPath = z
  .string()
  .max(2000)
  .refine((value) => value.startsWith('/') && !value.startsWith('//') && !value.includes('\\'));

/**
 * After a launch the browser comes here inside the frame: with the launch cookie it goes on; a browser that refused
 * the third-party cookie is offered 'Abrir en una ventana nueva', where a one-time ticket signs it in first-party.
 */
export function createLaunchTickets(lti: Lti) {
  const publicKey = lti.key ? importJWK(toolJwks(lti.key).keys[0]!, 'RS256') : null;

  async function ticketFor(userId: string, platformId: string, to: string): Promise<string> {
    return new SignJWT({ purpose: 'lti-window', platformId, to })
      .setProtectedHeader({ alg: 'RS256' })
      .setSubject(userId)
      .setJti(crypto.randomUUID())
      .setIssuedAt()
      .setExpirationTime(`${ticketLifetimeSeconds}s`)
      .sign(await lti.targets!.signingKey);
  }

  async function read(ticket: string) {
    if (!publicKey) return null;
    try {
      const { payload } = await jwtVerify(ticket, await publicKey, { algorithms: ['RS256'] });
      const to = localPath.safeParse(payload.to);
      if (payload.purpose !== 'lti-window' || !to.success || typeof payload.platformId !== 'string') return null;
      return { userId: payload.sub!, platformId: payload.platformId, to: to.data, jti: payload.jti! };
    } catch {
      return null;
    }
  }

  /** The continue URL a launch redirects to. */
  async function continueUrl(userId: string, platformId: string, to: string): Promise<string> {
    return `/api/lti/continue?ticket=${encodeURIComponent(await ticketFor(userId, platformId, to))}`;
  }

  return { continueUrl, read };
}

export function registerLtiWindowRoutes(
  app: FastifyInstance,
  lti: Lti,
  tickets: ReturnType<typeof createLaunchTickets>,
) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const query = { querystring: z.object({ ticket: z.string().min(1).max(4000) }) };

  routes.get('/api/lti/continue', { schema: query }, async (request, reply) => {
    const ticket = await tickets.read(request.query.ticket);
    if (!ticket) return sendPage(reply, 'UNAUTHENTICATED', refusalPage('inicio-vencido'));
    const user = await request.currentUser();
    if (user?.id === ticket.userId) return reply.redirect(ticket.to, 303);
    const open = `/api/lti/open?ticket=${encodeURIComponent(request.query.ticket)}`;
    return sendPage(
      reply,
      null,
      page(
        'Abre CxVet en una ventana nueva',
        `<p>Tu navegador no permite que CxVet mantenga tu sesión dentro del curso.</p>
<p><a href="${escapeHtml(open)}" target="_blank" rel="noopener">Abrir en una ventana nueva</a></p>`,
      ),
    );
  });

  /** First-party: the ticket, used once, becomes an ordinary session of the site. */
  routes.get('/api/lti/open', { schema: query }, async (request, reply) => {
    const ticket = await tickets.read(request.query.ticket);
    if (!ticket) return sendPage(reply, 'UNAUTHENTICATED', refusalPage('inicio-vencido'));
    // a platform deleted since the launch signs no one in
    const [platform] = await lti.db
      .select({ id: ltiPlatforms.id })
      .from(ltiPlatforms)
      .where(eq(ltiPlatforms.id, ticket.platformId));
    if (!platform) return sendPage(reply, 'UNAUTHENTICATED', refusalPage('plataforma-desconocida'));
    const spent = await lti.db
      .insert(ltiLaunchStates)
      .values({
        state: `ventana:${ticket.jti}`,
        nonce: `ventana:${ticket.jti}`,
        platformId: ticket.platformId,
        expiresAt: new Date(Date.now() + ticketLifetimeSeconds * 1000),
        usedAt: new Date(),
      })
      .onConflictDoNothing()
      .returning();
    if (spent.length === 0) return sendPage(reply, 'UNAUTHENTICATED', refusalPage('inicio-repetido'));
    const context = await lti.auth.$context;
    const session = await context.internalAdapter.createSession(ticket.userId, false, { ipAddress: request.ip });
    if (!session) throw new Error('could not create the session');
    await lti.db.insert(ltiLaunchSessions).values({ sessionId: session.id, platformId: platform.id });
    const name = `${lti.secureCookies ? '__Secure-' : ''}better-auth.session_token`;
    const value = signedSessionValue(session.token, lti.sessionSecret);
    reply.header(
      'set-cookie',
      `${name}=${value}; Path=/; Max-Age=${sessionCookieSeconds}; HttpOnly; SameSite=Lax${lti.secureCookies ? '; Secure' : ''}`,
    );
    return reply.redirect(ticket.to, 303);
  });
}
