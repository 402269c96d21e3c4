import type { FastifyRequest } from 'fastify';
import { boundedCache } from '#server/services/bounded-cache.ts';
import type { Database } from '#server/db/client.ts';
import type { users } from '#server/db/schema/index.ts';

type UserRow = typeof users.$inferSelect;

/**
 * How long an instance trusts a verified session without asking the database, should a NOTIFY be lost with the
 * connection still up: the longest a revoked session can still be served (decision 040).
 */
export const verifiedSessionMs = 30_000;

/** Notified by a trigger with an account id when its row changed, or when a new aula or diploma names it admin. */
const accountChangedChannel = 'account_changed';
/** The channels after which an account's verified sessions are looked up again (migrations 0016, 0021, 0022). */
export const sessionDroppingChannels = ['access_changed', accountChangedChannel, 'viewing_tokens'] as const;

/** better-auth's signed session cookie (with the __Secure- prefix over HTTPS): the cache's key. */
const sessionCookiePattern = /(?:^|;\s*)(?:__Secure-)?better-auth\.session_token=([^;]+)/;

type VerifiedSession = {
  id: string;
  createdAt: Date;
  expiresAt: Date;
  user: UserRow;
  /** What answers keep with the session ('/api/me''s administrator flags, the profile's certificates). */
  kept?: Map<string, unknown>;
};

/** Taken before a lookup: what it found may be remembered only if nothing changed and nothing was missed since. */
type Ticket = { readonly changes: number };

/**
 * The sessions this instance verified, by signed cookie value, with their account's row. Served only while every
 * LISTEN that announces their end is established (`database.listening()`): while one is down nothing is served and
 * nothing is remembered, and what was remembered is dropped; it resumes once the listener is back, after its
 * `anyChange` cleared everything that might have been announced meanwhile.
 */
export function createSessionCache(deps: {
  /** Without it (a service built alone) no session is ever remembered. */
  database?: Pick<Database, 'listen' | 'listening'>;
  ttlMs?: number;
  /** The clock of the entries' time to live (tests move it). */
  now?: () => number;
}) {
  const { database } = deps;
  const ttlMs = deps.ttlMs ?? verifiedSessionMs;
  // the keys of each account's entries, so a change drops only that account's
  const tokensOfAccount = new Map<string, Set<string>>();
  const verified = boundedCache<string, VerifiedSession>({
    entries: 50_000,
    ttl: ttlMs,
    now: deps.now,
    onRemove: (entry, token) => {
      const tokens = tokensOfAccount.get(entry.user.id);
      tokens?.delete(token);
      if (tokens?.size === 0) tokensOfAccount.delete(entry.user.id);
    },
  });
  // bumped by every change and every gap. A lookup that overlapped a change to its own account may have read the old
  // row; one that overlapped a gap (or '*') may have missed anything. A change to another account spoils nothing:
  // on a busy evening every sign-in and viewing token announces one, and no lookup would ever be remembered
  // (decision 055).
  let changes = 0;
  /** Lookups that began before this remember nothing. */
  let spoiledBefore = 0;
  /** Each changed account's last change, while a lookup that began before it may still be under way. */
  const changedAt = new Map<string, number>();
  const changesNoted = 10_000;
  let subscribed = 0;

  function noteChange(userId: string) {
    changes += 1;
    if (userId === '*' || changedAt.size >= changesNoted) {
      spoiledBefore = changes;
      changedAt.clear();
    }
    if (userId !== '*') changedAt.set(userId, changes);
  }

  /** Nothing that concerns `userId`'s account changed, and nothing was missed, since `ticket` was taken. */
  const unchangedSince = (ticket: Ticket, userId: string) =>
    ticket.changes >= spoiledBefore && (changedAt.get(userId) ?? 0) <= ticket.changes;

  /** Forgets every verified session of the account (or of every account for '*'), on this instance. */
  function forgetAccount(userId: string) {
    noteChange(userId);
    if (userId === '*') {
      verified.clear();
      tokensOfAccount.clear();
      return;
    }
    for (const token of [...(tokensOfAccount.get(userId) ?? [])]) verified.delete(token);
    tokensOfAccount.delete(userId);
  }

  /** Forgets one thing kept with the account's verified sessions (`kept`'s name), the sessions themselves stay. */
  function forgetKept(userId: string, name: string) {
    noteChange(userId);
    for (const token of tokensOfAccount.get(userId) ?? []) verified.peek(token)?.kept?.delete(name);
  }

  /** Every channel subscribed and every LISTEN up now; when not, whatever is remembered is dropped. */
  function active(): boolean {
    if (database && subscribed === sessionDroppingChannels.length && database.listening()) return true;
    if (verified.size > 0) forgetAccount('*');
    return false;
  }

  // a channel that failed to LISTEN (database down at start) is tried again, the cache staying off meanwhile
  function subscribe(channel: string, delayMs: number) {
    database!.listen(channel, forgetAccount).then(
      () => {
        subscribed += 1;
        // what was announced before this LISTEN took hold is unknown
        forgetAccount('*');
      },
      () => setTimeout(() => subscribe(channel, Math.min(delayMs * 2, 30_000)), delayMs).unref(),
    );
  }
  if (database) for (const channel of sessionDroppingChannels) subscribe(channel, 500);

  const tokenOf = (request: FastifyRequest) => request.headers.cookie?.match(sessionCookiePattern)?.[1];

  /** The request's remembered session, if the cache may answer now. */
  function lookup(request: FastifyRequest): VerifiedSession | undefined {
    const token = tokenOf(request);
    return token && active() ? verified.get(token) : undefined;
  }

  return {
    forgetAccount,
    forgetKept,
    lookup,

    ticket: (): Ticket => ({ changes }),

    /** What the cache holds now: its remembered sessions, their accounts and the changes it keeps track of. */
    sizes: () => ({ sessions: verified.size, accounts: tokensOfAccount.size, changesNoted: changedAt.size }),

    /** Remembers what a lookup that began with `ticket` verified, unless a change to its account or a gap overlapped it. */
    remember(request: FastifyRequest, ticket: Ticket, entry: VerifiedSession, absoluteEnd: Date) {
      const token = tokenOf(request);
      if (!token || !unchangedSince(ticket, entry.user.id) || !active()) return;
      const ttl = Math.min(ttlMs, entry.expiresAt.getTime() - Date.now(), absoluteEnd.getTime() - Date.now());
      if (ttl <= 0) return;
      verified.set(token, entry, { ttl });
      let tokens = tokensOfAccount.get(entry.user.id);
      if (!tokens) tokensOfAccount.set(entry.user.id, (tokens = new Set()));
      tokens.add(token);
    },

    /**
     * `load`'s answer for this request's session, remembered with it and dropped with it: only for what a trigger
     * announces when it changes. `user`: the row the caller holds must be the remembered one.
     */
    async kept<T>(request: FastifyRequest, name: string, load: () => Promise<T>, user?: UserRow): Promise<T> {
      const known = lookup(request);
      const usable = known && (!user || known.user === user);
      if (usable && known.kept?.has(name)) return known.kept.get(name) as T;
      const before: Ticket = { changes };
      const value = await load();
      if (usable && unchangedSince(before, known.user.id) && active()) (known.kept ??= new Map()).set(name, value);
      return value;
    },
  };
}
