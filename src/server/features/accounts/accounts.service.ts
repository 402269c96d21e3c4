import { and, eq, exists, gt, inArray, isNull, or, sql, type SQLWrapper } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { boundedCache } from '#server/services/bounded-cache.ts';
import { createSessionCache } from './session-cache.ts';
import type { Database, Db } from '#server/db/client.ts';
import {
  authAccounts,
  classroomCoAdmins,
  classrooms,
  diplomas,
  loginFailures,
  sessions,
  users,
  verifications,
} from '#server/db/schema/index.ts';
import { AppError } from '#shared/errors.ts';
import { hasPremiumAccess, minPasswordLength } from '#shared/accounts/accounts.rules.ts';
import type { CurrentUser } from '#shared/accounts/accounts.schemas.ts';
import { type Auth, maxPasswordLength, sessionAbsoluteLifetimeMs } from './auth.ts';
import { authHeaders, callAuth } from './auth-bridge.ts';
import type { RateCounter, RateRule } from '#server/services/rate-counter.ts';

export type UserRow = typeof users.$inferSelect;

/** A session's 'última actividad' is written at most this often (per instance), not on every request. */
const lastActiveEveryMs = 5 * 60_000;

const failureWindowMs = 15 * 60_000;
const maxFailuresPerAccount = 5;
const lockMs = 15 * 60_000;
/** Recovery mails one account may receive per hour; more requests get the same answer and no mail. */
const resetMailsPerAccountPerHour = 3;
/** Recovery requests one IP may make per 5 minutes (answered 429 beyond). */
const resetRequestsPerIp = 5;
/** 5 per IP by default; raising the per-IP sign-in ceiling (a campus NAT, the end-to-end suite) raises it in step. */
const resetRequestsPerIpFor = (limits: SignInLimits) => Math.max(resetRequestsPerIp, Math.floor(limits.perIp / 60));

/** Sign-in attempts per minute: per account from one IP, per account from anywhere, and failed ones per IP (a campus NAT). */
export type SignInLimits = { perAccountAndIp: number; perAccount: number; perIp: number };

const signInIpRule = (limits: SignInLimits, ip: string): RateRule => ({
  key: `sign-in:ip:${ip}`,
  max: limits.perIp,
  windowMs: 60_000,
});

function signInRules(limits: SignInLimits, ip: string, email: string): RateRule[] {
  return [
    signInIpRule(limits, ip),
    { key: `sign-in:account-ip:${email}|${ip}`, max: limits.perAccountAndIp, windowMs: 60_000 },
    { key: `sign-in:account:${email}`, max: limits.perAccount, windowMs: 60_000 },
  ];
}

export function createAccountsService(deps: {
  /** Its queries, and LISTEN for the changes that end or alter a session (the verified-session cache). */
  database: Pick<Database, 'db' | 'listen' | 'listening'>;
  auth: Auth;
  publicUrl: string;
  rateCounter: RateCounter;
  signInLimits: SignInLimits;
}) {
  const { auth, publicUrl, rateCounter, signInLimits } = deps;
  const { db } = deps.database;
  const normalize = (email: string) => email.trim().toLowerCase();
  const sessionIds = new WeakMap<FastifyRequest, string>();
  const recentlyActive = boundedCache<string, true>({ entries: 100_000, ttl: lastActiveEveryMs });

  const cache = createSessionCache({ database: deps.database });
  const { forgetAccount } = cache;

  async function noteActivity(sessionId: string): Promise<void> {
    if (recentlyActive.has(sessionId)) return;
    recentlyActive.set(sessionId, true);
    await db.update(sessions).set({ lastActiveAt: new Date() }).where(eq(sessions.id, sessionId));
  }

  /** The signed-in user of a request, or null for a guest (a failed lookup is a guest too). */
  /**
   * better-auth's session for this request's cookie. A lookup that failed is not a signed-out member: it throws
   * SERVICE_UNAVAILABLE (503), so the browser keeps its session and tries again.
   */
  async function findSession(request: FastifyRequest) {
    try {
      return await auth.api.getSession({ headers: authHeaders(request) });
    } catch (error) {
      // better-auth's own 401: the session ended while it was being refreshed (signed out elsewhere)
      if ((error as { statusCode?: unknown } | null)?.statusCode === 401) return null;
      throw new AppError('SERVICE_UNAVAILABLE');
    }
  }

  async function resolveUser(request: FastifyRequest): Promise<UserRow | null> {
    if (!request.headers.cookie) return null;
    const known = cache.lookup(request);
    if (known) {
      sessionIds.set(request, known.id);
      await noteActivity(known.id);
      return known.user;
    }
    const ticket = cache.ticket();
    const result = await findSession(request);
    if (!result) return null;
    const createdAt = new Date(result.session.createdAt);
    const absoluteEnd = new Date(createdAt.getTime() + sessionAbsoluteLifetimeMs);
    if (Date.now() > absoluteEnd.getTime()) {
      await db.delete(sessions).where(eq(sessions.id, result.session.id));
      return null;
    }
    const [row] = await db.select().from(users).where(eq(users.id, result.user.id));
    if (!row || row.isDisabled) return null;
    sessionIds.set(request, result.session.id);
    const session = { id: result.session.id, createdAt, expiresAt: new Date(result.session.expiresAt), user: row };
    cache.remember(request, ticket, session, absoluteEnd);
    await noteActivity(result.session.id);
    return row;
  }

  /** The session id `resolveUser` found for this request (call that first); null for a guest. */
  function sessionIdOf(request: FastifyRequest): string | null {
    return sessionIds.get(request) ?? null;
  }

  /** The request's session: its id and when it was signed in (not refreshed); null for a guest. */
  async function currentSession(request: FastifyRequest): Promise<{ id: string; createdAt: Date } | null> {
    if (!request.headers.cookie) return null;
    const known = cache.lookup(request);
    if (known) return { id: known.id, createdAt: known.createdAt };
    const result = await findSession(request);
    return result ? { id: result.session.id, createdAt: new Date(result.session.createdAt) } : null;
  }

  /** When the request's session was signed in (not refreshed); null for a guest. */
  async function sessionStartedAt(request: FastifyRequest): Promise<Date | null> {
    return (await currentSession(request))?.createdAt ?? null;
  }

  /** Whether the account of `userId` (a value or a column) administers an active aula, and an active diploma. */
  const adminFlags = (userId: SQLWrapper | string) => {
    const one = { one: sql`1` };
    const classroom = db
      .select(one)
      .from(classrooms)
      .where(
        and(
          eq(classrooms.isActive, true),
          or(
            eq(classrooms.adminUserId, userId),
            exists(
              db
                .select(one)
                .from(classroomCoAdmins)
                .where(and(eq(classroomCoAdmins.classroomId, classrooms.id), eq(classroomCoAdmins.userId, userId))),
            ),
          ),
        ),
      );
    const diploma = db
      .select(one)
      .from(diplomas)
      .where(and(eq(diplomas.isActive, true), eq(diplomas.adminUserId, userId)));
    return { classroom: sql<boolean>`${exists(classroom)}`, diploma: sql<boolean>`${exists(diploma)}` };
  };

  /** Whether the account administers an active aula or diploma; remembered with the request's verified session. */
  async function adminOf(row: UserRow, request?: FastifyRequest) {
    const load = async () => {
      const [flags] = await db.select(adminFlags(row.id)).from(users).where(eq(users.id, row.id));
      return { classroom: Boolean(flags?.classroom), diploma: Boolean(flags?.diploma) };
    };
    return request ? cache.kept(request, 'adminOf', load, row) : load();
  }

  /**
   * `load`'s answer for this request's session, remembered with it and dropped with it: only for what a trigger of
   * migration 0016, 0021 or 0022 announces when it changes.
   */
  function keptWithSession<T>(request: FastifyRequest, name: string, load: () => Promise<T>): Promise<T> {
    return cache.kept(request, name, load);
  }

  /** What the browser may know about the signed-in user (`request`: the one whose session may remember the flags). */
  async function toCurrentUser(row: UserRow, request?: FastifyRequest): Promise<CurrentUser> {
    return describeUser(row, await adminOf(row, request));
  }

  function describeUser(row: UserRow, admin: { classroom: boolean; diploma: boolean }): CurrentUser {
    return {
      id: row.id,
      name: row.name,
      email: row.email,
      type: row.type,
      paymentStatus: row.paymentStatus,
      annualPlan: row.annualPlan,
      paymentDay: row.paymentDay?.toISOString() ?? null,
      terminationDate: row.terminationDate?.toISOString() ?? null,
      subscriptionId: row.subscriptionId,
      country: row.country,
      city: row.city,
      phoneNumber: row.phoneNumber,
      hasPremiumAccess: hasPremiumAccess(row),
      isClassroomAdmin: admin.classroom,
      isDiplomaAdmin: admin.diploma,
    };
  }

  async function findByEmail(email: string): Promise<UserRow | null> {
    const [row] = await db
      .select()
      .from(users)
      .where(eq(users.email, normalize(email)));
    return row ?? null;
  }

  /** The account signing in with its administrator flags, in one statement (the answer describes the member). */
  async function signingIn(email: string) {
    const [found] = await db
      .select({ row: users, admin: adminFlags(users.id) })
      .from(users)
      .where(eq(users.email, email));
    return found
      ? { row: found.row, admin: { classroom: Boolean(found.admin.classroom), diploma: Boolean(found.admin.diploma) } }
      : null;
  }

  /**
   * Reserves one password check for the account, atomically: one INSERT … ON CONFLICT DO UPDATE … RETURNING counts the
   * guess and decides in the same statement (the row lock serialises parallel guesses). At most
   * maxFailuresPerAccount guesses are evaluated per window; the next one locks the account for lockMs. A successful
   * sign-in clears the row.
   */
  async function reserveGuess(email: string): Promise<boolean> {
    const now = new Date();
    const windowStart = new Date(now.getTime() - failureWindowMs);
    const lockedUntil = new Date(now.getTime() + lockMs);
    const locked = sql`(${loginFailures.lockedUntil} is not null and ${loginFailures.lockedUntil} > ${now})`;
    const fresh = sql`(not ${locked} and (${loginFailures.windowStartedAt} <= ${windowStart} or ${loginFailures.lockedUntil} is not null))`;
    const [row] = await db
      .insert(loginFailures)
      .values({ email, failures: 1, windowStartedAt: now, lockedUntil: null })
      .onConflictDoUpdate({
        target: loginFailures.email,
        set: {
          failures: sql`case when ${locked} then ${loginFailures.failures} when ${fresh} then 1 else ${loginFailures.failures} + 1 end`,
          windowStartedAt: sql`case when ${fresh} then ${now} else ${loginFailures.windowStartedAt} end`,
          lockedUntil: sql`case when ${locked} then ${loginFailures.lockedUntil} when ${fresh} then null when ${loginFailures.failures} + 1 > ${maxFailuresPerAccount} then ${lockedUntil} else null end`,
        },
      })
      .returning({ lockedUntil: loginFailures.lockedUntil });
    return Boolean(row) && row!.lockedUntil === null;
  }

  /** Signs in with the spec's error catalogue; limits per IP, per account and IP, per account, then the lockout. */
  async function login(request: FastifyRequest, input: { email: string; password: string }) {
    const email = normalize(input.email);
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new AppError('LOGIN_INVALID_EMAIL');
    const allowed = await rateCounter.hitAll(signInRules(signInLimits, request.ip, email));
    if (!allowed) throw new AppError('RATE_LIMITED');
    const account = await signingIn(email);
    if (!account) throw new AppError('LOGIN_USER_NOT_FOUND');
    const existing = account.row;
    // counted before it is checked: parallel guesses beyond the allowance are never evaluated
    if (!(await reserveGuess(email))) throw new AppError('RATE_LIMITED');
    const result = await callAuth(auth, request, '/sign-in/email', {
      method: 'POST',
      body: { email, password: input.password, rememberMe: true },
    });
    if (result.status === 429) throw new AppError('RATE_LIMITED');
    if (result.status === 401) throw new AppError('LOGIN_WRONG_PASSWORD');
    if (result.status === 403) throw new AppError('FORBIDDEN');
    if (result.status !== 200) throw new Error(`sign-in answered ${result.status} ${result.body.code ?? ''}`);
    if (existing.isDisabled) {
      await db.delete(loginFailures).where(eq(loginFailures.email, email));
      await db.delete(sessions).where(eq(sessions.userId, existing.id));
      throw new AppError('LOGIN_USER_DISABLED');
    }
    // the guess is cleared and, in the same statement, the address's count given back: its ceiling counts failures,
    // so a class behind one NAT signing in correctly never reaches it (decision 046)
    const cleared = db
      .$with('cleared')
      .as(db.delete(loginFailures).where(eq(loginFailures.email, email)).returning({ email: loginFailures.email }));
    await rateCounter.release(signInIpRule(signInLimits, request.ip), cleared);
    return { user: describeUser(existing, account.admin), setCookies: result.setCookies };
  }

  async function logout(request: FastifyRequest) {
    const result = await callAuth(auth, request, '/sign-out', { method: 'POST', body: {} });
    // this instance before the answer leaves; the others when the sessions trigger's NOTIFY reaches them
    const known = cache.lookup(request);
    if (known) forgetAccount(known.user.id);
    return { setCookies: result.setCookies };
  }

  /**
   * Sends the reset link; the spec tells an unknown address apart. Capped per IP (429) and per account: past the
   * account's cap the answer is the same as a sent mail, and no mail goes out.
   */
  async function requestPasswordReset(request: FastifyRequest, input: { email: string }) {
    const email = normalize(input.email);
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new AppError('LOGIN_INVALID_EMAIL');
    if (
      !(await rateCounter.hit({
        key: `reset:ip:${request.ip}`,
        max: resetRequestsPerIpFor(signInLimits),
        windowMs: 5 * 60_000,
      }))
    ) {
      throw new AppError('RATE_LIMITED');
    }
    if (!(await findByEmail(email))) throw new AppError('LOGIN_USER_NOT_FOUND');
    if (
      !(await rateCounter.hit({ key: `reset:account:${email}`, max: resetMailsPerAccountPerHour, windowMs: 3600_000 }))
    )
      return;
    const result = await callAuth(auth, request, '/request-password-reset', {
      method: 'POST',
      body: { email, redirectTo: `${publicUrl}/reasignar_password` },
    });
    if (result.status === 429) throw new AppError('RATE_LIMITED');
    if (result.status !== 200) throw new Error(`password reset request answered ${result.status}`);
  }

  /** A reset code is valid while unused and unexpired. */
  async function isResetCodeValid(code: string): Promise<boolean> {
    const [row] = await db
      .select({ id: verifications.id })
      .from(verifications)
      .where(and(eq(verifications.identifier, `reset-password:${code}`), gt(verifications.expiresAt, new Date())));
    return Boolean(row);
  }

  async function resetPassword(request: FastifyRequest, input: { code: string; password: string }) {
    if (!(await isResetCodeValid(input.code))) throw new AppError('RESET_CODE_INVALID');
    const result = await callAuth(auth, request, '/reset-password', {
      method: 'POST',
      body: { token: input.code, newPassword: input.password },
    });
    if (result.status === 429) throw new AppError('RATE_LIMITED');
    if (result.status !== 200) throw new AppError('RESET_CODE_INVALID');
  }

  async function changePassword(
    request: FastifyRequest,
    userId: string,
    input: { currentPassword: string; newPassword: string },
  ) {
    const result = await callAuth(auth, request, '/change-password', {
      method: 'POST',
      body: { currentPassword: input.currentPassword, newPassword: input.newPassword, revokeOtherSessions: true },
    });
    // the other devices' sessions are gone: on this instance at once, on the others through NOTIFY
    forgetAccount(userId);
    if (result.status === 429) throw new AppError('RATE_LIMITED');
    if (result.status === 400 && result.body.code === 'INVALID_PASSWORD') throw new AppError('LOGIN_WRONG_PASSWORD');
    if (result.status !== 200) throw new AppError('PASSWORD_CHANGE_FAILED');
    return { setCookies: result.setCookies };
  }

  /**
   * Creates a credentialed account; the caller decides its type (seed, admin console, sign-up). The user row and its
   * credential are written in one transaction: a failure leaves neither behind.
   */
  async function createAccount(input: {
    name: string;
    email: string;
    password: string;
    values?: Partial<Omit<typeof users.$inferInsert, 'id' | 'email' | 'name' | 'userNumber'>>;
    /** More writes that belong to the new account, in its transaction (sign-up's consent log). */
    alsoWrite?: (tx: Db, row: UserRow) => Promise<void>;
  }): Promise<UserRow> {
    const email = normalize(input.email);
    if (await findByEmail(email)) throw new AppError('EMAIL_TAKEN');
    if (input.password.length < minPasswordLength || input.password.length > maxPasswordLength)
      throw new AppError('VALIDATION');
    const context = await auth.$context;
    const passwordHash = await context.password.hash(input.password);
    const id = crypto.randomUUID();
    try {
      return await db.transaction(async (tx) => {
        const [row] = await tx
          .insert(users)
          .values({ ...input.values, id, name: input.name, email, emailVerified: false })
          .returning();
        await tx.insert(authAccounts).values({
          id: crypto.randomUUID(),
          accountId: id,
          providerId: 'credential',
          userId: id,
          password: passwordHash,
        });
        await input.alsoWrite?.(tx as unknown as Db, row!);
        return row!;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('EMAIL_TAKEN');
      throw error;
    }
  }

  /** Removes an account with its sessions and credentials (cascading foreign keys). */
  async function deleteAccount(userId: string): Promise<void> {
    await db.delete(users).where(eq(users.id, userId));
  }

  /** Ensures ADMIN_EMAIL exists as an Admin; an existing account is promoted (by membership, which owns the type), its password kept. */
  async function ensureAdmin(
    admin: { email: string; password: string },
    promote: (userId: string) => Promise<void>,
  ): Promise<'created' | 'promoted' | 'unchanged'> {
    const existing = await findByEmail(admin.email);
    if (!existing) {
      await createAccount({
        name: 'Administrador',
        email: admin.email,
        password: admin.password,
        values: { type: 'Admin' },
      });
      return 'created';
    }
    if (existing.type === 'Admin') return 'unchanged';
    await promote(existing.id);
    return 'promoted';
  }

  /** The given accounts (e-mails) that sign in with this password: a production start refuses the demo's. */
  async function emailsWithPassword(emails: readonly string[], password: string): Promise<string[]> {
    if (emails.length === 0) return [];
    const rows = await db
      .select({ email: users.email, hash: authAccounts.password })
      .from(users)
      .innerJoin(authAccounts, and(eq(authAccounts.userId, users.id), eq(authAccounts.providerId, 'credential')))
      .where(and(inArray(users.email, emails.map(normalize)), isNull(users.anonymizedAt)));
    const context = await auth.$context;
    const matching: string[] = [];
    for (const row of rows) {
      if (row.hash && (await context.password.verify({ hash: row.hash, password }))) matching.push(row.email);
    }
    return matching.sort();
  }

  return {
    emailsWithPassword,
    resolveUser,
    forgetAccount,
    forgetKept: cache.forgetKept,
    keptWithSession,
    sessionStartedAt,
    currentSession,
    toCurrentUser,
    findByEmail,
    sessionIdOf,
    login,
    logout,
    requestPasswordReset,
    isResetCodeValid,
    resetPassword,
    changePassword,
    createAccount,
    deleteAccount,
    ensureAdmin,
  };
}

function isUniqueViolation(error: unknown): boolean {
  const codeOf = (value: unknown) => (value as { code?: string } | undefined)?.code;
  return codeOf(error) === '23505' || codeOf((error as { cause?: unknown }).cause) === '23505';
}

export type AccountsService = ReturnType<typeof createAccountsService>;
