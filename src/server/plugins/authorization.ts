import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '#shared/errors.ts';
import { hasPremiumAccess, isAdmin } from '#shared/accounts/accounts.rules.ts';
import type { AccountsService, UserRow } from '#server/features/accounts/accounts.service.ts';
import { keptMarksName } from '#server/features/watching/watch-marks.service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in account, looked up once per request; null for a guest. */
    currentUser(): Promise<UserRow | null>;
    /** The signed-in session (device) of this request; null for a guest. */
    currentSessionId(): Promise<string | null>;
  }
}

const cache = new WeakMap<FastifyRequest, Promise<UserRow | null>>();
const resolvedIds = new WeakMap<FastifyRequest, string>();

/** The signed-in user's id if this request already looked it up (for the request log; never a lookup of its own). */
export function loggedUserId(request: FastifyRequest): string | null {
  return resolvedIds.get(request) ?? null;
}

export function registerAuthorization(app: FastifyInstance, accounts: AccountsService): void {
  app.decorateRequest('currentUser', function (this: FastifyRequest) {
    let pending = cache.get(this);
    if (!pending) {
      pending = accounts.resolveUser(this).then((user) => {
        if (user) resolvedIds.set(this, user.id);
        return user;
      });
      cache.set(this, pending);
    }
    return pending;
  });
  // a write through this instance shows in its very next answer, before the trigger's NOTIFY comes back: an Admin's
  // or a payment webhook's may change anyone, a member's own their account; a video position changes no account
  // data, only perhaps the catalogue's 'Visto' marks kept with the session
  app.addHook('onSend', async (request, _reply, payload) => {
    if (request.method === 'GET' || request.method === 'HEAD') return payload;
    const userId = resolvedIds.get(request);
    if (request.url.startsWith('/api/admin/') || request.url.startsWith('/api/payments/webhooks/')) {
      accounts.forgetAccount('*');
    } else if (request.url.startsWith('/api/watching/')) {
      if (userId) accounts.forgetKept(userId, keptMarksName);
    } else if (userId) accounts.forgetAccount(userId);
    return payload;
  });
  app.decorateRequest('currentSessionId', async function (this: FastifyRequest) {
    const user = await this.currentUser();
    return user ? accounts.sessionIdOf(this) : null;
  });
}

/** A signed-in account (any type); guests get 401. */
export async function requireUser(request: FastifyRequest): Promise<UserRow> {
  const user = await request.currentUser();
  if (!user) throw new AppError('UNAUTHENTICATED');
  return user;
}

/** Premium, active Legacy or Admin. */
export async function requirePremium(request: FastifyRequest): Promise<UserRow> {
  const user = await requireUser(request);
  if (!hasPremiumAccess(user)) throw new AppError('FORBIDDEN');
  return user;
}

export async function requireAdmin(request: FastifyRequest): Promise<UserRow> {
  const user = await requireUser(request);
  if (!isAdmin(user)) throw new AppError('FORBIDDEN');
  return user;
}
