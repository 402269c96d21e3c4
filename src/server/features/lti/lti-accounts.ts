import { createHash, createHmac, randomBytes } from 'node:crypto';
import { and, eq, gt, lt } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { JWTPayload } from 'jose';
import type { Db } from '#server/db/client.ts';
import { ltiAccounts, ltiLaunchSessions, ltiPendingLinks, users } from '#server/db/schema/index.ts';
import type { Auth } from '#server/features/accounts/auth.ts';
import type { UserRow } from '#server/features/accounts/accounts.service.ts';
import type { Platform } from './lti-launch.ts';

/** The launch session's own cookie: sent by the browser inside the platform's iframe, and only in that partition. */
const launchCookieName = 'cxvet_lti';
const sessionCookiePattern = /(?:^|;\s*)(?:__Secure-)?better-auth\.session_token=/;
const launchCookiePattern = new RegExp(`(?:^|;\\s*)${launchCookieName}=([^;]+)`);
const launchCookieSeconds = 7 * 24 * 3600;
const pendingLinkLifetimeMs = 30 * 60_000;

export type LaunchAccount = { kind: 'user'; user: UserRow } | { kind: 'link'; linkId: string } | { kind: 'disabled' };

/**
 * A request carrying only the launch cookie is read as better-auth's session: the same session rows, lookups and
 * sign-out, without the first-party cookie ever being sent from a third-party frame.
 */
export function launchCookieAsSession(request: FastifyRequest, secure: boolean): void {
  const cookie = request.headers.cookie;
  if (!cookie || sessionCookiePattern.test(cookie)) return;
  const value = cookie.match(launchCookiePattern)?.[1];
  if (!value) return;
  request.headers.cookie = `${cookie}; ${secure ? '__Secure-' : ''}better-auth.session_token=${value}`;
}

/** better-auth's signed cookie value of a session token (HMAC-SHA256 with the session secret, as better-call signs). */
export function signedSessionValue(token: string, secret: string): string {
  const signature = createHmac('sha256', secret).update(token).digest('base64');
  return encodeURIComponent(`${token}.${signature}`);
}

export function hasLaunchCookie(request: FastifyRequest): boolean {
  return launchCookiePattern.test(request.headers.cookie ?? '');
}

function displayName(token: JWTPayload): string {
  const name = typeof token.name === 'string' ? token.name.trim() : '';
  const parts = [token.given_name, token.family_name].filter((part) => typeof part === 'string' && part.trim());
  return (name || parts.join(' ').trim() || 'Usuario LTI').slice(0, 100);
}

function emailOf(token: JWTPayload): string | null {
  const email = typeof token.email === 'string' ? token.email.trim().toLowerCase() : '';
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) ? email : null;
}

export function createLtiAccounts(deps: { db: Db; auth: Auth; secret: string; secureCookies: boolean }) {
  const { db, auth } = deps;

  async function linked(platformId: string, sub: string): Promise<UserRow | null> {
    const [row] = await db
      .select({ user: users })
      .from(ltiAccounts)
      .innerJoin(users, eq(users.id, ltiAccounts.userId))
      .where(and(eq(ltiAccounts.platformId, platformId), eq(ltiAccounts.sub, sub)));
    return row?.user ?? null;
  }

  /**
   * Platform and sub name the account; an e-mail that already has one is never merged silently (its owner links the
   * two by signing in once); otherwise a first launch creates a Gratis account, without a password, in the
   * platform's organization.
   */
  async function accountFor(platform: Platform, token: JWTPayload): Promise<LaunchAccount> {
    const sub = token.sub!;
    const known = await linked(platform.id, sub);
    if (known) return known.isDisabled ? { kind: 'disabled' } : { kind: 'user', user: known };
    const email = emailOf(token);
    if (email) {
      const [owner] = await db.select().from(users).where(eq(users.email, email));
      if (owner) {
        if (owner.isDisabled) return { kind: 'disabled' };
        // the same person's other first launch, at the same moment, made this account and its link (one transaction)
        const made = await linked(platform.id, sub);
        if (made?.id === owner.id) return { kind: 'user', user: made };
        const linkId = randomBytes(24).toString('base64url');
        await db.delete(ltiPendingLinks).where(lt(ltiPendingLinks.expiresAt, new Date()));
        await db.insert(ltiPendingLinks).values({
          id: linkId,
          platformId: platform.id,
          sub,
          userId: owner.id,
          expiresAt: new Date(Date.now() + pendingLinkLifetimeMs),
        });
        return { kind: 'link', linkId };
      }
    }
    // no e-mail from the platform: an address of its own that no mailbox answers
    const hash = createHash('sha256').update(`${platform.id}|${sub}`).digest('hex').slice(0, 24);
    const address = email ?? `lti-${hash}@lti.cxvet.invalid`;
    const id = crypto.randomUUID();
    try {
      const user = await db.transaction(async (tx) => {
        const [row] = await tx
          .insert(users)
          .values({
            id,
            name: displayName(token),
            email: address,
            emailVerified: Boolean(email),
            type: 'Gratis',
            organizationId: platform.organizationId,
          })
          .returning();
        await tx.insert(ltiAccounts).values({ platformId: platform.id, sub, userId: id });
        return row!;
      });
      return { kind: 'user', user };
    } catch (error) {
      // two first launches at once: the other one created it
      const winner = await linked(platform.id, sub);
      if (winner) return { kind: 'user', user: winner };
      throw error;
    }
  }

  /** The pending link of a launch, while it lasts. */
  async function pendingLink(linkId: string) {
    const [row] = await db
      .select()
      .from(ltiPendingLinks)
      .where(and(eq(ltiPendingLinks.id, linkId), gt(ltiPendingLinks.expiresAt, new Date())));
    return row ?? null;
  }

  /** Links the platform's user to the account that just proved it is theirs; the pending link is spent. */
  async function completeLink(linkId: string, userId: string): Promise<boolean> {
    const [row] = await db.delete(ltiPendingLinks).where(eq(ltiPendingLinks.id, linkId)).returning();
    if (!row || row.expiresAt < new Date() || row.userId !== userId) return false;
    await db.insert(ltiAccounts).values({ platformId: row.platformId, sub: row.sub, userId }).onConflictDoNothing();
    return true;
  }

  /**
   * A session for the launched person, and its launch cookie (SameSite=None; Secure; Partitioned); the session is
   * recorded as the platform's, and ends when the platform is deleted.
   */
  async function launchSession(request: FastifyRequest, userId: string, platformId: string): Promise<string> {
    const context = await auth.$context;
    const userAgent = request.headers['user-agent'];
    const session = await context.internalAdapter.createSession(userId, false, {
      ipAddress: request.ip,
      userAgent: typeof userAgent === 'string' ? userAgent : '',
    });
    if (!session) throw new Error('could not create the launch session');
    await db.insert(ltiLaunchSessions).values({ sessionId: session.id, platformId });
    const value = signedSessionValue(session.token, deps.secret);
    return `${launchCookieName}=${value}; Path=/; Max-Age=${launchCookieSeconds}; HttpOnly; SameSite=None; Secure; Partitioned`;
  }

  return { accountFor, pendingLink, completeLink, launchSession };
}
