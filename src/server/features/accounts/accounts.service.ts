import { and, eq, gt, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Db } from '#server/db/client.ts';
import { classrooms, diplomas, loginFailures, sessions, users, verifications } from '#server/db/schema/index.ts';
import { AppError } from '#shared/errors.ts';
import { hasPremiumAccess } from '#shared/accounts/accounts.rules.ts';
import type { CurrentUser } from '#shared/accounts/accounts.schemas.ts';
import { type Auth, sessionAbsoluteLifetimeMs } from './auth.ts';
import { authHeaders, callAuth } from './auth-bridge.ts';

export type UserRow = typeof users.$inferSelect;

const failureWindowMs = 15 * 60_000;
const maxFailuresPerAccount = 5;
const lockMs = 15 * 60_000;

export function createAccountsService(deps: { db: Db; auth: Auth; publicUrl: string }) {
  const { db, auth, publicUrl } = deps;
  const normalize = (email: string) => email.trim().toLowerCase();

  /** The signed-in user of a request, or null for a guest (a failed lookup is a guest too). */
  async function resolveUser(request: FastifyRequest): Promise<UserRow | null> {
    if (!request.headers.cookie) return null;
    const result = await auth.api.getSession({ headers: authHeaders(request) }).catch(() => null);
    if (!result) return null;
    if (Date.now() - new Date(result.session.createdAt).getTime() > sessionAbsoluteLifetimeMs) {
      await db.delete(sessions).where(eq(sessions.id, result.session.id));
      return null;
    }
    const [row] = await db.select().from(users).where(eq(users.id, result.user.id));
    if (!row || row.isDisabled) return null;
    return row;
  }

  /** When the request's session was signed in (not refreshed); null for a guest. */
  async function sessionStartedAt(request: FastifyRequest): Promise<Date | null> {
    if (!request.headers.cookie) return null;
    const result = await auth.api.getSession({ headers: authHeaders(request) }).catch(() => null);
    return result ? new Date(result.session.createdAt) : null;
  }

  /** What the browser may know about the signed-in user. */
  async function toCurrentUser(row: UserRow): Promise<CurrentUser> {
    const [classroomAdmin, diplomaAdmin] = await Promise.all([
      db
        .select({ id: classrooms.id })
        .from(classrooms)
        .where(and(eq(classrooms.adminUserId, row.id), eq(classrooms.isActive, true)))
        .limit(1),
      db
        .select({ id: diplomas.id })
        .from(diplomas)
        .where(and(eq(diplomas.adminUserId, row.id), eq(diplomas.isActive, true)))
        .limit(1),
    ]);
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
      isClassroomAdmin: classroomAdmin.length > 0,
      isDiplomaAdmin: diplomaAdmin.length > 0,
    };
  }

  async function findByEmail(email: string): Promise<UserRow | null> {
    const [row] = await db.select().from(users).where(eq(users.email, normalize(email)));
    return row ?? null;
  }

  async function assertAccountNotLocked(email: string): Promise<void> {
    const [row] = await db
      .select()
      .from(loginFailures)
      .where(and(eq(loginFailures.email, email), gt(loginFailures.lockedUntil, new Date())));
    if (row) throw new AppError('RATE_LIMITED');
  }

  async function recordFailure(email: string): Promise<void> {
    const now = new Date();
    const windowStart = new Date(now.getTime() - failureWindowMs);
    await db
      .insert(loginFailures)
      .values({ email, failures: 1, windowStartedAt: now })
      .onConflictDoUpdate({
        target: loginFailures.email,
        set: {
          failures: sql`case when ${loginFailures.windowStartedAt} < ${windowStart} then 1 else ${loginFailures.failures} + 1 end`,
          windowStartedAt: sql`case when ${loginFailures.windowStartedAt} < ${windowStart} then ${now} else ${loginFailures.windowStartedAt} end`,
        },
      });
    await db
      .update(loginFailures)
      .set({ lockedUntil: new Date(now.getTime() + lockMs), failures: 0, windowStartedAt: now })
      .where(and(eq(loginFailures.email, email), sql`${loginFailures.failures} >= ${maxFailuresPerAccount}`));
  }

  /** Signs in with the spec's error catalogue; repeated failures lock the account for a while. */
  async function login(request: FastifyRequest, input: { email: string; password: string }) {
    const email = normalize(input.email);
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new AppError('LOGIN_INVALID_EMAIL');
    await assertAccountNotLocked(email);
    // better-auth runs first so that every attempt, even for an unknown address, counts against the IP limit
    const result = await callAuth(auth, request, '/sign-in/email', {
      method: 'POST',
      body: { email, password: input.password, rememberMe: true },
    });
    if (result.status === 429) throw new AppError('RATE_LIMITED');
    const existing = await findByEmail(email);
    if (!existing) throw new AppError('LOGIN_USER_NOT_FOUND');
    if (result.status === 401) {
      await recordFailure(email);
      throw new AppError('LOGIN_WRONG_PASSWORD');
    }
    if (result.status === 403) throw new AppError('FORBIDDEN');
    if (result.status !== 200) throw new Error(`sign-in answered ${result.status} ${result.body.code ?? ''}`);
    await db.delete(loginFailures).where(eq(loginFailures.email, email));
    if (existing.isDisabled) {
      await db.delete(sessions).where(eq(sessions.userId, existing.id));
      throw new AppError('LOGIN_USER_DISABLED');
    }
    return { user: await toCurrentUser(existing), setCookies: result.setCookies };
  }

  async function logout(request: FastifyRequest) {
    const result = await callAuth(auth, request, '/sign-out', { method: 'POST', body: {} });
    return { setCookies: result.setCookies };
  }

  /** Sends the reset link; the spec tells an unknown address apart. */
  async function requestPasswordReset(request: FastifyRequest, input: { email: string }) {
    const email = normalize(input.email);
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new AppError('LOGIN_INVALID_EMAIL');
    const result = await callAuth(auth, request, '/request-password-reset', {
      method: 'POST',
      body: { email, redirectTo: `${publicUrl}/reasignar_password` },
    });
    if (result.status === 429) throw new AppError('RATE_LIMITED');
    if (!(await findByEmail(email))) throw new AppError('LOGIN_USER_NOT_FOUND');
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

  async function changePassword(request: FastifyRequest, input: { currentPassword: string; newPassword: string }) {
    const result = await callAuth(auth, request, '/change-password', {
      method: 'POST',
      body: { currentPassword: input.currentPassword, newPassword: input.newPassword, revokeOtherSessions: true },
    });
    if (result.status === 429) throw new AppError('RATE_LIMITED');
    if (result.status === 400 && result.body.code === 'INVALID_PASSWORD') throw new AppError('LOGIN_WRONG_PASSWORD');
    if (result.status !== 200) throw new AppError('PASSWORD_CHANGE_FAILED');
    return { setCookies: result.setCookies };
  }

  /** Creates a credentialed account; the caller decides its type (seed, admin console, sign-up). */
  async function createAccount(input: {
    name: string;
    email: string;
    password: string;
    values?: Partial<Omit<typeof users.$inferInsert, 'id' | 'email' | 'name' | 'userNumber'>>;
  }): Promise<UserRow> {
    const email = normalize(input.email);
    if (await findByEmail(email)) throw new AppError('EMAIL_TAKEN');
    const created = await auth.api.signUpEmail({ body: { name: input.name, email, password: input.password } });
    const [row] = await db
      .update(users)
      .set({ ...input.values, updatedAt: new Date() })
      .where(eq(users.id, created.user.id))
      .returning();
    if (!row) throw new Error('account vanished after creation');
    return row;
  }

  /** Removes an account with its sessions and credentials (cascading foreign keys). */
  async function deleteAccount(userId: string): Promise<void> {
    await db.delete(users).where(eq(users.id, userId));
  }

  /** Ensures ADMIN_EMAIL exists as an Admin; an existing account is promoted, its password kept. */
  async function ensureAdmin(admin: { email: string; password: string }): Promise<'created' | 'promoted' | 'unchanged'> {
    const existing = await findByEmail(admin.email);
    if (!existing) {
      await createAccount({ name: 'Administrador', email: admin.email, password: admin.password, values: { type: 'Admin' } });
      return 'created';
    }
    if (existing.type === 'Admin') return 'unchanged';
    await db.update(users).set({ type: 'Admin' }).where(eq(users.id, existing.id));
    return 'promoted';
  }

  return {
    resolveUser,
    sessionStartedAt,
    toCurrentUser,
    findByEmail,
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

export type AccountsService = ReturnType<typeof createAccountsService>;
